import assert from 'node:assert/strict'
import { test } from 'node:test'
import { instructions, measure, pct } from '../src/render/numbers.js'
import { renderReport } from '../src/render/report.js'
import { parseReport } from '../src/report.js'
import { loadFixture } from './fixtures.js'
import { changedReport, reparse } from './reports.js'

// Instruction counts and unchanged schemas in the comment. The fixtures are
// real gate output (scripts/fixtures.sh): pass is identical sides (every
// message unchanged), fail adds a repeated field to TelemetryEvent.

/** row is the table row of format in message's section. */
function row(md: string, message: string, format: string): string {
  const section = md.split(`### \`${message}\``)[1]!.split('\n### ')[0]!
  const line = section.split('\n').find(l => l.startsWith(`| ${format} |`) || l.startsWith(`| ${format} (aliasing) |`))
  assert.ok(line, `no ${format} row for ${message}:\n${section}`)
  return line
}

test('the table has a CPU column: instructions per encode and decode, base → head', () => {
  const report = loadFixture('fail')
  const md = renderReport(report)
  let counted = 0
  for (const m of report.messages) {
    for (const f of m.formats) {
      const cells = f.metrics.filter(x => x.unit === 'instr/op').map(x => {
        const d = x.base!.center === x.head!.center ? '=' : x.significant ? pct(x.delta_pct).source : '~'
        // A floor the message's own counts set above its format's shows beside the delta.
        const own = x.noise_floor_from === 'counts' && x.noise_floor_pct !== undefined ? ` ±${pct(x.noise_floor_pct, false).source}` : ''
        return `${x.name === 'encode' ? 0 : 1}${instructions(x.base!.center!).source} → ${instructions(x.head!.center!).source} (${d}${own})`
      })
      assert.equal(cells.length, 2, `${m.name}/${f.format}`)
      const [enc, dec] = cells.sort().map(c => c.slice(1))
      assert.ok(row(md, m.name, f.format).includes(`| ${enc}<br>${dec} |`), row(md, m.name, f.format))
      counted++
    }
  }
  assert.ok(counted >= 6)
})

test('a cpu violation reads its numbers in instr/op and leads the reasons like size does', () => {
  const report = loadFixture('fail')
  const md = renderReport(report)
  const cpu = report.violations.filter(v => v.kind === 'cpu')
  assert.ok(cpu.length >= 1)
  for (const v of cpu) {
    assert.equal(v.unit, 'instr/op')
    assert.ok(
      md.includes(`| ❌ | cpu | \`${v.subject}\`<br>\`${v.id!}\` | ${v.detail} (${measure(v.base!, 'instr/op').source} → ${measure(v.head!, 'instr/op').source}, ${pct(v.delta_pct).source}, limit ${pct(v.threshold_pct, false).source})<br><sub>to approve it: \`${v.approve_with!}\`</sub> |`),
      `${v.subject}\n${md}`
    )
  }
  const first = md.split('\n')[0]!
  assert.ok(first.includes(`cpu ${pct(cpu[0]!.delta_pct).source} on ${cpu[0]!.subject} (limit 2.0%)`), first)
  if (cpu.length > 2) assert.ok(first.includes(`${cpu.length - 2} more CPU regressions`), first)
})

test('unchanged schemas measured anyway are one folded line with their tables, by status or an older gate\'s unchanged_schema', () => {
  // measure: all, one message of four changed (built from the contract:
  // the default gate no longer measures unchanged messages).
  const report = reparse(changedReport(4, 1, { measureAll: true }))
  const unchanged = report.messages.filter(m => m.status === 'unchanged')
  assert.equal(unchanged.length, 3)
  const md = renderReport(report)
  const folded = /<details><summary>(\d+) messages unchanged \(schema identical\): measured \(measure: all\); [^<]*<\/summary>\n\n([\s\S]*?)\n\n<\/details>/.exec(md)
  assert.ok(folded, md)
  assert.equal(Number(folded[1]), unchanged.length)
  for (const m of unchanged) {
    assert.match(folded[2]!, new RegExp(`#### \`${m.name}\`\n\n\\| format \\| bytes/msg \\|`))
    assert.doesNotMatch(md, new RegExp(`\\n### \`${m.name}\``))
  }
  assert.doesNotMatch(folded[2]!, /mermaid/, 'no chart where base and head do not differ')

  // An older gate's report says unchanged_schema instead of a status: read the same way.
  const older = loadFixture('all')
  delete older.change
  for (const m of older.messages) delete m.status
  assert.ok(older.messages.every(m => m.unchanged_schema && m.status === undefined))
  assert.match(renderReport(older), new RegExp(`<details><summary>${older.messages.length} messages unchanged \\(schema identical\\): measured; `))

  // Changed ones in full: test/golden/fixture-fail.md.
})

test('without counts: no CPU column, and one line saying why', () => {
  const report = loadFixture('all')
  for (const m of report.messages) for (const f of m.formats) f.metrics = f.metrics.filter(x => x.unit !== 'instr/op')
  report.cpu_cost = { mode: 'auto', unavailable: 'valgrind is not installed (install valgrind to count instructions (apt-get install valgrind)), so CPU cost is time only' }
  const md = renderReport(report)
  assert.doesNotMatch(md, /CPU instr\/op/)
  assert.match(md, /\| format \| bytes\/msg \| encode \| decode \| pipeline records\/s \|\n\|---\|---\|---\|---\|---\|/)
  assert.match(md, /\n> ℹ️ Instructions not counted: valgrind is not installed \(install valgrind to count instructions \(apt-get install valgrind\)\), so CPU cost is time only\.\n/)
  assert.doesNotMatch(md, /instruction counter/)
})

test('an installed counter says so in the environment', () => {
  const report = loadFixture('all')
  report.cpu_cost = { mode: 'auto', tool: 'callgrind (Valgrind-3.22.0)', installed: 'installed valgrind with apt-get in 14.2 s' }
  assert.match(renderReport(report), /\| instruction counter \| callgrind \(Valgrind-3\.22\.0\), installed valgrind with apt-get in 14\.2 s \|/)
})

test('instruction counts read short', () => {
  assert.equal(instructions(3784.04).source, '3,784')
  assert.equal(instructions(999.6).source, '1,000')
  assert.equal(instructions(38422.8).source, '38.4k')
  assert.equal(instructions(123456).source, '123k')
  assert.equal(measure(2139.77, 'instr/op').source, '2,140 instr/op')
})

/** withField is the pass fixture with the field at path set to value. */
function withField(path: Array<string | number>, value: unknown): string {
  const r = JSON.parse(JSON.stringify(loadFixture('all'))) as Record<string | number, unknown>
  let o = r
  for (const k of path.slice(0, -1)) o = o[k] as Record<string | number, unknown>
  o[path.at(-1)!] = value
  return JSON.stringify(r)
}

test('cpu_cost and unchanged_schema are checked like every field, and their text is inert', () => {
  assert.throws(() => parseReport(withField(['cpu_cost'], { mode: 3 })), /^WiregateError: report\.json: cpu_cost\.mode is not a string$/)
  assert.throws(() => parseReport(withField(['cpu_cost', 'unavailable'], ['x'])), /^WiregateError: report\.json: cpu_cost\.unavailable is not a string$/)
  assert.throws(
    () => parseReport(withField(['messages', 0, 'unchanged_schema'], 'yes')),
    /^WiregateError: report\.json: messages\[0\]\.unchanged_schema is not true or false$/
  )
  const md = renderReport(parseReport(withField(['cpu_cost'], { mode: 'auto', unavailable: '<img src=x> @team [x](http://e.vil)' })))
  assert.match(md, /> ℹ️ Instructions not counted: &lt;img src=x&gt; \u200b@\u200bteam \\\[x\\\]\(http:\/\u200b\/e\.vil\)\./)
})
