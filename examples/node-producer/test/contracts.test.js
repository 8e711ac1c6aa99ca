'use strict';
// The committed answer schema, as Ajv reads it: a valid answer passes, and invalid ones are
// refused with the failing field named, as the Python models refuse them.

const test = require('node:test');
const assert = require('node:assert');
const { ContractError, validateAnswer } = require('../src/contracts');

function answer(overrides = {}) {
  return {
    schema_version: 1,
    event_type: 'answer',
    answer_id: 'A01',
    answer_text: 'The logger records a reading every 15 seconds [1].',
    citations: { 1: 'S01' },
    retrieved_doc_ids: ['S01'],
    kb_version: 'v1',
    produced_at: '2024-06-01T12:00:00Z',
    ...overrides,
  };
}

test('a valid answer passes', () => {
  assert.deepStrictEqual(validateAnswer(answer()), answer());
});

for (const [name, overrides, field] of [
  ['a claim is not an answer', { event_type: 'claim' }, 'event_type'],
  ['the answer text may not be empty', { answer_text: '' }, 'answer_text'],
  ['a timestamp needs an offset', { produced_at: '2024-06-01T12:00:00' }, 'produced_at'],
  ['IDs hold no control characters', { answer_id: 'A\u0007' }, 'answer_id'],
  ['citations map to document IDs', { citations: { 1: 7 } }, 'citations.1'],
  ['unknown fields are refused', { claim_text: 'x' }, '(root)'],
  ['schema_version is 1', { schema_version: 2 }, 'schema_version'],
]) {
  test(name, () => {
    assert.throws(() => validateAnswer(answer(overrides)), (error) => {
      assert.ok(error instanceof ContractError);
      assert.ok(error.message.startsWith(`${field}: `), error.message);
      assert.ok(!error.message.includes('\n'));
      return true;
    });
  });
}
