#!/usr/bin/env node
'use strict';
// publish-answers --brokers HOST:PORT[,HOST:PORT] [--topic claims] FILE.jsonl
// Validates every line of FILE as an answer event, then publishes them all. Exit status 0
// when published, 2 on bad arguments or input (one line on stderr), 1 when Kafka fails.

const fs = require('node:fs');
const { parseArgs } = require('node:util');
const { ContractError, validateAnswer } = require('../src/contracts');
const { AnswerProducer } = require('../src/producer');

class UsageError extends Error {}

function options(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { brokers: { type: 'string' }, topic: { type: 'string', default: 'claims' } },
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError(error.message);
  }
  const { values, positionals } = parsed;
  if (!values.brokers) throw new UsageError('--brokers HOST:PORT is required');
  if (positionals.length !== 1) throw new UsageError('give exactly one FILE of answers (JSON Lines)');
  return { brokers: values.brokers.split(','), topic: values.topic, file: positionals[0] };
}

function readAnswers(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`${file}: ${error.message}`);
  }
  const answers = [];
  text.split('\n').forEach((line, index) => {
    if (!line.trim()) return;
    try {
      answers.push(validateAnswer(JSON.parse(line)));
    } catch (error) {
      if (error instanceof ContractError || error instanceof SyntaxError) {
        throw new UsageError(`${file}, line ${index + 1}: ${error.message}`);
      }
      throw error;
    }
  });
  return answers;
}

async function main(argv) {
  let settings;
  let answers;
  try {
    settings = options(argv);
    answers = readAnswers(settings.file);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`publish-answers: error: ${error.message.replace(/\n/g, ' ')}\n`);
    return 2;
  }
  const producer = new AnswerProducer({ brokers: settings.brokers, topic: settings.topic });
  try {
    await producer.connect();
    const count = await producer.publishAnswers(answers);
    process.stdout.write(`published ${count} answers to ${settings.topic}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`publish-answers: error: cannot publish to ${settings.topic}: ${error.message}\n`);
    return 1;
  } finally {
    await producer.disconnect();
  }
}

main(process.argv.slice(2)).then((status) => {
  process.exitCode = status;
});
