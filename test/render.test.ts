import assert from 'node:assert/strict'
import { test } from 'node:test'
import { renderReport } from '../src/render/report.js'
import { truncate } from '../src/render/truncate.js'
import { errorReport } from '../src/report.js'
import { loadFixture } from './fixtures.js'

test('pass: verdict first, tables, chart, details', () => {
  const md = renderReport(loadFixture('pass'), { runUrl: 'https://example.test/run/1' })
  const first = md.split('\n')[0]!
  assert.match(first, /^## ✅ wiregate: pass — no schema or wire-cost regressions$/)
  assert.match(md, /base `main` @ aaaaaaa → head `feature` @ bbbbbbb · \[run\]\(https:\/\/example.test\/run\/1\)/)
  assert.match(md, /\| buf lint \| ✅ ok \|/)
  assert.match(md, /\| buf breaking \| ✅ ok \|/)
  assert.match(md, /\| Avro compatibility \| ✅ ok \|/)
  assert.match(md, /### `telemetry.v1.TelemetryEvent`/)
  assert.match(md, /\| format \| bytes\/msg \| encode \| decode \| pipeline records\/s \|/)
  // not significant: "~" with p
  assert.match(md, /\| protobuf \| 104\.1 \(=\) \| 250 ns → 252 ns \(~, p=0\.500\) \| 410 ns → 405 ns \(~, p=0\.400\) \| 1\.20M → 1\.19M \(~, p=0\.550\) \|/)
  assert.match(md, /\| avro \(aliasing\) \|/)
  assert.match(md, /```mermaid\nxychart-beta\n {4}title "bytes\/msg, base then head: telemetry.v1.TelemetryEvent"\n {4}x-axis \["json", "protobuf", "avro"\]/)
  assert.match(md, / {4}bar \[309\.9, 104\.1, 92\.6\]\n {4}bar \[309\.9, 104\.1, 92\.6\]/)
  assert.match(md, /<details><summary>benchstat \(base vs head\)<\/summary>\n\n```text\ngoos: linux/)
  assert.match(md, /<summary>noise floor<\/summary>[\s\S]*\| `telemetry.v1.TelemetryEvent\/protobuf\/pipeline` \| records\/s \| ±6\.5% \|/)
  assert.match(md, /\| broker \| embedded \(Docker is not reachable\) \|/)
  assert.match(md, /\| consumer cap \| GOMAXPROCS=1, GOMEMLIMIT=512MiB, taskset cpu 1 \|/)
  assert.match(md, /\| bench \| 95\.1 s \|/)
})

test('fail: the first line gives the reasons, significant deltas are shown', () => {
  const md = renderReport(loadFixture('fail'))
  const first = md.split('\n')[0]!
  assert.equal(first, '## ❌ wiregate: fail — 1 breaking change, size +12.0% on telemetry.v1.TelemetryEvent/protobuf (limit 5.0%)')
  assert.match(md, /\| buf breaking \| ❌ 1 \| `schemas\/orders\/v1\/order.proto:9:3` FIELD_SAME_NUMBER: Field "2"/)
  assert.match(md, /\| protobuf \| 104\.1 → 116\.6 \(\+12\.0%\) \| 250 ns → 252 ns \(~, p=0\.500\) \| 410 ns → 470 ns \(\+14\.6%, p<0\.001\) \|/)
  assert.match(md, /\| ❌ \| size \| `telemetry.v1.TelemetryEvent\/protobuf` \| bytes\/msg grew from 104\.1 to 116\.6 \(\+12\.0%, limit 5\.0%\) \|/)
  assert.match(md, / {4}bar \[309\.9, 104\.1, 92\.6\]\n {4}bar \[309\.9, 116\.6, 92\.6\]/)
})

test('allowed violations are shown as allowed', () => {
  const md = renderReport(loadFixture('allowed'))
  assert.match(md.split('\n')[0]!, /^## ✅ wiregate: pass — 1 breaking change allowed by label$/)
  assert.match(md, /\| ⚠️ allowed \| breaking \|/)
  assert.match(md, /\| buf breaking \| ⚠️ 1 \(allowed\) \|/)
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
