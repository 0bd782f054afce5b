// Beyond one runner: hundreds of messages changed for one cause read as one
// group with a compact row each, every violation visible within a comment;
// and the headline says what was judged whenever a figure was cut.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { commentBody, stickyMarker } from '../src/comment.js'
import { COMMENT_LIMIT } from '../src/render/fit.js'
import { renderSummary, reportParts } from '../src/render/report.js'
import type { Report } from '../src/report.js'
import { changedReport, messageName, metadataChange, reparse } from './reports.js'

const MARKER = stickyMarker('wiregate', 'gate')
const RUN = 'https://github.com/o/r/actions/runs/9'
const comment = (r: Report): string => commentBody(MARKER, reportParts(reparse(r), { runUrl: RUN }), RUN)

test('a 400-message change through one cause is one group that fits a comment with every violation shown', () => {
  const report = metadataChange(400)
  const body = comment(report)
  assert.ok(body.length <= COMMENT_LIMIT, `${body.length}`)
  assert.match(body, /\n### Changed through `org\.example\.api\.v2\.Metadata` · 400 messages\n\n❌ 100 messages fail: /)
  assert.equal((body.match(/\n### Changed through/g) ?? []).length, 1, 'one group heading')
  // Every failing message has its row, with the reason, before any passing one.
  const rows = [...body.matchAll(/\n\| `([^`]+)` \| [^\n]* \| (❌[^|\n]*|✅) \|/g)]
  const failing = report.violations.map(v => v.subject.split('/')[0]!)
  for (const m of failing) assert.ok(rows.some(r => r[1] === m && r[2]!.startsWith('❌ size')), `${m} has no failing row`)
  const firstPass = rows.findIndex(r => r[2] === '✅')
  assert.ok(firstPass >= failing.length, 'failing rows come first')
  // The per-message sections went first, and the comment says where they are.
  assert.match(body, /✂️ Cut to fit: [^.]*grouped messages' full sections/)
  assert.doesNotMatch(body, /\n### `org\.example/, 'no per-message section in the comment')
  // The job summary holds the detail.
  const summary = renderSummary(reparse(report), { runUrl: RUN })
  assert.match(summary, new RegExp(`\\n### \`${messageName(1).replaceAll('.', '\\.')}\``))
})

test('when every one of 400 grouped messages fails, each keeps its row and counts its violations', () => {
  const report = metadataChange(400)
  const sv = report.violations[0]!
  report.violations = report.messages.flatMap(m =>
    ['protobuf', 'json', 'avro'].flatMap(f => [
      { ...sv, subject: `${m.name}/${f}/size` },
      { ...sv, kind: 'cpu' as const, subject: `${m.name}/${f}/encode/instr`, unit: 'instr/op', threshold_pct: 2 }
    ])
  )
  const body = comment(report)
  assert.ok(body.length <= COMMENT_LIMIT, `${body.length}`)
  assert.match(body, /❌ 400 messages fail: /)
  for (const m of report.messages) assert.match(body, new RegExp(`\\| \`${m.name.replaceAll('.', '\\.')}\` \\|[^\\n]*\\| ❌ 3 size regressions, 3 CPU regressions \\|\\n`), `${m.name} has no counted row`)
  assert.match(body, /✂️ Cut to fit: [^.]*failing group rows' figures \(each counts its violations\)/)
  // With room, the rows quote the figures instead.
  const few = metadataChange(40)
  assert.doesNotMatch(comment(few), /failing group rows' figures/)
  assert.match(comment(few), /\| ❌ size \+8\.0% on protobuf\/size \(limit 5\.0%\) \|/)
})

test("a merge of 75 shards' stage notes goes before any failing row does", () => {
  const report = metadataChange(400)
  const shards = Array.from({ length: 75 }, (_, i) => `shard ${i + 1}/75: to fit the time budget: 31 of 50 messages counted over 1 rotation of the record pool instead of 4 (exact all the same), 19 of 50 messages not counted`)
  report.plan.cpu = { note: shards.join('; '), uncounted: ['a.B'] }
  report.plan.bench = { count: 10, benchtime: '10ms', note: shards.join('; '), untimed: ['a.B'] }
  const body = comment(report)
  assert.ok(body.length <= COMMENT_LIMIT, `${body.length}`)
  for (const v of report.violations) assert.ok(body.includes(`| \`${v.subject.split('/')[0]!}\` |`), `${v.subject} has no row`)
  assert.doesNotMatch(body, /shard 75\/75: to fit/)
  assert.match(body, /⏱ 1 message whose instructions were not counted/, 'the counts stay')
  assert.match(body, /✂️ Cut to fit: [^.]*the time budget's note per stage/)
  // A single runner's notes, short, stay.
  const one = metadataChange(40)
  one.plan.cpu = { note: 'to fit the time budget: 3 of 40 messages not counted', uncounted: ['a.B'] }
  assert.match(comment(one), /> ⏱ Instruction counts, to fit the time budget: 3 of 40 messages not counted/)
})

test('a small group is shown message by message, as before', () => {
  const report = changedReport(3, 3)
  report.change!.groups = [{ cause: ['a.Shared'], messages: report.change!.changed }]
  const body = comment(report)
  assert.doesNotMatch(body, /Changed through/)
  assert.equal((body.match(/\n### `org\.example/g) ?? []).length, 3)
})

test('the headline says what was judged when the budget cut a figure, and how many shards measure all', () => {
  const report = metadataChange(10)
  report.violations = []
  report.result = 'pass'
  report.exit_code = 0
  report.coverage = { changed: 353, sized: 353, counted: 10, timed: 0, piped: 12, expected: ['sized', 'counted', 'timed', 'piped'], cut: { counted: ['a.B'], timed: ['a.B'], piped: ['a.B'] } }
  report.plan.shards_needed = 12
  const first = comment(report).split('\n')[1]!
  assert.equal(first, '## ✅ wiregate: pass on what was measured — no schema or wire-cost regressions · 353 changed: 353 sized, 10 counted, 0 timed, 12 drained; `max-shards: 12` measures all')
  report.coverage.cut = {}
  assert.equal(comment(report).split('\n')[1]!, '## ✅ wiregate: pass — no schema or wire-cost regressions', 'nothing cut: nothing to say')
  report.coverage.cut = { timed: ['a.B'] }
  report.merged = { count: 8, parts: [1, 2, 3, 5, 6, 7, 8], missing: [4], missing_names: ['4/8'] }
  assert.match(comment(report).split('\n')[1]!, /353 changed: 353 sized, 10 counted, 0 timed, 12 drained; 1 shard missing \(4\/8\); `max-shards: 12` measures all$/)
})
