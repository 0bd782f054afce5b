// The action's side of the report artifact: gate mode uploads it, publish
// mode (src/publish.ts) is wired here to Octokit and the artifact client.
import * as github from '@actions/github'
import { tmpdir } from 'node:os'
import type { ActionInputs } from './actionInputs.js'
import { GHESNotSupportedError } from '@actions/artifact'
import { canUpload, downloadReport, reportArtifacts, uploadReport, type GatingRun } from './artifact.js'
import { errorMessage, EXIT_ERROR, WiregateError } from './errors.js'
import { issueCommentApi, openPullsWithHead, setCommitStatus } from './github.js'
import type { Log } from './log.js'
import { publishRun, workflowRunOf, type PublishApi } from './publish.js'

/** shareReport uploads a pull request run's report.json for publish mode.
 * It is done on every PR run, not only a fork's: the same two workflows
 * then serve every PR. A failed upload is a warning: the gate's verdict
 * stands either way. */
export async function shareReport(reportJson: string, log: Log): Promise<void> {
  if (!canUpload(process.env)) {
    log.info('no artifact service (ACTIONS_RUNTIME_TOKEN, ACTIONS_RESULTS_URL): report.json is not uploaded')
    return
  }
  try {
    const { name } = await uploadReport(reportJson, process.env.GITHUB_JOB || 'gate')
    log.info(`report.json uploaded as artifact ${name} (publish mode posts it from a workflow_run workflow)`)
  } catch (err) {
    if (err instanceof GHESNotSupportedError) {
      log.info('report.json is not uploaded: GitHub Enterprise Server has no artifact service for @actions/artifact v2+, so publish mode is for github.com')
      return
    }
    log.warning(`could not upload report.json as an artifact (publish mode will have nothing to post): ${errorMessage(err)}`)
  }
}

/** runPublishMode is the action in mode: publish. Its result is the exit
 * code; every failure is one line. */
export async function runPublishMode(inputs: ActionInputs, eventName: string, payload: unknown, log: Log): Promise<number> {
  try {
    const run = workflowRunOf(eventName, payload)
    const [owner, repo] = (process.env.GITHUB_REPOSITORY ?? '').split('/')
    if (!owner || !repo) throw new WiregateError('GITHUB_REPOSITORY is not set: run publish mode in a GitHub Actions job')
    if (!inputs.githubToken) throw new WiregateError("input 'github-token' is empty: publish mode needs a token with pull-requests: write, statuses: write and actions: read")
    const octokit = github.getOctokit(inputs.githubToken)
    const gating: GatingRun = { token: inputs.githubToken, runId: run.id, owner, repo }
    const tmp = process.env.RUNNER_TEMP || tmpdir()
    const api: PublishApi = {
      openPullsWithHead: (headOwner, branch) => openPullsWithHead(octokit, owner, repo, headOwner, branch),
      comments: pull => issueCommentApi(inputs.githubToken, owner, repo, pull, octokit),
      setStatus: (sha, status) => setCommitStatus(octokit, owner, repo, sha, status),
      reportArtifacts: () => reportArtifacts(gating),
      download: artifact => downloadReport(gating, artifact, tmp)
    }
    return await publishRun(run, api, log, { comment: inputs.comment })
  } catch (err) {
    const status = (err as { status?: number } | null)?.status
    const hint = status === 403 || status === 404 ? ' (the publish workflow needs permissions: actions: read, pull-requests: write, statuses: write)' : ''
    log.error(`wiregate publish: ${errorMessage(err)}${hint}`, { title: 'wiregate could not publish' })
    return EXIT_ERROR
  }
}
