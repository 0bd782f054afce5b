import assert from 'node:assert/strict'
import { test } from 'node:test'
import { renderReport } from '../src/render/report.js'
import type { Report, Violation } from '../src/report.js'
import { loadFixture } from './fixtures.js'
import { reparse } from './reports.js'

// Compressed size (issue 35) in the comment: raw and each codec side by
// side where size moved, the failing one first, the gate's words where the
// two disagree — report data, escaped like all of it.

const MSG = 'telemetry.v1.TelemetryEvent'

/** row is the table row of format in MSG's section. */
function row(md: string, format: string): string {
  const section = md.split(`### \`${MSG}\``)[1]!.split('\n### ')[0]!
  const line = section.split('\n').find(l => l.startsWith(`| ${format} |`) || l.startsWith(`| ${format} (aliasing) |`))
  assert.ok(line, `no ${format} row:\n${section}`)
  return line
}

/** withCompressed is the fail fixture with json's raw size moved by rawPct
 * and its zstd size from 60 to 60 × (1 + zstdPct), and the violations the
 * gate would decide for them. */
function withCompressed(rawPct: number, zstdPct: number, reading: string): Report {
  const r = loadFixture('fail')
  // The fixture's own compressed-size findings go: json's is the one the
  // headline must name.
  r.violations = r.violations.filter(v => !v.subject.startsWith(`${MSG}/json/`) && v.kind !== 'compressed-size')
  const f = r.messages.find(m => m.name === MSG)!.formats.find(x => x.format === 'json')!
  f.size = { base: 250, head: 250 * (1 + rawPct / 100), delta_pct: rawPct, compressed: [
    { codec: 'zstd', batch_bytes: 16384, base: 60, head: 60 * (1 + zstdPct / 100), delta_pct: zstdPct, reading },
    { codec: 'lz4', batch_bytes: 16384, base: 90, head: 90, delta_pct: 0 }
  ] }
  const v = (kind: Violation['kind'], suffix: string, base: number, delta: number, unit: string): Violation => ({
    kind, subject: `${MSG}/json/${suffix}`, detail: `json ${kind}`, unit, base, head: base * (1 + delta / 100), delta_pct: delta, threshold_pct: 5, allowed: false
  })
  if (rawPct > 5) r.violations.push(v('size', 'size', 250, rawPct, 'B/msg'))
  if (zstdPct > 5) r.violations.push(v('compressed-size', 'compressed-size/zstd', 60, zstdPct, 'B/record'))
  return reparse(r)
}

test('a failing compressed size leads its cell, raw and the other codecs follow, with the words', () => {
  const md = renderReport(withCompressed(2, 10, '+2.0% raw, +10.0% after zstd: the new bytes are hard to compress'))
  const cell = row(md, 'json')
  assert.match(cell, /\| zstd: 60\.0 → 66\.0 \(\+10\.0%\)<br><sub>\+2\.0% raw, \+10\.0% after zstd: the new bytes are hard to compress<\/sub><br>raw: 250\.0 → 255\.0 \(\+2\.0%\)<br>lz4: 90\.0 \(=\) \|/)
  assert.match(md, /compressed-size \+10\.0% on json\/compressed-size\/zstd/)
})

test('a failing raw size leads; compressed follows with why it barely moved', () => {
  const cell = row(renderReport(withCompressed(31, 2, '+31.0% raw, +2.0% after zstd: the growth is mostly repeated bytes')), 'json')
  assert.match(cell, /\| raw: 250\.0 → 327\.5 \(\+31\.0%\)<br>zstd: 60\.0 → 61\.2 \(\+2\.0%\)<br><sub>\+31\.0% raw, \+2\.0% after zstd: the growth is mostly repeated bytes<\/sub><br>lz4/)
})

test('where nothing moved the cell is raw size alone', () => {
  const r = withCompressed(0, 0, '')
  const f = r.messages.find(m => m.name === MSG)!.formats.find(x => x.format === 'json')!
  f.size!.head = f.size!.base
  assert.match(row(renderReport(r), 'json'), /\| 250\.0 \(=\) \|/)
})

test('the words are report data: escaped', () => {
  const cell = row(renderReport(withCompressed(2, 10, '<img src=x onerror=alert(1)> | `x` *y*')), 'json')
  assert.ok(!cell.includes('<img'), cell)
  assert.ok(cell.includes('&lt;img'), cell)
})

test('a growth the gate did not fail on generated records says why, escaped', () => {
  const r = withCompressed(2, 0, '+2.0% raw, +10.0% after zstd: the new bytes are hard to compress')
  const zstd = r.messages.find(m => m.name === MSG)!.formats.find(x => x.format === 'json')!.size!.compressed![0]!
  Object.assign(zstd, { head: 66, delta_pct: 10, ungated: 'on generated records; give samples to gate it' })
  const cell = row(renderReport(r), 'json')
  assert.match(cell, /\| raw: 250\.0 → 255\.0 \(\+2\.0%\)<br>zstd: 60\.0 → 66\.0 \(\+10\.0%\)<br><sub>\+2\.0% raw, \+10\.0% after zstd: the new bytes are hard to compress<\/sub><br><sub>not gated: on generated records; give samples to gate it<\/sub><br>lz4/)
  zstd.ungated = '<img src=x> | *y*'
  const poisoned = row(renderReport(r), 'json')
  assert.ok(!poisoned.includes('<img') && poisoned.includes('not gated: &lt;img'), poisoned)
})

test('the pipeline rows say which codec the producer compressed with', () => {
  const r = loadFixture('fail')
  assert.ok(r.pipeline.some(p => p.message === MSG), 'the fixture has no pipeline row')
  for (const p of r.pipeline) p.compression = 'zstd'
  const md = renderReport(reparse(r))
  assert.match(md.split(`### \`${MSG}\``)[1]!, /<sub>Pipeline producer batches: `zstd` \(the first compression codec\); records\/s include decompressing them\.<\/sub>/)
  const uncompressed = loadFixture('fail')
  for (const p of uncompressed.pipeline) delete p.compression
  assert.ok(!renderReport(reparse(uncompressed)).includes('Pipeline producer batches'))
})
