// Publish mode: post the report a gating run uploaded, from a workflow_run
// workflow that has write permissions and runs no PR code. Everything that
// decides where to post comes from the workflow_run event and the API;
// the artifact is data, checked, decided again by the base's rules
// (judge.ts) and re-rendered, never trusted.
import { ARTIFACT_PREFIX, type ReportArtifact } from './artifact.js'
import { upsertSticky, type CommentApi } from './comment.js'
import { EXIT_ERROR, EXIT_PASS, WiregateError } from './errors.js'
import type { CommitStatus, OpenPull } from './github.js'
import { Fields } from './jsonShape.js'
import type { Log } from './log.js'
import { HeadMoved, judgedComment, judgedStatus, type Judged } from './judge.js'
import { markerOf, type CommentRequest } from './render.js'
import { parseReport, type Report } from './report.js'

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

export interface PublishOptions {
  /** post the sticky comment (input comment); the status is always set */
  comment: boolean
}

/** publishRun posts every report artifact of the gating run on the pull
 * request the API names for the run's head, and sets a commit status for
 * each. Its result is the exit code: 0 when every report was published or
 * there was nothing to publish, 2 when a report was refused or the pull
 * request cannot be told. */
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
  if (pulls.length > 1) {
    throw new WiregateError(`open pull requests ${pulls.map(p => `#${p.number}`).join(', ')} all have head ${head} at ${run.headSha}: publish cannot tell which one run ${run.id} gated; nothing published`)
  }
  const pull = pulls[0]!.number
  const artifacts = await api.reportArtifacts()
  if (artifacts.length === 0) {
    if (run.conclusion === 'cancelled' || run.conclusion === 'skipped') {
      log.info(`run ${run.id} was ${run.conclusion} and uploaded no report: nothing to publish`)
      return EXIT_PASS
    }
    throw new WiregateError(`run ${run.id} has no ${ARTIFACT_PREFIX}<job> artifact: its wiregate step did not run or did not upload (it needs the runner's artifact service); nothing published`)
  }
  return publishReports(run, pull, artifacts, api, log, opts)
}

/** publishReports posts each artifact's report on pull and sets its
 * status: 0 when every one was published (or its head moved on), 2 when
 * one was refused. */
export async function publishReports(run: ReportRun, pull: number, artifacts: ReportArtifact[], api: ReportApi, log: Log, opts: PublishOptions): Promise<number> {
  let exitCode = EXIT_PASS
  for (const artifact of artifacts) {
    const published = await publishOne(run, pull, artifact, api, log, opts)
    if (!published) exitCode = EXIT_ERROR
  }
  return exitCode
}

/** publishOne publishes one gating job's report, or refuses it: then the
 * comment says so in wiregate's own words (a stale report must not stand
 * as this head's) and the status is an error. True when published. */
async function publishOne(run: ReportRun, pull: number, artifact: ReportArtifact, api: ReportApi, log: Log, opts: PublishOptions): Promise<boolean> {
  const context = `wiregate: ${run.name}/${artifact.job}`.slice(0, 100)
  let request: CommentRequest
  let status: CommitStatus
  let refused: string | undefined
  try {
    const text = await api.download(artifact)
    const judged = await api.judge(pull, text, parseReport(text, `report.json of artifact ${artifact.name}`))
    request = judgedComment(judged, run.name, artifact.job, run.htmlUrl)
    status = judgedStatus(judged, context, run.htmlUrl)
  } catch (err) {
    if (err instanceof HeadMoved) {
      // As when the head had moved before publish looked: the comment is
      // the newer head's to write.
      log.warning(`${err.message} (run ${run.id})`)
      return true
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
