// Publish mode: post the report a gating run uploaded, from a workflow_run
// workflow that has write permissions and runs no PR code. Everything that
// decides where to post comes from the workflow_run event and the API;
// the artifact is data, checked, decided again by the base's rules
// (judge.ts) and re-rendered, never trusted.
import { ARTIFACT_PREFIX, type ReportArtifact } from './artifact.js'
import { BudgetSpent } from './budget.js'
import { upsertSticky, type CommentApi } from './comment.js'
import { EXIT_ERROR, EXIT_PASS, WiregateError } from './errors.js'
import type { CommitStatus, OpenPull } from './github.js'
import { Fields } from './jsonShape.js'
import type { Log } from './log.js'
import { HeadMoved, judgedComment, judgedStatus, type Judged } from './judge.js'
import { markerOf, type CommentRequest } from './render.js'
import { parseReport, type Report } from './report.js'
import { contextsOf, statusContext } from './statusContext.js'

/** The fields of a workflow_run event that publish mode reads. */
export interface WorkflowRun {
  id: number
  /** the gating workflow's name: the first half of the sticky marker */
  name: string
  /** the event that started the gating run */
  event: string
  conclusion: string
  headSha: string
  headBranch: string
  /** who owns the head repository: a fork's owner for a fork PR */
  headOwner: string
  /** the gating workflow's file (.github/workflows/…), as GitHub names it */
  path?: string
  htmlUrl?: string
}

const SOURCE = 'the workflow_run event'

/** workflowRunOf reads the event publish mode runs on, or says what is missing. */
export function workflowRunOf(eventName: string, payload: unknown): WorkflowRun {
  if (eventName !== 'workflow_run') {
    throw new WiregateError(`mode: publish runs on workflow_run events, this run is a ${eventName || 'unknown'} event: trigger the publish workflow with 'on: workflow_run' (docs/action.md)`)
  }
  const run = Fields.of(SOURCE, '', payload).object('workflow_run')
  const headSha = run.string('head_sha')
  if (!/^[0-9a-f]{40}$/.test(headSha)) throw new WiregateError(`${SOURCE}: workflow_run.head_sha is not a commit sha`)
  return {
    id: run.int('id'),
    name: run.string('name'),
    event: run.string('event'),
    conclusion: run.optional('conclusion', 'string') ?? '',
    headSha,
    headBranch: run.string('head_branch'),
    headOwner: run.object('head_repository').object('owner').string('login'),
    path: run.optional('path', 'string'),
    htmlUrl: linkable(run.optional('html_url', 'string'))
  }
}

/** linkable keeps a URL that can stand in a markdown link as it is. */
function linkable(url: string | undefined): string | undefined {
  return url && /^https?:\/\/[^\s()<>[\]]+$/.test(url) ? url : undefined
}

/** What posting a gating run's reports does on GitHub, backed by Octokit
 * and the artifact client in the action and by stand-ins in tests: publish
 * mode's, and approve mode's for each run of a head. */
export interface ReportApi {
  comments(pull: number): CommentApi
  setStatus(sha: string, status: CommitStatus): Promise<void>
  /** the contexts of the statuses already on a commit */
  statusContexts(sha: string): Promise<string[]>
  reportArtifacts(): Promise<ReportArtifact[]>
  /** the artifact's report.json as text, within the size limits */
  download(artifact: ReportArtifact): Promise<string>
  /** decide the checked report again for the pull request (judge.ts) */
  judge(pull: number, text: string, report: Report): Promise<Judged>
  /** the sticky comment, rendered by wiregate (its marker the first line) */
  comment(c: CommentRequest): Promise<string>
}

/** What publish mode does on GitHub. */
export interface PublishApi extends ReportApi {
  openPullsWithHead(headOwner: string, branch: string): Promise<OpenPull[]>
}

/** The gating run whose reports are posted. */
export type ReportRun = Pick<WorkflowRun, 'id' | 'name' | 'headSha' | 'htmlUrl'>

/** A pull request a report is posted on, and the base branch its status names. */
export type Target = Pick<OpenPull, 'number' | 'baseRef'>

export interface PublishOptions {
  /** post the sticky comment (input comment); the status is always set */
  comment: boolean
}

/** publishRun posts every report artifact of the gating run on the pull
 * request the API names for the run's head and the report's base, and
 * sets a commit status for each, named by that base. Where publish cannot
 * decide for a head and base (two open pull requests with that head and
 * that base, no artifact), it sets that base's status to error with the
 * reason: an earlier green never stands for what was not judged. Its
 * result is the exit code: 0 when every report was published or there
 * was nothing to publish, 2 when a report was refused or could not be
 * placed. */
export async function publishRun(run: WorkflowRun, api: PublishApi, log: Log, opts: PublishOptions): Promise<number> {
  if (run.event !== 'pull_request' && run.event !== 'pull_request_target') {
    log.info(`run ${run.id} was started by a ${run.event} event, not a pull request: nothing to publish`)
    return EXIT_PASS
  }
  const head = `${run.headOwner}:${run.headBranch}`
  const pulls = (await api.openPullsWithHead(run.headOwner, run.headBranch)).filter(p => p.headSha === run.headSha)
  if (pulls.length === 0) {
    // Normal when the PR was pushed to again or closed while the gate ran:
    // the newer run publishes its own report.
    log.warning(`no open pull request has head ${head} at ${run.headSha} (closed, or pushed to since run ${run.id}): nothing published`)
    return EXIT_PASS
  }
  const artifacts = await api.reportArtifacts()
  if (artifacts.length === 0) {
    const cancelled = run.conclusion === 'cancelled' || run.conclusion === 'skipped'
    const why = cancelled ? `run ${run.id} was ${run.conclusion} and uploaded no report` : `run ${run.id} has no ${ARTIFACT_PREFIX}<job> artifact`
    const failed = await failStale(run, pulls, api, `${why}: nothing was judged for this head`)
    const set = failed > 0 ? `; ${failed} earlier status${failed === 1 ? '' : 'es'} of this workflow set to error` : ''
    if (cancelled) {
      log.info(`${why}: nothing to publish${set}`)
      return EXIT_PASS
    }
    throw new WiregateError(`${why}: its wiregate step did not run or did not upload (it needs the runner's artifact service); nothing published${set}`)
  }
  let exitCode = EXIT_PASS
  for (const artifact of artifacts) {
    if (!(await publishArtifact(run, pulls, artifact, api, log, opts))) exitCode = EXIT_ERROR
  }
  return exitCode
}

/** failStale sets every status this run's workflow set on the head for
 * one of pulls' bases to error: nothing stands for what was not judged.
 * Its result is how many it set. */
async function failStale(run: ReportRun, pulls: Target[], api: ReportApi, why: string): Promise<number> {
  const contexts = await api.statusContexts(run.headSha)
  const stale = [...new Set(pulls.flatMap(p => contextsOf(contexts, run.name, p.baseRef)))]
  for (const context of stale) await api.setStatus(run.headSha, { state: 'error', description: why, context, targetUrl: run.htmlUrl })
  return stale.length
}

/** publishArtifact posts one gating job's report on the pull request
 * judged against the report's base: the only open one with the run's
 * head, or the one of them whose base is the report's. Where that cannot
 * be told, the base's status is an error. True when published. */
async function publishArtifact(run: ReportRun, pulls: OpenPull[], artifact: ReportArtifact, api: ReportApi, log: Log, opts: PublishOptions): Promise<boolean> {
  if (pulls.length === 1) return publishOne(run, pulls[0]!, artifact, () => loadReport(artifact, api), api, log, opts)
  let loaded: Loaded
  try {
    loaded = await loadReport(artifact, api)
  } catch (err) {
    if (!(err instanceof WiregateError)) throw err
    // Refused before it names a base: every base of the head is told.
    return cannotDecide(run, pulls, artifact, `refused the report of run ${run.id}: ${err.message}`, api, log)
  }
  const same = pulls.filter(p => p.baseSha === loaded.report.base.sha)
  if (same.length === 1) return publishOne(run, same[0]!, artifact, () => Promise.resolve(loaded), api, log, opts)
  const why =
    same.length > 1
      ? `open pull requests ${same.map(p => `#${p.number}`).join(', ')} all have head ${run.headSha} and base ${same[0]!.baseRef}: publish cannot tell which one run ${run.id} gated`
      : `run ${run.id}'s report was judged against ${loaded.report.base.sha}, the base of none of open pull requests ${pulls.map(p => `#${p.number}`).join(', ')} with head ${run.headSha}: a retargeted pull request is gated again`
  return cannotDecide(run, same.length > 1 ? same : pulls, artifact, why, api, log)
}

/** cannotDecide sets the job's status for each base of pulls to error with
 * why, says why in one line, and is false. */
async function cannotDecide(run: ReportRun, pulls: Target[], artifact: ReportArtifact, why: string, api: ReportApi, log: Log): Promise<boolean> {
  for (const base of [...new Set(pulls.map(p => p.baseRef))]) {
    await api.setStatus(run.headSha, { state: 'error', description: why, context: statusContext(run.name, artifact.job, base), targetUrl: run.htmlUrl })
  }
  log.error(`${why}; nothing published`, { title: 'wiregate could not publish' })
  return false
}

/** A downloaded report, checked. */
interface Loaded {
  text: string
  report: Report
}

async function loadReport(artifact: ReportArtifact, api: ReportApi): Promise<Loaded> {
  const text = await api.download(artifact)
  return { text, report: parseReport(text, `report.json of artifact ${artifact.name}`) }
}

/** publishReports posts each artifact's report on the pull request target
 * and sets its status: 0 when every one was published (or its head moved
 * on), 2 when one was refused. */
export async function publishReports(run: ReportRun, target: Target, artifacts: ReportArtifact[], api: ReportApi, log: Log, opts: PublishOptions): Promise<number> {
  let exitCode = EXIT_PASS
  for (const artifact of artifacts) {
    const published = await publishOne(run, target, artifact, () => loadReport(artifact, api), api, log, opts)
    if (!published) exitCode = EXIT_ERROR
  }
  return exitCode
}

/** publishOne publishes one gating job's report, or refuses it: then the
 * comment says so in wiregate's own words (a stale report must not stand
 * as this head's) and the status is an error. A head that moved while
 * publish read it, or a read past the call budget, sets the status to
 * error and leaves the comment. True when published. */
async function publishOne(run: ReportRun, target: Target, artifact: ReportArtifact, load: () => Promise<Loaded>, api: ReportApi, log: Log, opts: PublishOptions): Promise<boolean> {
  const pull = target.number
  const context = statusContext(run.name, artifact.job, target.baseRef)
  let request: CommentRequest
  let status: CommitStatus
  let refused: string | undefined
  try {
    const { text, report } = await load()
    const judged = await api.judge(pull, text, report)
    request = judgedComment(judged, run.name, artifact.job, run.htmlUrl)
    status = judgedStatus(judged, context, run.htmlUrl)
  } catch (err) {
    if (err instanceof HeadMoved || err instanceof BudgetSpent) {
      // Nothing was decided for this head: its status says so, and the
      // comment is left for the run that decides.
      await api.setStatus(run.headSha, { state: 'error', description: err.message, context, targetUrl: run.htmlUrl })
      if (err instanceof HeadMoved) {
        log.warning(`${err.message} (run ${run.id}); status ${context} set to error`)
        return true
      }
      log.error(`run ${run.id}: ${err.message}`, { title: 'wiregate could not publish' })
      return false
    }
    if (!(err instanceof WiregateError)) throw err
    refused = err.message
    // wiregate's words only: the refusal, then why.
    request = { workflow: run.name, job: artifact.job, runUrl: run.htmlUrl, refused: { reason: refused, runId: run.id } }
    status = { state: 'error', description: 'wiregate refused the report: see the comment or the publish log', context, targetUrl: run.htmlUrl }
  }
  await api.setStatus(run.headSha, status)
  if (opts.comment) {
    const body = await api.comment(request)
    const outcome = await upsertSticky(api.comments(pull), markerOf(body), body)
    log.info(`PR #${pull}: comment ${outcome.action} (id ${outcome.id}), status ${status.state} on ${run.headSha}`)
  }
  if (refused) {
    log.error(`refused the report of run ${run.id}: ${refused}`, { title: 'wiregate refused a report' })
    return false
  }
  return true
}
