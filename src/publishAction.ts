// The action's side of the report artifact: gate mode uploads it, publish
// mode (src/publish.ts) is wired here to Octokit and the artifact client.
import * as github from '@actions/github'
import { mkdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ActionInputs } from './actionInputs.js'
import { GHESNotSupportedError } from '@actions/artifact'
import { canUpload, downloadReport, partArtifacts, reportArtifacts, REPORT_FILE, uploadPart, uploadReport, type GatingRun } from './artifact.js'
import { errorMessage, EXIT_ERROR, WiregateError } from './errors.js'
import { budgeted } from './budget.js'
import { approvalsApi, changedFiles, fileAt, issueCommentApi, openPullsWithHead, pullFacts, setCommitStatus, statusContexts, treeAt } from './github.js'
import { judge, type JudgeApi } from './judge.js'
import { binary, type RunEnv } from './run.js'
import { wiregateRenderer } from './render.js'
import type { Log } from './log.js'
import { publishRun, workflowRunOf, type PublishApi, type ReportApi } from './publish.js'

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

/** sharePart uploads a shard's report.json for the merge job of the same
 * run. Without it the merge names this shard's messages as not measured,
 * so a failed upload is an error. */
export async function sharePart(reportJson: string, shard: { artifact: string }, log: Log): Promise<void> {
  if (!canUpload(process.env)) {
    log.warning('no artifact service (ACTIONS_RUNTIME_TOKEN, ACTIONS_RESULTS_URL): this shard\'s part is not uploaded, and the merge will miss it')
    return
  }
  try {
    const { name } = await uploadPart(reportJson, shard.artifact)
    log.info(`this shard's part uploaded as artifact ${name} (mode: merge reads it)`)
  } catch (err) {
    log.error(`could not upload this shard's part (the merge will name its messages not measured): ${errorMessage(err)}`)
    process.exitCode = EXIT_ERROR
  }
}

/** downloadParts fetches this run's shard parts into one directory each
 * under dir (the REST API of the run, with github-token: actions: read)
 * and returns the directories; none when the run has no part, which the
 * merge reports. */
export async function downloadParts(inputs: ActionInputs, dir: string, log: Log): Promise<string[]> {
  const [owner, repo] = (process.env.GITHUB_REPOSITORY ?? '').split('/')
  const runId = Number(process.env.GITHUB_RUN_ID)
  if (!owner || !repo || !Number.isInteger(runId)) throw new WiregateError('GITHUB_REPOSITORY and GITHUB_RUN_ID are not set: run mode: merge in a GitHub Actions job')
  const run: GatingRun = { token: inputs.githubToken, runId, owner, repo }
  const parts = await partArtifacts(run)
  log.info(`mode: merge: ${parts.length} part${parts.length === 1 ? '' : 's'} in run ${runId}: ${parts.map(p => p.name).join(', ') || 'none'}`)
  const dirs: string[] = []
  for (const part of parts) {
    const d = join(dir, part.name)
    await mkdir(d, { recursive: true })
    await writeFile(join(d, REPORT_FILE), await downloadReport(run, part, dir))
    dirs.push(d)
  }
  return dirs
}

/** The repository a publish or approve step posts to; its octokit reads
 * within the call budget (budget.ts). */
export interface Repository {
  octokit: ReturnType<typeof github.getOctokit>
  token: string
  owner: string
  repo: string
}

/** reportApi is what posting the reports of one gating run does on
 * GitHub: publish mode's for the run of its event, approve mode's for
 * each run of the head. */
export function reportApi(r: Repository, run: { id: number; path?: string; htmlUrl?: string; headSha: string }, config: string, env: RunEnv): ReportApi {
  const { octokit, owner, repo } = r
  const gating: GatingRun = { token: r.token, runId: run.id, owner, repo }
  return {
    comments: pull => issueCommentApi(r.token, owner, repo, pull, octokit),
    setStatus: (sha, status) => setCommitStatus(octokit, owner, repo, sha, status),
    statusContexts: sha => statusContexts(octokit, owner, repo, sha),
    reportArtifacts: () => reportArtifacts(gating),
    download: artifact => downloadReport(gating, artifact, process.env.RUNNER_TEMP || tmpdir()),
    judge: async (pull, text, report) => {
      const dir = join(env.tmpDir, 'judge', String(run.id), String(pull))
      await mkdir(dir, { recursive: true })
      const reportJson = join(dir, REPORT_FILE)
      await writeFile(reportJson, text)
      const judgeApi: JudgeApi = {
        pull: () => pullFacts(octokit, owner, repo, pull),
        approvals: approvalsApi(octokit, owner, repo, pull),
        changedFiles: () => changedFiles(octokit, owner, repo, pull),
        fileAt: (path, ref) => fileAt(octokit, owner, repo, path, ref),
        tree: ref => treeAt(octokit, owner, repo, ref)
      }
      return judge(reportJson, report, { headSha: run.headSha, workflowPath: run.path, htmlUrl: run.htmlUrl }, config, judgeApi, { ...env, outDir: join(dir, 'decided') })
    },
    comment: async c => wiregateRenderer(await binary(env)).comment(c)
  }
}

/** runPublishMode is the action in mode: publish. Its result is the exit
 * code; every failure is one line. */
export async function runPublishMode(inputs: ActionInputs, eventName: string, payload: unknown, config: string, env: RunEnv, log: Log): Promise<number> {
  try {
    const run = workflowRunOf(eventName, payload)
    const [owner, repo] = (process.env.GITHUB_REPOSITORY ?? '').split('/')
    if (!owner || !repo) throw new WiregateError('GITHUB_REPOSITORY is not set: run publish mode in a GitHub Actions job')
    if (!inputs.githubToken) throw new WiregateError("input 'github-token' is empty: publish mode needs a token with pull-requests: write, statuses: write, actions: read and contents: read")
    const octokit = budgeted(github.getOctokit(inputs.githubToken))
    const r: Repository = { octokit, token: inputs.githubToken, owner, repo }
    const api: PublishApi = {
      ...reportApi(r, run, config, env),
      openPullsWithHead: (headOwner, branch) => openPullsWithHead(octokit, owner, repo, headOwner, branch)
    }
    return await publishRun(run, api, log, { comment: inputs.comment })
  } catch (err) {
    const status = (err as { status?: number } | null)?.status
    const hint = status === 403 || status === 404 ? ' (the publish workflow needs permissions: actions: read, contents: read, pull-requests: write, statuses: write)' : ''
    log.error(`wiregate publish: ${errorMessage(err)}${hint}`, { title: 'wiregate could not publish' })
    return EXIT_ERROR
  }
}
