import type { Report, Rev } from '../report.js'
import { approvalNotes, approveAllParts } from './approvals.js'
import { assemble, fit, summaryRoom, type Part } from './fit.js'
import { changedParts, noSchemaChanged, unchangedParts } from './change.js'
import { bufRulesNote } from './bufRules.js'
import { checksTable, existingDebt } from './checks.js'
import { benchstatDetails, environmentDetails, errorsDetails, ignoredDetails, noiseDetails, stagesDetails } from './details.js'
import { historyNote } from './history.js'
import { code, EMPTY, join, link, md, type Md } from './markdown.js'
import { shortSha } from './numbers.js'
import { planParts } from './plan.js'
import { skippedList } from './skipped.js'
import { verdictLine } from './verdict.js'
import { violationsTable } from './violations.js'

export interface RenderContext {
  /** link to the workflow run, when there is one */
  runUrl?: string
}

/** reportParts is report.json as the report's blocks, in reading order:
 * the verdict, what fails (and the lines that approve it), what the time budget
 * cut, the schema checks, then the change —
 * each changed and new message with its verdict — then one counted line
 * for everything unchanged or removed, and the detail last. Fitting
 * (fit.ts) decides which of them a comment has room for. */
export function reportParts(report: Report, ctx: RenderContext = {}): Part[] {
  const revs = md`base ${revision(report.base, 'base')} → head ${revision(report.head, 'head')}`
  return [
    { md: verdictLine(report) },
    { md: ctx.runUrl ? md`${revs} · ${link(md`run`, ctx.runUrl)}` : revs },
    {
      md: join(
        (report.warnings ?? []).map(w => md`> ⚠️ ${w}`),
        md`\n>\n`
      )
    },
    { md: noSchemaChanged(report) },
    violationsTable(report),
    ...approveAllParts(report),
    approvalNotes(report),
    ...planParts(report),
    { md: report.cpu_cost?.unavailable ? md`> ℹ️ Instructions not counted: ${report.cpu_cost.unavailable}.` : EMPTY },
    { md: md`#### Schema checks\n\n${checksTable(report)}` },
    { md: bufRulesNote(report) },
    existingDebt(report),
    ...changedParts(report),
    ...unchangedParts(report),
    skippedList(report),
    ...historyNote(report),
    benchstatDetails(report),
    noiseDetails(report),
    ignoredDetails(report),
    environmentDetails(report),
    stagesDetails(report),
    errorsDetails(report)
  ].filter(p => !p.md.empty)
}

/** revision names a side as the gate sent it: its ref and short sha. The
 * gate always sends one of them; where both are empty, head is the working
 * tree (a local run) and the base was never resolved (the run stopped
 * before it). */
function revision(r: Rev, side: 'base' | 'head'): Md {
  const sha = shortSha(r.sha)
  if (r.ref && sha && r.ref !== r.sha && r.ref !== sha) return md`${code(r.ref)} @ ${sha}`
  if (r.ref && r.ref !== r.sha) return code(r.ref)
  if (sha) return code(sha)
  return side === 'head' ? md`the working tree` : md`not resolved (the run stopped before choosing it)`
}

/** renderReport is the whole report (report.md). */
export function renderReport(report: Report, ctx: RenderContext = {}): string {
  return assemble(reportParts(report, ctx))
}

/** renderSummary is the report within a job summary's size. */
export function renderSummary(report: Report, ctx: RenderContext = {}): string {
  return fit(reportParts(report, ctx), summaryRoom)
}
