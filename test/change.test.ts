// The comment leads with the change: what changed in full, the rest one
// counted line with the names folded, and any module within GitHub's limit.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import MarkdownIt from 'markdown-it'
import { commentBody, stickyMarker } from '../src/comment.js'
import { COMMENT_LIMIT, fit, type Part } from '../src/render/fit.js'
import { md } from '../src/render/markdown.js'
import { renderReport, reportParts } from '../src/render/report.js'
import { errorReport, type Report } from '../src/report.js'
import { aaReport, changedReport, lintDebt, messageName, reparse } from './reports.js'

const MARKER = stickyMarker('wiregate', 'gate')
const comment = (r: Report): string => commentBody(MARKER, reportParts(reparse(r), { runUrl: 'https://github.com/o/r/actions/runs/9' }), 'https://github.com/o/r/actions/runs/9')

/** visible is what a reader sees of rendered markdown before opening
 * anything: the text, with each <details> down to its summary. */
function visible(markdown: string): string {
  const html = new MarkdownIt({ html: true }).render(markdown)
  return html
    .replace(/<details><summary>([\s\S]*?)<\/summary>[\s\S]*?<\/details>/g, '$1')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&(lt|gt|amp|quot);/g, 'x')
    .replace(/\s+/g, ' ')
    .trim()
}

/** folded is the names a collapsed list holds, after its summary. */
function foldedNames(markdown: string, summary: RegExp): string[] {
  const m = new RegExp(`<details><summary>${summary.source}</summary>\\n\\n\`\`\`text\\n([\\s\\S]*?)\\n\`\`\`\\n\\n</details>`).exec(markdown)
  assert.ok(m, `no folded list ${summary.source} in\n${markdown.slice(0, 3000)}`)
  return m.at(-1)!.split('\n')
}

test('an A/A of 60 messages is a few hundred bytes of visible text, the names folded', () => {
  const report = aaReport(60)
  const body = comment(report)
  const seen = visible(body)
  assert.ok(Buffer.byteLength(seen) < 500, `${Buffer.byteLength(seen)} bytes visible: ${seen}`)
  assert.match(seen, /60 messages unchanged \(schema identical\): not re-measured/)
  assert.deepEqual(foldedNames(body, /60 messages unchanged \(schema identical\): not re-measured/), report.change!.unchanged)
  assert.doesNotMatch(body, /mermaid|^### /m)
})

test('no schema changed: the verdict says so, and what ran instead of measuring', () => {
  const body = comment(aaReport(3))
  assert.equal(body.split('\n')[1], '## ✅ wiregate: pass — no schema changed')
  // Every check ran: the line test/golden/fixture-pass.md shows. Fewer ran:
  // it names only those.
  const onlyLint = aaReport(3)
  onlyLint.stages = onlyLint.stages.filter(s => s.name === 'buf lint')
  assert.match(comment(onlyLint), /\*\*No schema changed\*\*: ran lint; nothing to measure/)
  // A report whose change set has a change says nothing of the kind.
  assert.doesNotMatch(comment(changedReport(3, 1)), /No schema changed|no schema changed/)
})

test('one changed message of three: it in full, with its verdict; the other two one folded line', () => {
  const report = changedReport(3, 1)
  const body = comment(report)
  assert.match(body, new RegExp(`\\n### \`${messageName(0)}\`\\n\\n❌ size \\+8\\.0% on protobuf/size \\(limit 5\\.0%\\)\\n`))
  assert.match(body, /\| protobuf \| 150\.0 → 162\.0 \(\+8\.0%\) \|/)
  assert.match(body, /x-axis \["json", "protobuf", "avro"\]/)
  assert.deepEqual(foldedNames(body, /2 messages unchanged \(schema identical\): not re-measured/), [messageName(1), messageName(2)])
  for (const other of [messageName(1), messageName(2)]) assert.doesNotMatch(body, new RegExp(`### \`${other}\``))
})

test('a message new on head says nothing to compare and shows head\'s figures only, no chart', () => {
  const report = changedReport(2, 2)
  const added = report.messages[1]!
  added.status = 'new'
  for (const f of added.formats) {
    f.size = { base: 0, head: f.size!.head, delta_pct: null }
    for (const m of f.metrics) Object.assign(m, { base: null, delta_pct: null, p: null, significant: false })
  }
  for (const p of report.pipeline.filter(p => p.message === added.name)) Object.assign(p, { base: null, delta_pct: null, p: null })
  report.history!.messages = report.history!.messages.filter(h => h.name !== added.name)
  report.change = { ...report.change!, changed: [messageName(0)], new: [messageName(1)] }
  const body = comment(report)
  const section = body.split(`### \`${messageName(1)}\` · new on head\n\n`)[1]!.split('\n<sub>Cells: ')[0]!
  assert.match(section, /^🆕 New on head: nothing to compare, head's figures only\.\n/)
  const rows = section.split('\n').filter(l => /^\| (json|protobuf|avro)/.test(l))
  assert.equal(rows.length, 3)
  for (const row of rows) assert.doesNotMatch(row, /→|%/, row)
  assert.match(rows[1]!, /^\| protobuf \| 163\.1 \| 540 ns \| 540 ns \| 3,349<br>3,349 \| 926k \|$/)
  assert.doesNotMatch(section, /mermaid/)
  // The changed one comes first, and still charts.
  assert.ok(body.indexOf(`### \`${messageName(0)}\``) < body.indexOf(`### \`${messageName(1)}\``))
})

test('removed messages are one counted line with the names folded', () => {
  const report = aaReport(2)
  report.change = { ...report.change!, removed: ['old.v1.Gone', 'old.v1.Went'], no_schema_changed: false }
  assert.deepEqual(foldedNames(comment(report), /2 messages removed \(only the base declares them\)/), ['old.v1.Gone', 'old.v1.Went'])
})

/** verdictLines checks that every changed message has its heading and verdict line in body. */
function verdictLines(body: string, names: string[]): void {
  for (const name of names) assert.match(body, new RegExp(`\\n### \`${name.replace(/\./g, '\\.')}\`\\n\\n(❌|✅) [^\\n]+\\n`), name)
}

test('56 messages, every one changed, fit a comment with every verdict line; detail is cut first and said', () => {
  const report = changedReport(56, 56)
  const whole = renderReport(reparse(report))
  assert.ok(whole.length > COMMENT_LIMIT, `the whole report is ${whole.length} characters: the test must make the budget cut`)
  const body = comment(report)
  assert.ok(body.length <= COMMENT_LIMIT, `${body.length}`)
  verdictLines(body, report.change!.changed)
  const cut = /\n<sub>✂️ Cut to fit: ([^.]*)\. the job summary of \[this run\]\(https:\/\/github\.com\/o\/r\/actions\/runs\/9\) has all of it\.<\/sub>\n$/.exec(body)
  assert.ok(cut, body.slice(-500))
  // Detail went first, in the budget's order; each changed message's table stayed.
  assert.deepEqual(cut[1]!.split(', ').slice(0, 3), ['benchstat text', 'noise floors', 'stage timings'])
  assert.equal((body.match(/\n\| protobuf \| /g) ?? []).length, 56, 'every changed message keeps its table')
  assert.doesNotMatch(body, /> ✂️ Report cut to fit/, 'no cut mid-text')
})

test('1,276 messages measured (measure: all), one changed, and 67 lint findings of debt fit a comment', () => {
  const report = changedReport(1276, 1, { measureAll: true })
  report.findings = lintDebt(67)
  const body = comment(report)
  assert.ok(body.length <= COMMENT_LIMIT, `${body.length}`)
  verdictLines(body, [messageName(0)])
  assert.match(body, /\n1,275 messages unchanged \(schema identical\): measured \(measure: all\); their exact figures cannot differ and their timings cannot fail the gate\n/)
  assert.match(body, /67 lint findings the base already has \(existing debt\)/)
  assert.match(body, /✂️ Cut to fit: [^.]*unchanged messages' tables[^.]*\./)
})

test('a 1,276-message A/A is a short comment that folds the names', () => {
  const report = aaReport(1276)
  const body = comment(report)
  assert.ok(body.length <= COMMENT_LIMIT, `${body.length}`)
  assert.match(body, /1,276 messages unchanged \(schema identical\): not re-measured/)
  assert.ok(Buffer.byteLength(visible(body)) < 500)
})

test('lint findings the base already has are folded as debt, not failures', () => {
  const report = aaReport(3)
  report.findings = lintDebt(14)
  const body = comment(report)
  assert.equal(body.split('\n')[1], '## ✅ wiregate: pass — no schema changed')
  assert.ok(body.includes('\n| buf lint | ✅ ok |  |\n'), body)
  const debt = /<details><summary>14 lint findings the base already has \(existing debt\)<\/summary>\n\n([\s\S]*?)\n\n<\/details>/.exec(body)
  assert.ok(debt, body)
  assert.equal(debt[1]!.split('\n').length, 14)
  assert.match(debt[1]!, /^- `proto\/api\/v2\/resource0\.proto:10:1` FIELD_LOWER_SNAKE_CASE: Field name "fooBar0" should be lower_snake_case, such as "foo_bar0"\.$/m)

  // One the pull request adds fails (the gate's verdict, rendered), and only it is in the row.
  report.findings.push({ kind: 'lint', file: 'proto/new.proto', line: 3, column: 1, rule: 'ENUM_ZERO_VALUE_SUFFIX', message: 'Enum zero value should end in _UNSPECIFIED.' })
  report.violations = [{ kind: 'lint', subject: 'proto/new.proto', detail: 'Enum zero value should end in _UNSPECIFIED.', allowed: false, file: 'proto/new.proto', line: 3 }]
  report.result = 'fail'
  const failing = comment(report)
  assert.equal(failing.split('\n')[1], '## ❌ wiregate: fail — 1 lint finding')
  assert.match(failing, /\| buf lint \| ❌ 1 \| `proto\/new\.proto:3:1` ENUM_ZERO_VALUE_SUFFIX: Enum zero value should end in \\_UNSPECIFIED\. \|\n/)
  assert.match(failing, /<summary>14 lint findings the base already has \(existing debt\)<\/summary>/)
})

test('the budget cuts kinds of detail in its order, replaces a list by its count, and never cuts what has no kind', () => {
  const line = (s: string): Part => ({ md: md`${s}` })
  const parts: Part[] = [
    line('verdict'),
    { md: md`${'n'.repeat(300)}`, cut: 'names', compact: line('3 names') },
    { md: md`${'b'.repeat(300)}`, cut: 'benchstat' },
    { md: md`${'t'.repeat(300)}`, cut: 'message tables' }
  ]
  const whole = md`the summary`
  assert.equal(fit(parts, { limit: 10000, unit: 'characters', whole }), `verdict\n\n${'n'.repeat(300)}\n\n${'b'.repeat(300)}\n\n${'t'.repeat(300)}\n`)
  assert.equal(fit(parts, { limit: 800, unit: 'characters', whole }), `verdict\n\n${'n'.repeat(300)}\n\n${'t'.repeat(300)}\n\n<sub>✂️ Cut to fit: benchstat text. the summary has all of it.</sub>\n`)
  assert.equal(fit(parts, { limit: 450, unit: 'characters', whole }), `verdict\n\n3 names\n\n${'t'.repeat(300)}\n\n<sub>✂️ Cut to fit: benchstat text, folded name lists. the summary has all of it.</sub>\n`)
  // Name lists go one at a time, the longest first, each leaving its count.
  const lists: Part[] = [line('verdict'), { md: md`${'a'.repeat(100)}`, cut: 'names', compact: line('1 a') }, { md: md`${'z'.repeat(300)}`, cut: 'names', compact: line('1 z') }]
  assert.equal(fit(lists, { limit: 250, unit: 'characters', whole }), `verdict\n\n${'a'.repeat(100)}\n\n1 z\n\n<sub>✂️ Cut to fit: folded name lists. the summary has all of it.</sub>\n`)
  const last = fit([line('verdict'), line('x'.repeat(500))], { limit: 200, unit: 'characters', whole })
  assert.ok(last.length <= 200 && last.startsWith('verdict\n') && last.endsWith('> ✂️ Report cut to fit; the summary has all of it.\n'), last)
  // A byte budget counts UTF-8: "é" is two.
  const accents: Part[] = [line('é'.repeat(250)), { md: md`${'b'.repeat(200)}`, cut: 'benchstat' }]
  assert.doesNotMatch(fit(accents, { limit: 650, unit: 'characters', whole }), /Cut to fit/)
  assert.match(fit(accents, { limit: 650, unit: 'bytes', whole }), /^é{250}\n\n<sub>✂️ Cut to fit: benchstat text\./)
})

test('a base or head the gate did not name reads as what it is, never "?"', () => {
  const stopped = renderReport(errorReport({ ref: '', sha: '' }, { ref: '', sha: '' }, 'input count: not a number'))
  assert.match(stopped, /\nbase not resolved \(the run stopped before choosing it\) → head the working tree\n/)
  const local = renderReport(errorReport({ ref: 'HEAD', sha: 'a'.repeat(40) }, { ref: '', sha: '' }, 'x'))
  assert.match(local, /\nbase `HEAD` @ aaaaaaa → head the working tree\n/)
  const shaOnly = renderReport(errorReport({ ref: 'f'.repeat(40), sha: 'f'.repeat(40) }, { ref: 'feature', sha: '' }, 'x'))
  assert.match(shaOnly, /\nbase `fffffff` → head `feature`\n/)
  assert.doesNotMatch(stopped + local + shaOnly, /\?/)
})
