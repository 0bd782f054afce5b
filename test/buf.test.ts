import assert from 'node:assert/strict'
import { test } from 'node:test'
import { compileError, parseBufOutput, repoPath, toFindings } from '../src/bufFindings.js'
import { gateArgv } from '../src/harness.js'

const out = [
  '{"path":"schemas/orders/v1/order.proto","start_line":8,"start_column":1,"end_line":16,"end_column":2,"type":"FIELD_NO_DELETE","message":"Previously present field \\"2\\" was deleted."}',
  ''
].join('\n')

test('buf JSON lines become findings with repo-relative files', () => {
  const { annotations, other } = parseBufOutput(out)
  assert.deepEqual(other, [])
  assert.deepEqual(toFindings('breaking', annotations, 'proto'), [
    { kind: 'breaking', file: 'proto/schemas/orders/v1/order.proto', line: 8, column: 1, rule: 'FIELD_NO_DELETE', message: 'Previously present field "2" was deleted.' }
  ])
  assert.equal(repoPath('.', 'a/b.proto'), 'a/b.proto')
  assert.equal(repoPath('', 'a/b.proto'), 'a/b.proto')
})

test('a COMPILE annotation is a one-line error naming file:line:col', () => {
  const { annotations } = parseBufOutput(
    '{"path":"schemas/orders/v1/order.proto","start_line":17,"start_column":11,"type":"COMPILE","message":"encountered unmatched `{` delimiter"}\n'
  )
  const msg = compileError(annotations, '.')
  assert.ok(msg?.startsWith('schemas/orders/v1/order.proto:17:11: encountered unmatched `{` delimiter'))
  assert.equal(compileError(parseBufOutput(out).annotations, '.'), undefined)
})

test('non-JSON output is kept apart', () => {
  assert.deepEqual(parseBufOutput('Failure: no .proto files were targeted.\n').other, ['Failure: no .proto files were targeted.'])
})

test('gateArgv spells every flag of the wiregate gate contract', () => {
  const argv = gateArgv({
    harnessDir: '/a/harness', baseDir: '/b', headDir: '/h', buf: 'buf', bufInput: '.', messages: ['x.v1.A', 'x.v1.B'],
    samples: '', formats: ['json', 'protobuf'], avroSchemas: '**/*.avsc', avroCompatibility: 'BACKWARD',
    sizeThreshold: '5%', timeThreshold: '10%', throughputThreshold: '10%', alpha: 0.05, count: 3, pipeline: false,
    pipelineMessages: 1000, broker: 'auto', findings: '/o/findings.json', allow: ['breaking'], baseRef: 'main',
    baseSha: 's1', headRef: 'f', headSha: 's2', out: '/o'
  })
  assert.equal(argv[0], 'gate')
  for (const flag of ['--messages=x.v1.A,x.v1.B', '--formats=json,protobuf', '--pipeline=false', '--allow=breaking', '--count=3', '--size-threshold=5%', '--samples=', '--out=/o']) {
    assert.ok(argv.includes(flag), flag)
  }
  assert.equal(argv.length, 26)
})
