// Publish and approve modes judge a report a gating run uploaded: the
// artifact is written by the pull request's run, so its verdict, its
// rules and its labels are not taken. Go decides again from its figures
// with the base's wiregate.yaml, the labels and the comments GitHub lists
// now (`wiregate approve --base-config`); a fork that changes the run's
// producer (trust.ts) gets no passing status at all.
import { askAbout, gatherFacts, type Approvals, type ApprovalsApi } from './approvals.js'
import { WiregateError } from './errors.js'
import type { CommitStatus, PullFacts } from './github.js'
import { statusOf } from './outputs.js'
import { untrustedOf, type ProducerApi } from './producer.js'
import type { Report } from './report.js'
import { runApprove, type RunEnv } from './run.js'
import { untrustedStatus, type Untrusted } from './trust.js'
import type { CommentRequest } from './render.js'

/** What judging asks GitHub about one pull request. */
export interface JudgeApi extends ProducerApi {
  /** the pull request as GitHub says it is now */
  pull(): Promise<PullFacts>
  approvals: ApprovalsApi
}

/** The run that uploaded the report. */
export interface Gating {
  /** the commit it gated: the report is judged only while it is the pull request's head */
  headSha: string
  workflowPath?: string
  htmlUrl?: string
}

export interface Judged {
  report: Report
  /** report.json as decided: what the comment is rendered from */
  text: string
  /** why publish cannot vouch for the report (a fork's): then it is not trusted */
  untrusted?: Untrusted
}

/** HeadMoved is a pull request that moved while its report was judged
 * (pushed to, or its comments changed twice): the next run decides, and
 * the status says nothing was decided by this one. */
export class HeadMoved extends WiregateError {}

/** judge decides reportJson (report, parsed and checked) again for the
 * pull request api names. The pull request is read before and after
 * everything else: a status only on what was checked. */
export async function judge(reportJson: string, report: Report, gating: Gating, config: string, api: JudgeApi, env: RunEnv): Promise<Judged> {
  const pull = await api.pull()
  checkPull(pull, gating.headSha, report)
  const untrusted = pull.fork ? await untrustedOf(pull, gating.workflowPath, config, api) : undefined
  const facts = await gatherFacts(api.approvals, pull.author, pull.labels)
  const base = { baseConfig: (await api.fileAt(config, pull.baseSha)) ?? '', labels: pull.labels }
  const again = await api.pull()
  checkPull(again, pull.headSha, report)
  const plan = { baseRef: report.base.sha, baseLabel: report.base.ref, headSha: report.head.sha, headLabel: report.head.ref, labels: pull.labels }
  const decide = async (approvals: Approvals): Promise<{ report: Report; text: string }> => {
    const r = await runApprove(plan, reportJson, approvals, env, { runUrl: gating.htmlUrl }, base)
    return { report: r.report, text: r.reportText }
  }
  // The people whose commands or labels counted for nothing are asked
  // about only now: most comments hold no command.
  const decideAll = async (f: Approvals): Promise<{ report: Report; text: string }> => {
    const first = await decide(f)
    const more = await askAbout(f, api.approvals, first.report)
    return more ? decide(more) : first
  }
  let judgedFacts = facts
  let decided = await decideAll(facts)
  // Re-read right before posting: a command given, edited or revoked while
  // wiregate decided must not be answered by a verdict that missed it.
  for (let reread = 0; ; reread++) {
    const now = await gatherFacts(api.approvals, pull.author, pull.labels)
    if (sameFacts(now, judgedFacts)) break
    if (reread === 1) throw new HeadMoved(`pull request #${pull.number}'s comments or labels changed twice while publish decided: the next event's run decides`)
    judgedFacts = now
    decided = await decideAll(now)
  }
  return { ...decided, ...(untrusted ? { untrusted } : {}) }
}

/** sameFacts says whether two readings of the pull request's comments and
 * labels say the same. */
function sameFacts(a: Approvals, b: Approvals): boolean {
  const key = (f: Approvals): string => JSON.stringify([f.comments.map(c => [c.id, c.author, c.body, c.updated_at]), f.labeled ?? []])
  return key(a) === key(b)
}

/** checkPull refuses a report of another head or base than pull's. */
function checkPull(pull: PullFacts, headSha: string, report: Report): void {
  if (pull.headSha !== headSha) {
    throw new HeadMoved(`pull request #${pull.number}'s head is ${pull.headSha}, no longer ${headSha}: the newer head's run decides; nothing published of this one`)
  }
  if (report.base.sha !== pull.baseSha) {
    throw new WiregateError(`the report was judged against another base than pull request #${pull.number}'s now (${pull.baseSha}): a retargeted pull request is gated again (the gating workflow's pull_request types include edited)`)
  }
}

/** judgedComment is what the comment of a judged report is rendered from
 * (the gating workflow and job name its marker): an untrusted one leads
 * with why publish cannot vouch for it. */
export function judgedComment(j: Judged, workflow: string, job: string, runUrl?: string): CommentRequest {
  const untrusted = j.untrusted ? { why: untrustedStatus(j.untrusted), ...j.untrusted } : undefined
  return { workflow, job, runUrl, report: j.text, ...(untrusted ? { untrusted } : {}) }
}

/** judgedStatus is the commit status of a judged report. */
export function judgedStatus(j: Judged, context: string, targetUrl?: string): CommitStatus {
  if (j.untrusted) return { state: 'failure', description: untrustedStatus(j.untrusted), context, targetUrl }
  return { ...statusOf(j.report), context, targetUrl }
}
