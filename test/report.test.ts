import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { renderReport } from '../src/render/report.js'
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

test('parseReport keeps only the fields it checked', () => {
  const parsed = parseReport(JSON.stringify({ ...JSON.parse(fixture('pass')), number: 7, extra: '<script>' })) as unknown as Record<string, unknown>
  assert.equal(parsed.number, undefined)
  assert.equal(parsed.extra, undefined)
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

test('a field of the wrong type is one line naming its path, never its value', () => {
  const cases: Array<[Array<string | number>, unknown, RegExp]> = [
    [['violations', 0, 'allowed'], 'yes', /^report\.json: violations\[0\]\.allowed is not true or false$/],
    [['violations', 1, 'delta_pct'], '<b>12</b>', /^report\.json: violations\[1\]\.delta_pct is not a number$/],
    [['messages', 0, 'formats', 1, 'metrics', 0, 'significant'], 1, /^report\.json: messages\[0\]\.formats\[1\]\.metrics\[0\]\.significant is not true or false$/],
    [['messages', 0, 'formats', 0, 'size'], { base: 1 }, /^report\.json: messages\[0\]\.formats\[0\]\.size\.head is not a number$/],
    [['messages'], { name: 'x' }, /^report\.json: messages is not a list$/],
    [['findings', 0, 'line'], 1.5, /^report\.json: findings\[0\]\.line is not an integer$/],
    [['violations', 0, 'kind'], '<img src=x>', /^report\.json: violations\[0\]\.kind is not a kind \(a lower-case word\)$/],
    [['errors'], ['ok', 3], /^report\.json: errors is not a list of strings$/],
    [['result'], 'maybe', /^report\.json: result is not "pass" or "fail"$/],
    [['version'], '1', /^report\.json: version is not a number$/],
    [['version'], undefined, /^report\.json has version none, this action reads version 1$/],
    [['head'], 'bbbb', /^report\.json: head is not an object$/],
    [['pipeline', 0, 'backlog', 'n'], 1.5, /^report\.json: pipeline\[0\]\.backlog\.n is not an integer$/],
    [['env', 'pipeline_bytes'], '128MiB', /^report\.json: env\.pipeline_bytes is not a number$/],
    [['skipped'], [{ message: 'a.B', file: 'a.proto', reason: 'why' }], /^report\.json: skipped\[0\]\.side is not a string$/],
    [['messages', 0, 'status'], 'Changed!', /^report\.json: messages\[0\]\.status is not a status \(a lower-case word\)$/],
    [['messages', 0, 'records'], { source: 's', new_fields: [{ field: 'f', number: 3 }] }, /^report\.json: messages\[0\]\.records\.new_fields\[0\]\.number is not a string$/],
    [['messages', 0, 'records'], { source: 's', renamed: [{ field: 'f', number: '3', protobuf_bytes: '12 B' }] }, /^report\.json: messages\[0\]\.records\.renamed\[0\]\.protobuf_bytes is not a number$/],
    [['messages', 0, 'formats', 0, 'size', 'new_content'], '+12', /^report\.json: messages\[0\]\.formats\[0\]\.size\.new_content is not a number$/],
    [['change'], { measure: 'changed', unchanged: 'a.B' }, /^report\.json: change\.unchanged is not a list of strings$/],
    [['change'], { measure: 'changed', no_schema_changed: 'yes' }, /^report\.json: change\.no_schema_changed is not true or false$/],
    [['change'], { measure: 'All' }, /^report\.json: change\.measure is not a measure \(a lower-case word\)$/],
    [['findings', 0, 'existing'], 1, /^report\.json: findings\[0\]\.existing is not true or false$/],
    [['history', 'carried'], [1], /^report\.json: history\.carried is not a list of strings$/],
    [['plan', 'exact'], { unmeasured: 'a.B' }, /^report\.json: plan\.exact\.unmeasured is not a list of strings$/],
    [['env', 'peak_rss_bytes'], 1.5, /^report\.json: env\.peak_rss_bytes is not an integer$/]
  ]
  for (const [path, value, want] of cases) {
    assert.throws(() => parseReport(withField(path, value)), (err: Error) => err.name === 'WiregateError' && want.test(err.message), want.source)
  }
})

test('invalid JSON says where, not what', () => {
  assert.throws(() => parseReport('{"version": 1, <script>', 'report.json of artifact a'), (err: Error) =>
    /^report\.json of artifact a is not valid JSON( \(at byte \d+\))?$/.test(err.message))
  assert.throws(() => parseReport('[1, 2]'), /^WiregateError: report\.json: the top level is not an object$/)
})

test('lists the gate left out or wrote as null are empty; a summary without a center is none', () => {
  const r = parseReport(JSON.stringify({ version: 1, result: 'pass', violations: null, messages: [{ name: 'a.B', formats: [{ format: 'protobuf', size: null,
    metrics: [{ name: 'decode', unit: 'sec/op', base: { center: null, n: 3 }, head: { center: 2e-7, n: 3 }, delta_pct: null, p: null, significant: false }] }] }] }))
  assert.deepEqual(r.violations, [])
  assert.deepEqual(r.pipeline, [])
  assert.equal(r.messages[0]!.formats[0]!.metrics[0]!.base, null)
  assert.deepEqual(r.messages[0]!.formats[0]!.metrics[0]!.head, { center: 2e-7, n: 3 })
  assert.match(renderReport(r), /\| protobuf \| — \| — \| — → 200 ns \| — \|/)
})

test('a kind the renderer does not know renders by its name, even one every object has', () => {
  const r = JSON.parse(fixture('fail')) as { violations: Array<{ kind: string; against?: string }> }
  for (const v of r.violations) v.kind = 'constructor'
  const base = r.violations.filter(v => !v.against).length
  const release = r.violations.length - base
  const md = renderReport(parseReport(JSON.stringify(r)))
  assert.equal(md.split('\n')[0]!, `## ❌ wiregate: fail — ${base} \`constructor\`, ${release} \`constructor\` vs release \`v2\``)
})

test('a status or measure word a newer gate adds renders by its name; unknown fields are dropped', () => {
  const r = JSON.parse(fixture('fail')) as { messages: Array<{ name: string; status?: string }>; change?: unknown; shiny?: unknown }
  r.messages[0]!.status = 'moved'
  r.change = { measure: 'sampled', changed: [], new: [], removed: [], unchanged: [], later: { x: 1 } }
  r.shiny = { a: [1, 2] }
  const md = renderReport(parseReport(JSON.stringify(r)))
  assert.match(md, new RegExp(`\\n### \`${r.messages[0]!.name}\` · moved\\n\\n(❌|✅) `))
})
