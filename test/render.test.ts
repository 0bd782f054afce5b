import assert from 'node:assert/strict'
import { test } from 'node:test'
import { measure, mebibytes, pct } from '../src/render/numbers.js'
import { renderReport } from '../src/render/report.js'
import { EMPTY, md as markdown } from '../src/render/markdown.js'
import { truncate } from '../src/render/truncate.js'
import { errorReport, parseReport, type Report } from '../src/report.js'
import { loadFixture } from './fixtures.js'

// The fixtures are real `wiregate gate` output (scripts/fixtures.sh), so
// these tests read their expectations off the fixture rather than restating
// numbers a rerun would change.

test('pass, measure: all: unchanged messages folded and counted, each table with its exact sizes', () => {
  const report = loadFixture('all')
  const md = renderReport(report, { runUrl: 'https://example.test/run/1' })
  assert.equal(md.split('\n')[0], '## ✅ wiregate: pass — no schema changed')
  assert.ok(report.messages.length >= 2)
  // Measured though identical (measure: all): one collapsed line that
  // counts them, each message's table inside with its exact size. The
  // rest of this comment is test/golden/fixture-all.md.
  assert.match(md, new RegExp(`\n<details><summary>${report.messages.length} messages unchanged \\(schema identical\\): measured \\(measure: all\\); their exact figures cannot differ and their timings cannot fail the gate</summary>\n`))
  for (const m of report.messages) {
    for (const f of m.formats) assert.match(md, new RegExp(`\\| ${f.format}( \\(aliasing\\))? \\| ${f.size!.head.toFixed(1)} \\(=\\) \\|`))
  }
})

// The fail and allowed fixtures were gated with breaking-against:
// latest-tag:v* on a repository whose v2 had a field the base no longer
// has (scripts/fixtures.sh).
test('fail: the first line gives the reasons; every violation has a row with its numbers', () => {
  const report = loadFixture('fail')
  const md = renderReport(report)
  const size = report.violations.find(v => v.kind === 'size')!
  const first = md.split('\n')[0]!
  assert.ok(first.includes(`size ${pct(size.delta_pct).source} on ${size.subject} (limit ${pct(size.threshold_pct, false).source})`), first)
  assert.ok(md.includes(`${measure(size.base!, 'B/msg').source} → ${measure(size.head!, 'B/msg').source}, ${pct(size.delta_pct).source}, limit ${pct(5, false).source}`), md)
  for (const v of report.violations) {
    const kind = v.against ? `${v.kind}: breaks release \`${v.against}\`` : v.kind === 'breaking' ? 'breaking: breaks the base' : v.kind
    // A schema finding is a row of its element (file, message, field) under the element's id.
    const element = report.elements?.find(e => e.violations.includes(v.id!))
    const row = element ? `| ❌ | ${kind} | \`${element.file}\`<br>` : `| ❌ | ${kind} | \`${v.subject}\`<br>\`${v.id!}\` |`
    assert.ok(md.includes(row) && (!element || md.includes(`\`${element.id}\` |`)), `${v.subject} ${v.against ?? ''}\n${md}`)
  }
})

// The checks table separating "breaks the base" from "breaks release v2"
// is test/golden/fixture-fail.md; allowed rows, fixture-allowed.md.

test('a changed message charts its history: main\'s points, then the PR last', () => {
  const report = loadFixture('fail')
  const h = report.history!.messages.find(m => m.name === 'telemetry.v1.TelemetryEvent')!
  const md = renderReport(report)
  const charts = [...md.matchAll(/```mermaid\nxychart-beta\n {4}title "telemetry\.v1\.TelemetryEvent ([^:]+): last (\d+) commits of main, then this PR"\n {4}x-axis \[([^\]]*)\]\n {4}y-axis "[^"]+" [\d.]+ --> [\d.]+\n((?: {4}line \[[^\]]*\]\n)+)```\n<sub>Lines in order — ([^<]*)<\/sub>/g)]
  assert.deepEqual(charts.map(c => c[1]), ['B/msg', 'allocs/op', 'instr/op'], md)
  for (const c of charts) {
    const series = h.series.filter(s => s.unit === c[1])
    const labels = JSON.parse(`[${c[3]}]`) as string[]
    assert.equal(labels.at(-1), 'PR')
    assert.deepEqual(labels.slice(0, -1), h.commits.filter(x => !x.head).map(x => x.sha.slice(0, 7)))
    assert.equal(Number(c[2]), labels.length - 1)
    const lines = [...c[4]!.matchAll(/line \[([^\]]*)\]/g)].map(l => l[1]!.split(', ').map(Number))
    assert.equal(lines.length, series.length)
    lines.forEach((l, i) => {
      assert.equal(l.at(-1), Math.round(series[i]!.values.at(-1)! * 10) / 10, 'the last point is the PR head')
    })
    // A chart holds every series of its unit; the PR moved at least one (not
    // every one: protobuf encode's allocs/op stays 1).
    assert.ok(lines.some(l => l.at(-1) !== l.at(-2)), 'the PR moved one of them')
    assert.match(c[5]!, new RegExp(`^1\\. ${series[0]!.format} ${series[0]!.metric}: `))
  }
})

test('history notes and warnings are one line each', () => {
  const report = loadFixture('all')
  report.history = { branch: 'wiregate-data', points: 20, note: 'no branch wiregate-data on origin yet (a push to the default branch records it)', messages: [] }
  report.warnings = ['input \'breaking-against\' is "latest-tag:v*": no tag matches v* in this clone']
  const md = renderReport(report)
  // text() escapes the markdown in it: v\* shows as v*.
  assert.match(md, /\n> ⚠️ input 'breaking-against' is "latest-tag:v\\\*": no tag matches v\\\* in this clone\n/)
  assert.match(md, /<sub>History \(`wiregate-data`\): no branch wiregate-data on origin yet \(a push to the default branch records it\)\.<\/sub>/)
  report.history = { branch: 'wiregate-data', points: 20, recorded: 'c'.repeat(40), attempts: 2, messages: [] }
  assert.match(renderReport(report), /<sub>History: recorded ccccccc on `wiregate-data` \(2 attempts: other runs pushed first\)\.<\/sub>/)
})

test('skipped messages are listed one line each, with file and reason; the base\'s own are marked', () => {
  const report = loadFixture('all')
  report.skipped = [
    { message: 'vault.v1.Envelope', file: 'vault/v1/vault.proto', reason: 'a MessageSet (option message_set_wire_format): legacy', side: 'head' },
    { message: 'vault.v1.Old', file: 'vault/v1/old.proto', reason: 'a message with weak field `w`', side: 'base' }
  ]
  const md = renderReport(report)
  assert.match(md, /\n#### Not measured \(2\)\n- `vault.v1.Envelope` in `vault\/v1\/vault.proto`: a MessageSet \(option message_set_wire_format\): legacy\n/)
  assert.match(md, /\n- `vault.v1.Old` in `vault\/v1\/old.proto` \(the base only: [^\n]*\): a message with weak field \\`w\\`\n/)
})

test('byte sizes read as MiB or GiB, whole when they are', () => {
  assert.equal(mebibytes(128 * 2 ** 20).source, '128 MiB')
  assert.equal(mebibytes(2 ** 30).source, '1 GiB')
  assert.equal(mebibytes(25096192).source, '23.9 MiB')
  assert.equal(mebibytes(1.5 * 2 ** 30).source, '1.50 GiB')
})

test('a message whose backlogs the byte budget or the drain cut says each row\'s N and why, once', () => {
  const report = loadFixture('fail')
  // The failing message comes first, then the other changed one.
  const [other, name] = report.messages.map(m => m.name) as [string, string]
  assert.equal(name, 'telemetry.v1.TelemetryEvent')
  // The fixture drains protobuf (pipeline-formats: auto); with all, json
  // and avro rows follow it.
  const [piped] = report.pipeline.filter(p => p.message === name)
  assert.ok(piped, 'the fixture pipes the message')
  report.pipeline.push({ ...piped, format: 'json' }, { ...piped, format: 'avro' })
  report.pipeline.sort((a, b) => a.message.localeCompare(b.message) || a.format.localeCompare(b.format)) // as the gate sorts them
  const rows = report.pipeline.filter(p => p.message === name)
  for (const p of rows) {
    p.backlog = p.format === 'json'
      ? { n: 11036, budget_bytes: 128 * 2 ** 20, mean_bytes: 12161, format: 'json' }
      : p.format === 'protobuf' ? { n: 5000, mean_bytes: 300, format: 'protobuf', drain_seconds: 0.25 } : { n: 20000, mean_bytes: 200, format: p.format }
  }
  const md = renderReport(report)
  const note = '<sub>Pipeline backlogs, not the 20,000 records asked for: json N = 11,036 (byte budget 128 MiB / 12,161 B per record); protobuf N = 5,000 (a 250 ms drain).</sub>'
  assert.equal(md.split(note).length, 2, md)
  const section = (n: string): number => md.indexOf(`### \`${n}\``)
  assert.ok(section(name) < md.indexOf(note) && md.indexOf(note) < section(other), md)
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
    md.includes('| ❌ | time | `a.B/protobuf/decode` | decode got slower, significantly and by more than the time threshold (410 ns → 470 ns, +14.6%, limit 10.0%, p&lt;0.001, n=10+10) |'),
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
  assert.equal(truncate('short\n', 100, markdown`cut`), 'short\n')
  const long = ['# title', '<details><summary>x</summary>', '```text', ...Array.from({ length: 500 }, (_, i) => `line ${i}`), '```', '</details>'].join('\n')
  const cut = truncate(long, 1000, markdown`see the job summary`)
  assert.ok(cut.length <= 1000, `length ${cut.length}`)
  assert.match(cut, /line \d+\n```\n<\/details>\n\n\n> ✂️ see the job summary\n$/)
  assert.equal((cut.match(/```/g) ?? []).length % 2, 0)
})

test('a huge report still fits a comment', () => {
  const report = loadFixture('all')
  report.benchstat = 'x'.repeat(100).concat('\n').repeat(2000)
  const md = renderReport(report)
  assert.ok(md.length > 65536)
  assert.ok(truncate(md, 65536, EMPTY).length <= 65536)
})

test('what the time budget cut is said under the verdict, one line a stage', () => {
  const report = loadFixture('all')
  report.plan = {
    budget_seconds: 60,
    bench: { count: 7, benchtime: '10ms', untimed: ['a.B'], note: 'to fit 21s: benchtime 300ms → 10ms, rounds 10 → 7, 1 of 3 messages not timed (a.B)' },
    pipeline: { untimed: ['a.B/json'], note: 'to fit the time budget: 1 of 6 rows not timed (a.B/json)' },
    cpu: { uncounted: ['a.B'], note: 'to fit the time budget: 1 of 2 unchanged-schema messages not counted (their counts cannot differ: same code, same records)' }
  }
  const md = renderReport(parseReport(JSON.stringify(report)))
  // In the order the stages run.
  assert.match(md, /\n> ⏱ Instruction counts, to fit the time budget: 1 of 2 unchanged-schema messages not counted \(their counts cannot differ: same code, same records\)\n>\n> ⏱ Bench rounds, to fit 21s: benchtime 300ms → 10ms, rounds 10 → 7, 1 of 3 messages not timed \(a\.B\)\n>\n> ⏱ Pipeline, to fit the time budget: 1 of 6 rows not timed \(a\.B\/json\)\n/)
  // What each cut is a count with the names folded.
  assert.match(md, /\n<details><summary>⏱ 1 message whose instructions were not counted<\/summary>\n\n```text\na\.B\n```\n\n<\/details>\n/)
  assert.match(md, /<summary>⏱ 1 message not timed<\/summary>/)
  assert.match(md, /<summary>⏱ 1 pipeline row not timed<\/summary>\n\n```text\na\.B\/json\n```/)
})

test('stage timings total the run\'s own wall time when stages ran at once, else their sum', () => {
  const report = loadFixture('fail')
  const stages: Report['stages'] = [
    { name: 'cpu', seconds: 171.2, note: 'beside the bench rounds' },
    { name: 'bench', seconds: 120.5, note: '' },
    { name: 'pipeline', seconds: 167.9, note: '' }]
  const total = (r: Report) => /\| \*\*total\*\* \| ([\d,.]+) s \|/.exec(renderReport(r))?.[1]
  // The counts ran beside the rounds: 171.2 s of the run overlap them.
  assert.equal(total({ ...report, stages, seconds: 346.2 }), '346.2')
  // A report without its wall time (written before wiregate ran) adds its stages up.
  assert.equal(total({ ...report, stages, seconds: undefined }), '459.6')
})

test('a pipeline row that stopped early with no fall says so beside its MDE', () => {
  const report = loadFixture('fail')
  const row = { ...report.pipeline[0]!, mde_pct: 7.5, stopped_no_fall: 4 }
  const md = renderReport({ ...report, pipeline: [row] })
  assert.ok(md.includes(`| \`${row.message}/${row.format}/pipeline\` | records/s |`), md)
  assert.match(md, /7\.5% \(stopped after 4 rounds: no fall\) \|/)
})

test('a timing that stopped early with no slowdown says so beside its MDE', () => {
  const report = loadFixture('fail')
  const i = report.messages.findIndex(m => m.name === 'telemetry.v1.TelemetryEvent')
  const m = report.messages[i]!
  const f = m.formats[0]!
  const timing = f.metrics.find(x => x.unit === 'sec/op' && x.noise_floor_pct !== undefined)!
  const metrics = f.metrics.map(x => (x === timing ? { ...x, mde_pct: 6.25, stopped_no_slowdown: 4 } : x))
  const messages = report.messages.map((x, j) => (j === i ? { ...m, formats: [{ ...f, metrics }, ...m.formats.slice(1)] } : x))
  const md = renderReport({ ...report, messages })
  assert.match(md, /\| 6\.3% \(timed 4 rounds: no slowdown\) \|/)
})

test('a format the pipeline drains says "not drained" when it has no row; any other format is "—"', () => {
  const report = loadFixture('fail')
  const name = 'telemetry.v1.TelemetryEvent'
  const msg = report.messages.find(m => m.name === name)!
  const piped = msg.formats.filter(f => f.piped).map(f => f.format)
  assert.deepEqual(piped, ['protobuf'], 'the fixture drains the message in protobuf (pipeline-formats: auto)')
  const cell = (md: string, format: string): string => {
    const section = md.slice(md.indexOf(`### \`${name}\``))
    const line = section.split('\n').find(l => l.startsWith(`| ${format} |`) || l.startsWith(`| ${format} (aliasing) |`))!
    return line.split(' | ').at(-1)!.replace(/ \|$/, '')
  }
  const md = renderReport(report)
  assert.equal(cell(md, 'json'), '—')
  assert.notEqual(cell(md, 'protobuf'), '—')
  report.pipeline = report.pipeline.filter(p => p.message !== name)
  assert.equal(cell(renderReport(report), 'protobuf'), 'not drained')
})

test('buf rules: a head that loosens the rules that judge it gets one line under the schema checks, its rule as code; a report without buf_rules has none; hostile text stays text', () => {
  const change = "buf.yaml loosens breaking: `except: FIELD_NO_DELETE` (judged by the base's rules; applies once merged)"
  const fail = loadFixture('fail')
  assert.doesNotMatch(renderReport(fail), /⚖️/, 'head\'s rules are the base\'s: no rules line')
  const loosened = parseReport(JSON.stringify({ ...fail, buf_rules: { from: ["the base's buf.yaml"], change, head_only: [{ kind: 'lint', file: 'a.proto', rule: 'X', message: 'm' }] } }))
  const md = renderReport(loosened)
  const lines = md.split('\n').filter(l => l.includes('⚖️'))
  assert.deepEqual(lines, ["> ⚖️ buf.yaml loosens breaking: `except: FIELD_NO_DELETE` (judged by the base's rules; applies once merged) · head's own rules alone find 1 more finding"])
  assert.ok(md.indexOf('#### Schema checks') < md.indexOf('⚖️'), 'under the schema checks')

  const hostile = parseReport(JSON.stringify({ ...fail, buf_rules: { from: [], change: 'x <img src=x onerror=alert(1)> [l](https://evil.example) `a` b' } }))
  const line = renderReport(hostile).split('\n').find(l => l.includes('⚖️'))!
  assert.equal(line, '> ⚖️ x &lt;img src=x onerror=alert(1)&gt; \\[l\\](https:/\u200b/evil.example) `a` b')
})
