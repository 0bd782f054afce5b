// The comment as a reviewer reads it (issue 36), on the golden reports:
// one row per changed schema element, one block that approves what fails,
// what fails before what was cut, and layout noise said as such.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { renderReport, reportParts } from '../src/render/report.js'
import { recordsNotes } from '../src/render/records.js'
import { parseReport, type Message, type Report } from '../src/report.js'
import { reparse } from './reports.js'

const golden = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'golden')

function load(name: string): Report {
  const path = join(golden, `${name}.json`)
  return parseReport(readFileSync(path, 'utf8'), path)
}

/** The violations table's rows: lines of the first table. */
function tableRows(md: string): string[] {
  const start = md.indexOf('|  | kind | subject | detail |')
  assert.ok(start >= 0, 'a violations table')
  const lines = md.slice(start).split('\n')
  return lines.slice(2, lines.findIndex(l => !l.startsWith('|')))
}

test('a field renamed and retyped in one commit is one row with one id and the words for both changes', () => {
  const report = load('release')
  const rows = tableRows(renderReport(report))
  const field7 = rows.filter(r => r.includes('`profile_id`'))
  assert.equal(field7.length, 1, 'one row for field 7')
  const row = field7[0]!
  // Its words for both changes and its four rules are test/golden/release.md.
  const e = report.elements!.find(x => x.name === 'profile_id')!
  assert.equal(e.violations.length, 4)
  assert.match(row, new RegExp(`<sub>to approve it: \`/wiregate approve ${e.id}\`</sub>`))
  assert.equal(row.match(/\/wiregate approve/g)!.length, 1, 'one approve line for the element')
  // One row per element, not one per finding.
  const breaking = report.violations.filter(v => v.kind === 'breaking').length
  assert.equal(rows.filter(r => r.includes('| breaking')).length, report.elements!.length)
  assert.ok(report.elements!.length < breaking)
  // The headline counts changes, and says how many findings they make.
  const base = report.elements!.filter(x => x.kind === 'breaking' && !x.against)
  const findings = base.reduce((n, x) => n + x.violations.length, 0)
  assert.match(renderReport(report).split('\n')[0]!, new RegExp(`^## ❌ wiregate: fail — ${base.length} breaking changes \\(${findings} findings\\), `))
})

test("a regenerated field that was also renamed is said once, where its values are, and the rename line leaves it out", () => {
  const message: Message = {
    name: 'profiles.v1.Sample',
    formats: [],
    records: {
      source: 'paired',
      regenerated: [{ field: 'profile_id', number: '7', from: 'int32', to: 'bytes', was: 'comment_strindices' }],
      renamed: [{ field: 'samples', number: '1', from: 'sample', to: 'samples' }]
    }
  }
  const lines = recordsNotes(message).map(m => m.source)
  assert.ok(lines.includes('📦 Head\'s records add regenerated field `profile_id` (was `comment_strindices`, int32 → bytes).'), lines.join('\n'))
  const renamed = lines.find(l => l.includes('Renamed, same number'))!
  assert.match(renamed, /`sample` → `samples`/)
  assert.doesNotMatch(renamed, /profile_id|comment_strindices/)
})

test('a comment with N blocking findings carries one block that approves all N', () => {
  const report = load('release')
  const md = renderReport(report)
  const block = /\*\*To approve everything that fails\*\*, post as one comment:\n\n```text\n([\s\S]*?)\n```/.exec(md)
  assert.ok(block, 'the approve-all block')
  const lines = block[1]!.split('\n')
  assert.equal(lines[0], report.approve_all![0])
  const ids = new Set(lines.flatMap(l => l.split(' ').filter(w => w.startsWith('wg-'))))
  // Every blocking violation is named, by its own id or its element's.
  for (const v of report.violations.filter(x => !x.allowed && !x.approved)) {
    const element = report.elements!.find(e => e.violations.includes(v.id!))
    assert.ok(ids.has(v.id!) || (element && ids.has(element.id)), `${v.id} (${v.subject}) is not approved by the block`)
  }
  // …and one line per file.
  for (const f of report.approve_files!) assert.ok(md.includes(`- \`${f.file}\`: \`${f.line}\``))
})

test('a failure with cut figures: the failing table and the approve block before the cut notes', () => {
  // The headlines of both are test/golden/fail-cuts.md and pass-cuts.md.
  const md = renderReport(load('fail-cuts'))
  const table = md.indexOf('|  | kind | subject | detail |')
  const cut = md.indexOf('⏱')
  assert.ok(table > 0 && cut > table, 'the failing table comes before what was cut')
  assert.ok(md.indexOf('**To approve everything that fails**') < cut)
})

test('identical exact figures with a significant time delta: the cell says layout noise, not a p-value', () => {
  // orders.v1.Order is identical on both sides in the release report; the
  // gate marks a significant timing of it layout noise
  // (harness/parent/verdict/layoutnoise_test.go). Which of its timings
  // came out significant is the fixture run's luck: here one is made so.
  const report = load('release')
  const order = report.messages.find(m => m.name === 'orders.v1.Order')!
  const avro = order.formats.find(f => f.format === 'avro')!
  const decode = avro.metrics.find(m => m.name === 'decode' && m.unit === 'sec/op')!
  for (const m of avro.metrics.filter(x => x.unit === 'sec/op')) m.layout_noise = undefined
  decode.base!.center = 632e-9
  decode.head!.center = 594e-9
  decode.delta_pct = -6.0
  decode.p = 0.008
  decode.significant = true
  decode.layout_noise = true
  const md = renderReport(reparse(report))
  const section = md.slice(md.indexOf('### `orders.v1.Order`'))
  const row = section.split('\n').find(l => l.startsWith('| avro |'))!
  const cell = row.split(' | ')[3]!
  assert.match(cell, /^<sub>632 ns → 594 ns \(-6\.0%\) layout noise: bytes, instructions and allocations equal on both sides<\/sub>$/)
  assert.doesNotMatch(cell, /p[=&]/)
  // Where an exact figure moved, the delta is a change with its p-value:
  // TelemetryEvent's rows in test/golden/release.md.
})

test('a timing planned unable to fail from the history point reads "not timed", its predicted MDE in the noise table', () => {
  // The gate leaves such a timing out of the rounds (harness/parent/gate
  // planned_test.go): its metric has no samples, only the prediction.
  const report = load('release')
  const order = report.messages.find(m => m.name === 'orders.v1.Order')!
  const avro = order.formats.find(f => f.format === 'avro')!
  for (const m of avro.metrics.filter(x => x.unit === 'sec/op')) {
    Object.assign(m, { base: null, head: null, delta_pct: null, p: null, significant: false, delta: 'not timed', not_timed: true, mde_pct: 37.5 })
    delete m.layout_noise
  }
  const md = renderReport(reparse(report))
  const section = md.slice(md.indexOf('### `orders.v1.Order`'))
  const row = section.split('\n').find(l => l.startsWith('| avro |'))!
  assert.match(row.split(' | ')[3]!, /^<sub>not timed<\/sub>$/)
  assert.match(md, /37\.5%/)
})

test('a full comment drops the measured lines of the approve-all block first, and keeps its schema line', () => {
  const report = load('release')
  const part = reportParts(report).find(p => p.cut === 'approve lines')
  assert.ok(part?.compact, 'the block may be cut')
  assert.ok(part.md.source.includes(report.approve_all![1]!))
  const compact = part.compact.md.source
  assert.ok(compact.includes(report.approve_all![0]!), 'the schema line stays')
  assert.doesNotMatch(compact, / up to /)
  assert.match(compact, new RegExp(`and ${report.approve_all!.length - 1} measured regressions, whose lines the job summary has`))
})
