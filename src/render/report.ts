import type { Report } from '../report.js'
import { checksTable } from './checks.js'
import {
  benchstatDetails,
  environmentDetails,
  errorsDetails,
  ignoredDetails,
  noiseDetails,
  stagesDetails
} from './details.js'
import { historyNote } from './history.js'
import { messageSection } from './messages.js'
import { shortSha } from './numbers.js'
import { code, text } from './safe.js'
import { skippedList } from './skipped.js'
import { verdictLine } from './verdict.js'
import { violationsTable } from './violations.js'

export interface RenderContext {
  /** link to the workflow run, when there is one */
  runUrl?: string
}

/** budgetNotes says what the time budget cut, one line a stage. */
function budgetNotes(report: Report): string {
  const notes: Array<[string, string | undefined]> = [
    ['Bench rounds', report.plan?.bench?.note],
    ['Pipeline', report.plan?.pipeline?.note],
    ['Instruction counts', report.plan?.cpu?.note]
  ]
  return notes
    .filter(([, n]) => n)
    .map(([stage, n]) => `> ⏱ ${stage}, ${text(n!)}`)
    .join('\n>\n')
}

/** renderReport turns report.json into report.md: verdict first, detail last. */
export function renderReport(report: Report, ctx: RenderContext = {}): string {
  const rev = (r: Report['base']): string => `${code(r.ref || '?')} @ ${text(shortSha(r.sha) || '?')}`
  const revs = `base ${rev(report.base)} → head ${rev(report.head)}`
  const sections = [
    verdictLine(report),
    ctx.runUrl ? `${revs} · [run](${ctx.runUrl})` : revs,
    (report.warnings ?? []).map(w => `> ⚠️ ${text(w)}`).join('\n>\n'),
    budgetNotes(report),
    report.cpu_cost?.unavailable ? `> ℹ️ Instructions not counted: ${text(report.cpu_cost.unavailable)}.` : '',
    violationsTable(report),
    '#### Schema checks',
    checksTable(report),
    ...report.messages.map(m => messageSection(report, m)),
    report.messages.length > 0
      ? '<sub>Cells: base → head (delta, p). "~" means the change is not significant at alpha (CPU: within what identical counts move). CPU is instructions per operation counted under Valgrind: exact, the same on any runner. Chart bars: base first, head second.</sub>'
      : '',
    skippedList(report),
    historyNote(report),
    benchstatDetails(report),
    noiseDetails(report),
    ignoredDetails(report),
    environmentDetails(report),
    stagesDetails(report),
    errorsDetails(report)
  ]
  return sections.filter(s => s !== '').join('\n\n') + '\n'
}
