import assert from 'node:assert/strict'
import { test } from 'node:test'
import { allowFlags, exitCode, failureMessage, gateOutputs } from '../src/gate.js'
import { errorReport, type Report } from '../src/report.js'
import { loadFixture } from './fixtures.js'

test('labels map to allow flags, case and order insensitive', () => {
  assert.deepEqual(allowFlags([]), [])
  assert.deepEqual(allowFlags(['bug', 'Wiregate Allow Breaking']), ['breaking'])
  assert.deepEqual(allowFlags(['wiregate allow regression', 'wiregate allow breaking']), ['breaking', 'regression'])
  assert.deepEqual(allowFlags(['wiregate allow everything']), [])
})

test('exit code follows report.json', () => {
  assert.equal(exitCode(loadFixture('pass')), 0)
  assert.equal(exitCode(loadFixture('fail')), 1)
  assert.equal(exitCode(loadFixture('allowed')), 0)
  const err = errorReport({ ref: 'main', sha: 'x' }, { ref: 'f', sha: 'y' }, 'schemas/a.proto:3:1: syntax error')
  assert.equal(exitCode(err), 2)
})

test('outputs count only violations that are not allowed', () => {
  const fail = gateOutputs(loadFixture('fail'))
  assert.equal(fail.result, 'fail')
  assert.equal(fail.violations, 2)
  assert.equal(fail.breaking, true)
  const allowed = gateOutputs(loadFixture('allowed'))
  assert.equal(allowed.result, 'pass')
  assert.equal(allowed.violations, 0)
  assert.equal(allowed.breaking, true)
  assert.deepEqual(gateOutputs(loadFixture('pass')), { result: 'pass', violations: 0, breaking: false })
})

test('the failure message names every blocking reason', () => {
  const msg = failureMessage(loadFixture('fail'))
  assert.match(msg, /breaking: schemas\/orders\/v1\/order.proto/)
  assert.match(msg, /size: telemetry.v1.TelemetryEvent\/protobuf/)
  const report: Report = loadFixture('allowed')
  assert.doesNotMatch(failureMessage(report), /breaking:/)
})
