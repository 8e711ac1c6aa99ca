'use strict';
// Publishes answer events to the claims topic, keyed by answer ID, after validating each one
// against the answer contract.

const { Kafka, Partitioners, logLevel } = require('kafkajs');
const { validateAnswer } = require('./contracts');

class AnswerProducer {
  constructor({ brokers, topic = 'claims', clientId = 'quantcheck-node-producer' }) {
    const kafka = new Kafka({ clientId, brokers, logLevel: logLevel.WARN });
    // The Java client's partitioner (murmur2), as kafka-python uses: one answer ID lands on
    // the same partition whichever language published it.
    this.producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    this.topic = topic;
  }

  async connect() {
    await this.producer.connect();
  }

  // Validates every answer first, so an invalid one sends nothing; resolves once the
  // cluster has acknowledged them all.
  async publishAnswers(answers) {
    const messages = answers.map((answer) => ({
      key: validateAnswer(answer).answer_id,
      value: JSON.stringify(answer),
    }));
    await this.producer.send({ topic: this.topic, acks: -1, messages });
    return messages.length;
  }

  async disconnect() {
    await this.producer.disconnect();
  }
}

module.exports = { AnswerProducer };
