import assert from 'node:assert/strict'
import { test } from 'node:test'
import { measure, pct } from '../src/render/numbers.js'
import { renderReport } from '../src/render/report.js'
import { truncate } from '../src/render/truncate.js'
import { errorReport, type Report } from '../src/report.js'
import { loadFixture } from './fixtures.js'

// The fixtures are real `wiregate gate` output (scripts/fixtures.sh), so
// these tests read their expectations off the fixture rather than restating
// numbers a rerun would change.

test('pass: verdict first, the schema checks, one section per message, details', () => {
  const report = loadFixture('pass')
  const md = renderReport(report, { runUrl: 'https://example.test/run/1' })
  assert.equal(md.split('\n')[0], '## ✅ wiregate: pass — no schema or wire-cost regressions')
  assert.match(md, /base `main` @ aaaaaaa → head `feature` @ bbbbbbb · \[run\]\(https:\/\/example.test\/run\/1\)/)
  for (const check of ['buf lint', 'buf breaking', 'Avro compatibility']) assert.match(md, new RegExp(`\\| ${check} \\| ✅ ok \\|`))
  assert.ok(report.messages.length >= 2)
  for (const m of report.messages) {
    assert.match(md, new RegExp(`### \`${m.name}\``))
    for (const f of m.formats) assert.match(md, new RegExp(`\\| ${f.format}( \\(aliasing\\))? \\| ${f.size!.head.toFixed(1)} \\(=\\) \\|`))
    assert.match(md, new RegExp(`x-axis \\[${m.formats.map(f => `"${f.format}"`).join(', ')}\\]`))
  }
  assert.match(md, /\| avro \(aliasing\) \|/)
  assert.match(md, /<details><summary>benchstat \(base vs head\)<\/summary>\n\n```text\ngoos: linux/)
  assert.match(md, /<summary>noise floor<\/summary>[\s\S]*\/pipeline` \| records\/s \| ±/)
  assert.match(md, /\| broker \| embedded/)
  assert.match(md, /\| consumer cap \| GOMAXPROCS=1/)
  assert.match(md, /\| bench \| \d+\.\d s \|/)
})

test('fail: the first line gives the reasons; every violation has a row with its numbers', () => {
  const report = loadFixture('fail')
  const md = renderReport(report)
  const size = report.violations.find(v => v.kind === 'size')!
  const first = md.split('\n')[0]!
  assert.match(first, /^## ❌ wiregate: fail — 1 breaking change, size /)
  assert.ok(first.includes(`size ${pct(size.delta_pct)} on ${size.subject} (limit ${pct(size.threshold_pct, false)})`), first)
  assert.match(md, /\| buf breaking \| ❌ 1 \| `schemas\/orders\/v1\/order.proto:\d+:\d+` FIELD_/)
  assert.ok(md.includes(`${measure(size.base!, 'B/msg')} → ${measure(size.head!, 'B/msg')}, ${pct(size.delta_pct)}, limit ${pct(5, false)}`), md)
  for (const v of report.violations) assert.ok(md.includes(`| ❌ | ${v.kind} | \`${v.subject}\` |`), v.subject)
})

test('allowed violations are shown as allowed', () => {
  const md = renderReport(loadFixture('allowed'))
  assert.match(md.split('\n')[0]!, /^## ✅ wiregate: pass — 1 breaking change, size .* allowed by label$/)
  assert.match(md, /\| ⚠️ allowed \| breaking \|/)
  assert.match(md, /\| buf breaking \| ⚠️ 1 \(allowed\) \|/)
})

test('a violation row formats the structured numbers once, after the prose', () => {
  const r: Report = {
    ...errorReport({ ref: 'main', sha: 'a' }, { ref: 'f', sha: 'b' }, 'x'),
    violations: [
      { kind: 'time', subject: 'a.B/protobuf/decode', detail: 'decode got slower, significantly and by more than the time threshold', unit: 'sec/op',
        base: 4.1e-7, head: 4.7e-7, delta_pct: 14.63, threshold_pct: 10, p: 0.0004, base_n: 10, head_n: 10, allowed: false }
    ],
    errors: []
  }
  const md = renderReport(r)
  assert.ok(
    md.includes('| ❌ | time | `a.B/protobuf/decode` | decode got slower, significantly and by more than the time threshold (410 ns → 470 ns, +14.6%, limit 10.0%, p<0.001, n=10+10) |'),
    md
  )
})

test('an error report renders with the error first', () => {
  const r = errorReport({ ref: 'main', sha: 'a'.repeat(40) }, { ref: 'f', sha: 'b'.repeat(40) }, 'schemas/x.proto:3:7: syntax error')
  const md = renderReport(r)
  assert.equal(md.split('\n')[0], '## ⛔ wiregate could not run: schemas/x.proto:3:7: syntax error')
  assert.doesNotMatch(md, /mermaid/)
})

test('truncate keeps short text and cuts long text at a line, closing open blocks', () => {
  assert.equal(truncate('short\n', 100, 'cut'), 'short\n')
  const long = ['# title', '<details><summary>x</summary>', '```text', ...Array.from({ length: 500 }, (_, i) => `line ${i}`), '```', '</details>'].join('\n')
  const cut = truncate(long, 1000, 'see the job summary')
  assert.ok(cut.length <= 1000, `length ${cut.length}`)
  assert.match(cut, /line \d+\n```\n<\/details>\n\n\n> ✂️ see the job summary\n$/)
  assert.equal((cut.match(/```/g) ?? []).length % 2, 0)
})

test('a huge report still fits a comment', () => {
  const report = loadFixture('pass')
  report.benchstat = 'x'.repeat(100).concat('\n').repeat(2000)
  const md = renderReport(report)
  assert.ok(md.length > 65536)
  assert.ok(truncate(md, 65536, 'n').length <= 65536)
})
