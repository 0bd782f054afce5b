import assert from 'node:assert/strict'
import { test } from 'node:test'
import { commentBody } from '../src/comment.js'
import { assemble, COMMENT_LIMIT, fit } from '../src/render/fit.js'
import { code, md } from '../src/render/markdown.js'
import { renderReport, reportParts } from '../src/render/report.js'
import type { Report } from '../src/report.js'
import { changedReport, messageName, reparse, withCPURegressions } from './reports.js'

// Why a count grew: the functions the gate names under each cpu violation.

/** section is message's part of the comment, up to the next message. */
function section(md: string, message: string): string {
  return md.split(`### \`${message}\``)[1]!.split('\n### ')[0]!
}

test('a cpu violation has a collapsed block under its message table naming the functions that grew', () => {
  const r = reparse(withCPURegressions(changedReport(3, 3), 1))
  const md = renderReport(r)
  const own = section(md, messageName(0))
  const metric = r.messages[0]!.formats.find(f => f.format === 'json')!.metrics.find(m => m.unit === 'instr/op' && m.name === 'decode')!
  const delta = Math.round(metric.head!.center! - metric.base!.center!)
  const [lead, alloc, gen] = metric.functions!
  const summary = `<details><summary><code>json</code> decode +${delta} instr/op: <code>protowire.ConsumeVarint</code> +${lead!.self_delta}, allocation +${alloc!.self_delta}, <code>v1.(*TelemetryEvent).ProtoReflect</code> +${gen!.self_delta}, …</summary>`
  assert.ok(own.includes(summary), own)
  // Under the table, which holds the failing row.
  assert.ok(own.indexOf(summary) > own.indexOf('| json |'), own)
  assert.ok(own.includes(`\`protowire.ConsumeVarint\` alone accounts for +${lead!.self_delta} of the +${delta} instr/op.`), own)
  assert.ok(own.includes(`| \`v1.(*TelemetryEvent).ProtoReflect\` (generated) | 40 → ${40 + gen!.self_delta} (+${gen!.self_delta}) | 52 → ${52 + gen!.self_delta} (+${gen!.self_delta}) |`), own)
  // A message without a cpu violation has no block, nor does a metric
  // whose count named no function (an A/A).
  assert.ok(!section(md, messageName(1)).includes('<details><summary><code>'), section(md, messageName(1)))
  const aa = reparse(withCPURegressions(changedReport(3, 3), 1))
  for (const f of aa.messages[0]!.formats) for (const m of f.metrics) delete m.functions
  assert.ok(!renderReport(aa).includes('<details><summary><code>json</code> decode'), 'a block without functions')
})

test('without a function that explains most, no sentence; the lead is whichever the gate put first', () => {
  const r = reparse(withCPURegressions(changedReport(1, 1), 1))
  const fns = r.messages[0]!.formats.find(f => f.format === 'json')!.metrics.find(m => m.unit === 'instr/op' && m.name === 'decode')!.functions!
  delete fns[0]!.explains_most
  assert.ok(!renderReport(r).includes('alone accounts for'))
})

test('function names are untrusted: escaped in the summary (raw HTML) and in the table (markdown)', () => {
  const r = reparse(withCPURegressions(changedReport(1, 1), 1))
  const fns = r.messages[0]!.formats.find(f => f.format === 'json')!.metrics.find(m => m.unit === 'instr/op' && m.name === 'decode')!.functions!
  fns[0]!.name = '</summary><img src=x onerror=alert(1)> @team `x` <!-- wiregate'
  fns[1]!.name = '</details><script>'
  const md = renderReport(r)
  const summary = md.split('\n').find(l => l.startsWith('<details><summary><code>json</code> decode'))!
  assert.ok(summary.includes('<code>&lt;/summary&gt;&lt;img src=x onerror=alert(1)&gt; \u200b@\u200bteam `x` &lt;!\u200b-- wiregate</code>'), summary)
  assert.ok(summary.includes(' &lt;/details&gt;&lt;script&gt; '), summary)
  // In the table, names are code spans: literal, whatever they hold.
  assert.ok(md.includes(`| ${code(fns[0]!.name).source} |`), md)
  assert.ok(!md.includes('<!-- wiregate'), 'a second marker')
  assert.ok(!md.includes('<script>'), md)
})

test('a 50-message change with 20 cpu violations stays within the comment; its profile blocks stay unless the bulk detail before them was not enough', t => {
  const r = reparse(withCPURegressions(changedReport(50, 50), 20))
  const body = commentBody('<!-- wiregate -->', reportParts(r))
  const blocks = body.split('<details><summary><code>json</code> decode').length - 1
  t.diagnostic(`comment ${body.length} of ${COMMENT_LIMIT} characters, ${blocks} profile blocks; without profiles ${commentBody('<!-- wiregate -->', reportParts(withoutProfiles(r))).length}`)
  assert.ok(body.length <= COMMENT_LIMIT, `${body.length}`)
  const cut = body.includes('which functions grew in each cpu violation')
  assert.equal(blocks, cut ? 0 : 20)
})

test('short of room, the profile blocks go after the bulk detail, the charts and the rows verdict lines repeat, before the message tables; the cut note says so', () => {
  const r = reparse(withCPURegressions(changedReport(50, 50), 20))
  const parts = reportParts(r)
  // Room for the kinds cut after the profile blocks, and not for them.
  const before = new Set(['benchstat', 'noise', 'stages', 'environment', 'ignored', 'unchanged tables', 'names', 'history charts', 'plan notes', 'grouped sections', 'violation rows', 'approve lines', 'bytes charts'])
  const rest = assemble(parts.map(p => (p.cut && before.has(p.cut) ? (p.compact ?? { md: md`` }) : p)))
  const out = fit(parts, { limit: rest.length - 1, unit: 'characters', whole: md`report.md` })
  assert.ok(!out.includes('<details><summary><code>json</code> decode'), 'a profile block survived the cut')
  assert.ok(out.includes('bytes/msg charts, which functions grew in each cpu violation.'), out.slice(-600))
  // Every message keeps its table, and its verdict line what fails.
  assert.equal(out.split('| json |').length - 1, 50)
  // With room for them, they stay.
  assert.ok(fit(parts, { limit: rest.length + 100_000, unit: 'characters', whole: md`report.md` }).includes('<details><summary><code>json</code> decode'))
})

function withoutProfiles(r: Report): Report {
  const copy = reparse(r)
  for (const m of copy.messages) for (const f of m.formats) for (const x of f.metrics) delete x.functions
  return copy
}
