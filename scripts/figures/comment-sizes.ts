// How long the comment is for the synthetic reports the tests build
// (test/reports.ts): the whole report, the comment after the budget, what
// a reader sees before opening anything, and what the budget cut.
// Run: rm -rf build && npx tsc -p tsconfig.json && node build/scripts/figures/comment-sizes.js [report.json...]
// Each report.json named (a real run's) adds a row, named by its path.
// wiregate renders (`wiregate render`, built from this repository).
import { readFileSync } from 'node:fs'
import MarkdownIt from 'markdown-it'
import { run } from '../../src/proc.js'
import { parseReport, type Report } from '../../src/report.js'
import { aaReport, changedReport, lintDebt, metadataChange, reparse, withCPURegressions } from '../../test/reports.js'
import { renderer, wiregateBin } from '../../test/wiregateBin.js'

const visible = (markdown: string): string =>
  new MarkdownIt({ html: true })
    .render(markdown)
    .replace(/<details><summary>([\s\S]*?)<\/summary>[\s\S]*?<\/details>/g, '$1')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()

const withDebt = (r: Report, n: number): Report => ({ ...r, findings: lintDebt(n) })
const reports: Array<[string, Report]> = [
  ['A/A, 60 messages', aaReport(60)],
  ['A/A, 1,276 messages, 67 lint findings of debt', withDebt(aaReport(1276), 67)],
  ['56 messages, 8 changed, measure: all', changedReport(56, 8, { measureAll: true })],
  ['56 messages, all changed', changedReport(56, 56)],
  ['50 messages changed, 20 cpu violations with their functions', withCPURegressions(changedReport(50, 50), 20)],
  ['1,276 messages, 1 changed, measure: all, 67 of debt', withDebt(changedReport(1276, 1, { measureAll: true }), 67)],
  ['400 messages changed through one shared message, 100 failing', metadataChange(400)],
  ...process.argv.slice(2).map((path): [string, Report] => [path, parseReport(readFileSync(path, 'utf8'), path)])
]
console.log('| report | report.md (characters) | comment (characters) | visible (bytes) | the budget cut |')
console.log('|---|---|---|---|---|')
const render = await renderer()
for (const [name, r] of reports) {
  const text = JSON.stringify(reparse(r))
  const body = await render.comment({ workflow: 'wiregate', job: 'gate', report: text })
  const whole = (await run(await wiregateBin(), ['render', '--report=-'], { input: text })).stdout
  const cut = /Cut to fit: ([^.]*)\./.exec(body)?.[1] ?? 'nothing'
  console.log(`| ${name} | ${whole.length.toLocaleString('en')} | ${body.length.toLocaleString('en')} | ${Buffer.byteLength(visible(body)).toLocaleString('en')} | ${cut} |`)
}
