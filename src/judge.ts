// Publish and approve modes judge a report a gating run uploaded: the
// artifact is written by the pull request's run, so its verdict, its
// rules and its labels are not taken. Go decides again from its figures
// with the base's wiregate.yaml, the labels and the comments GitHub lists
// now (`wiregate approve --base-config`); a fork that changes the run's
// producer (trust.ts) gets no passing status at all.
import { gatherApprovals, type Approvals, type ApprovalsApi } from './approvals.js'
import type { CommitStatus, PullFacts } from './github.js'
import { statusOf } from './outputs.js'
import type { Part } from './render/fit.js'
import { reportParts } from './render/report.js'
import type { Report } from './report.js'
import { runApprove, type RunEnv } from './run.js'
import { CHANGED_WORKFLOW, localActions, producerChanges, untrustedNotice } from './trust.js'

/** What judging asks GitHub about one pull request. */
export interface JudgeApi {
  approvals: ApprovalsApi
  changedFiles(): Promise<string[]>
  /** a file's text at a commit, undefined when it has none */
  fileAt(path: string, ref: string): Promise<string | undefined>
}

/** The run that uploaded the report. */
export interface Gating {
  workflowPath?: string
  htmlUrl?: string
}

export interface Judged {
  report: Report
  /** the files of the pull request that the report's producer depends on:
   * when any, the report is not trusted */
  untrusted: string[]
}

/** judge decides reportJson (report, parsed and checked) again for pull. */
export async function judge(reportJson: string, report: Report, pull: PullFacts, gating: Gating, config: string, api: JudgeApi, env: RunEnv): Promise<Judged> {
  let untrusted: string[] = []
  if (pull.fork) {
    const workflow = gating.workflowPath === undefined ? undefined : await api.fileAt(gating.workflowPath, pull.baseSha)
    untrusted = producerChanges(await api.changedFiles(), { workflowPath: gating.workflowPath, actions: localActions(workflow ?? ''), config })
  }
  const base = { baseConfig: (await api.fileAt(config, pull.baseSha)) ?? '', labels: pull.labels }
  const plan = { baseRef: report.base.sha, baseLabel: report.base.ref, headSha: report.head.sha, headLabel: report.head.ref, labels: pull.labels }
  const decide = async (teams: string[]): Promise<Report> => {
    const approvals: Approvals = (await gatherApprovals(api.approvals, pull.author, teams)) ?? { comments: [], authors: [], pr_author: pull.author }
    return (await runApprove(plan, reportJson, approvals, env, { runUrl: gating.htmlUrl }, base)).report
  }
  let decided = await decide([])
  // The base's approver teams are known once Go has read its wiregate.yaml:
  // GitHub is asked about them only when an approval was refused.
  const teams = (decided.rules?.config.approvers ?? []).filter(a => a.includes('/'))
  if (teams.length > 0 && (decided.approvals ?? []).some(a => a.status === 'refused')) decided = await decide(teams)
  return { report: decided, untrusted }
}

/** judgedParts is the comment of a judged report. */
export function judgedParts(j: Judged, runUrl?: string): Part[] {
  const parts = reportParts(j.report, { runUrl })
  return j.untrusted.length > 0 ? [{ md: untrustedNotice(j.untrusted) }, ...parts] : parts
}

/** judgedStatus is the commit status of a judged report. */
export function judgedStatus(j: Judged, context: string, targetUrl?: string): CommitStatus {
  if (j.untrusted.length > 0) return { state: 'failure', description: CHANGED_WORKFLOW, context, targetUrl }
  return { ...statusOf(j.report), context, targetUrl }
}
