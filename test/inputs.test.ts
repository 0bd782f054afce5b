import assert from 'node:assert/strict'
import { test } from 'node:test'
import { INPUT_DEFAULTS, readInputs, type InputName } from '../src/inputs.js'

const from = (values: Partial<Record<InputName, string>>) => (name: InputName) => values[name] ?? ''

test('defaults apply when no input is set', () => {
  const i = readInputs(from({}))
  assert.equal(i.workingDirectory, '.')
  assert.equal(i.bufInput, '.')
  assert.deepEqual(i.formats, ['json', 'protobuf', 'avro'])
  assert.equal(i.avroSchemas, '**/*.avsc')
  assert.equal(i.avroCompatibility, 'BACKWARD')
  assert.equal(i.sizeThreshold, '5%')
  assert.equal(i.timeThreshold, '10%')
  assert.equal(i.throughputThreshold, '10%')
  assert.equal(i.alpha, 0.05)
  assert.equal(i.count, 10)
  assert.equal(i.pipeline, true)
  assert.equal(i.pipelineMessages, 200000)
  assert.equal(i.broker, 'auto')
  assert.equal(i.comment, true)
  assert.equal(i.lint, true)
  assert.equal(i.breaking, true)
  assert.deepEqual(i.messages, [])
})

test('every action input has a default entry', () => {
  assert.equal(Object.keys(INPUT_DEFAULTS).length, 20)
})

test('values are normalised', () => {
  const i = readInputs(
    from({
      messages: 'telemetry.v1.TelemetryEvent,\n orders.v1.Order\n',
      formats: 'JSON, protobuf',
      'size-threshold': '2.5',
      'avro-compatibility': 'full_transitive',
      broker: 'localhost:9092, 127.0.0.1:9093',
      pipeline: 'False',
      count: '3'
    })
  )
  assert.deepEqual(i.messages, ['telemetry.v1.TelemetryEvent', 'orders.v1.Order'])
  assert.deepEqual(i.formats, ['json', 'protobuf'])
  assert.equal(i.sizeThreshold, '2.5%')
  assert.equal(i.avroCompatibility, 'FULL_TRANSITIVE')
  assert.equal(i.broker, 'localhost:9092,127.0.0.1:9093')
  assert.equal(i.pipeline, false)
  assert.equal(i.count, 3)
})

const bad: Array<[InputName, string]> = [
  ['size-threshold', 'abc'],
  ['size-threshold', '-5%'],
  ['time-threshold', '10%%'],
  ['throughput-threshold', 'ten'],
  ['formats', 'json,xml'],
  ['avro-compatibility', 'SIDEWAYS'],
  ['alpha', '1.5'],
  ['alpha', 'x'],
  ['count', '0'],
  ['count', '2.5'],
  ['pipeline-messages', '-1'],
  ['pipeline', 'yes'],
  ['lint', 'maybe'],
  ['comment', '1'],
  ['broker', 'kafka'],
  ['messages', 'not a name']
]

for (const [name, value] of bad) {
  test(`bad ${name}=${JSON.stringify(value)} is an error naming the input`, () => {
    assert.throws(
      () => readInputs(from({ [name]: value })),
      (err: Error) => err.name === 'WiregateError' && err.message.includes(`'${name}'`)
    )
  })
}
