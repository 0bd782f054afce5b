import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { parseReport } from '../src/report.js'

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'fixtures')
const fixture = (name: string): string => readFileSync(join(fixtures, `${name}.json`), 'utf8')

/** lost lists the paths of raw that parsed does not hold with the same value. */
function lost(raw: unknown, parsed: unknown, path = ''): string[] {
  if (typeof raw !== 'object' || raw === null) return Object.is(raw, parsed) ? [] : [path]
  if (typeof parsed !== 'object' || parsed === null) return [path]
  return Object.entries(raw).flatMap(([k, v]) => lost(v, (parsed as Record<string, unknown>)[k], `${path}.${k}`))
}

test('parseReport keeps every field of real gate output (a field the gate adds must be added to the parser)', () => {
  for (const name of ['pass', 'fail', 'allowed']) {
    const text = fixture(name)
    assert.deepEqual(lost(JSON.parse(text), parseReport(text)), [], name)
  }
})

test('a field the contract lacks is refused, one line naming it', () => {
  assert.throws(() => parseReport(JSON.stringify({ ...JSON.parse(fixture('pass')), extra: '<script>' })), /^WiregateError: report\.json: extra is not in the contract$/)
  assert.throws(() => parseReport(withField(['env', 'gpu'], 'x')), /^WiregateError: report\.json: env\.gpu is not in the contract$/)
})

/** withField is the fail fixture with the field at path set to value (undefined deletes it). */
function withField(path: Array<string | number>, value: unknown): string {
  const r = JSON.parse(fixture('fail')) as Record<string | number, unknown>
  let o = r
  for (const k of path.slice(0, -1)) o = o[k] as Record<string | number, unknown>
  const last = path.at(-1)!
  if (value === undefined) delete o[last]
  else o[last] = value
  return JSON.stringify(r)
}

test('a field of the wrong type or a word the contract lacks is one line naming its path, never its value', () => {
  const cases: Array<[Array<string | number>, unknown, RegExp]> = [
    [['violations', 0, 'allowed'], 'yes', /^report\.json: violations\[0\]\.allowed is not true or false$/],
    [['violations', 1, 'delta_pct'], '<b>12</b>', /^report\.json: violations\[1\]\.delta_pct is not a number$/],
    [['messages', 0, 'formats', 1, 'metrics', 0, 'significant'], 1, /^report\.json: messages\[0\]\.formats\[1\]\.metrics\[0\]\.significant is not true or false$/],
    [['messages', 0, 'formats', 0, 'size'], { base: 1 }, /^report\.json: messages\[0\]\.formats\[0\]\.size\.head is missing$/],
    [['messages'], { name: 'x' }, /^report\.json: messages is not a list$/],
    [['violations'], null, /^report\.json: violations is not a list$/],
    [['findings', 0, 'line'], 1.5, /^report\.json: findings\[0\]\.line is not an integer$/],
    [['violations', 0, 'kind'], '<img src=x>', /^report\.json: violations\[0\]\.kind is not one of the contract's words$/],
    [['violations', 0, 'kind'], 'constructor', /^report\.json: violations\[0\]\.kind is not one of the contract's words$/],
    [['stages', 0, 'name'], 'sizing', /^report\.json: stages\[0\]\.name is not one of the contract's words$/],
    [['messages', 0, 'status'], 'moved', /^report\.json: messages\[0\]\.status is not one of the contract's words$/],
    [['errors'], ['ok', 3], /^report\.json: errors\[1\] is not a string$/],
    [['result'], 'maybe', /^report\.json: result is not one of the contract's words$/],
    [['version'], '1', /^report\.json has version a string, this action reads version 1$/],
    [['version'], undefined, /^report\.json has version none, this action reads version 1$/],
    [['head'], 'bbbb', /^report\.json: head is not an object$/],
    [['pipeline', 0, 'backlog', 'n'], 1.5, /^report\.json: pipeline\[0\]\.backlog\.n is not an integer$/],
    [['env', 'pipeline_bytes'], '128MiB', /^report\.json: env\.pipeline_bytes is not an integer$/],
    [['skipped'], [{ message: 'a.B', file: 'a.proto', reason: 'why' }], /^report\.json: skipped\[0\]\.side is missing$/],
    [['messages', 0, 'records'], { source: 's', new_fields: [{ field: 'f', number: 3 }] }, /^report\.json: messages\[0\]\.records\.new_fields\[0\]\.number is not a string$/],
    [['change'], { measure: 'All', changed: [], new: [], removed: [], unchanged: [] }, /^report\.json: change\.measure is not one of the contract's words$/],
    [['exit_code'], '0', /^report\.json: exit_code is not an integer$/]
  ]
  for (const [path, value, want] of cases) {
    assert.throws(() => parseReport(withField(path, value)), (err: Error) => err.name === 'WiregateError' && want.test(err.message), want.source)
  }
})

test('invalid JSON says where, not what', () => {
  assert.throws(() => parseReport('{"version": 1, <script>', 'report.json of artifact a'), (err: Error) =>
    /^report\.json of artifact a is not valid JSON( \(at byte \d+\))?$/.test(err.message))
  assert.throws(() => parseReport('[1, 2]'), /^WiregateError: report\.json has version none, this action reads version 1$/)
})

test('a figure written as a NaN or Infinity string is refused, one line naming its path (the Go schema admits none)', () => {
  for (const s of ['NaN', 'Infinity', '-Infinity']) {
    assert.throws(
      () => parseReport(withField(['messages', 0, 'formats', 0, 'size', 'head'], s)),
      (err: Error) => err.name === 'WiregateError' && /^report\.json: messages\[0\]\.formats\[0\]\.size\.head is not a number$/.test(err.message),
      s
    )
  }
  // JSON.parse itself refuses a bare NaN: invalid JSON, said so.
  const bare = fixture('fail').replace(/"seconds": [0-9.e+-]+/, '"seconds": NaN')
  assert.throws(() => parseReport(bare), (err: Error) => err.name === 'WiregateError')
})
