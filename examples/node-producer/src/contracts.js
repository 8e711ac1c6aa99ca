'use strict';
// The answer contract, read from the JSON Schemas the Python models generate (schemas/ at the
// root of the repository), so this producer can never drift from what the workers accept.

const fs = require('node:fs');
const path = require('node:path');
const Ajv2020 = require('ajv/dist/2020').default;
const addFormats = require('ajv-formats').default;

const SCHEMA_DIR = process.env.QUANTCHECK_SCHEMA_DIR || path.resolve(__dirname, '..', '..', '..', 'schemas');
const ANSWER_SCHEMA = 'answer-event.v1.schema.json';
const MAX_REPORTED_ERRORS = 3;

class ContractError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ContractError';
  }
}

function loadValidator(fileName) {
  const schema = JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, fileName), 'utf8'));
  // allErrors: report every failing field at once, as the Python side does.
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  return ajv.compile(schema);
}

// One line naming the failing fields the way the Python side does: `citations.1: ...`.
function describe(errors) {
  const lines = errors.map((error) => {
    const location = error.instancePath ? error.instancePath.slice(1).split('/').join('.') : '(root)';
    const extra = error.params && error.params.additionalProperty;
    return `${location}: ${error.message}${extra ? ` (${extra})` : ''}`;
  });
  const shown = lines.slice(0, MAX_REPORTED_ERRORS).join('; ');
  const more = lines.length - MAX_REPORTED_ERRORS;
  return more > 0 ? `${shown}; and ${more} more` : shown;
}

const validateAnswerSchema = loadValidator(ANSWER_SCHEMA);

// Throws ContractError naming the failing fields when `answer` is not a version 1 answer event.
function validateAnswer(answer) {
  if (!validateAnswerSchema(answer)) {
    throw new ContractError(describe(validateAnswerSchema.errors));
  }
  return answer;
}

module.exports = { ContractError, SCHEMA_DIR, validateAnswer };
