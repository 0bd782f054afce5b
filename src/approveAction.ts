// Approve mode: on a pull request comment (issue_comment), decide the PR
// head's latest gate report again with the PR's approvals and update its
// sticky comment and commit status, in seconds and without running PR
// code: the report comes from the gating run's artifact (checked as
// publish mode checks it), the verdict from `wiregate approve` by the
// base's rules (judge.ts).
import * as github from '@actions/github'
import { join } from 'node:path'
import { mkdir, writeFile } from 'node:fs/promises'
import type { ActionInputs } from './actionInputs.js'
import { downloadReport, reportArtifacts, REPORT_FILE, type GatingRun } from './artifact.js'
import { commentBody, stickyMarker, upsertSticky } from './comment.js'
import { errorMessage, EXIT_ERROR, EXIT_PASS, WiregateError } from './errors.js'
import { approvalsApi, changedFiles, fileAt, headRuns, issueCommentApi, pullComments, pullFacts, setCommitStatus } from './github.js'
import { judge, judgedParts, judgedStatus, type JudgeApi } from './judge.js'
import type { Log } from './log.js'
import { parseReport } from './report.js'
import type { RunEnv } from './run.js'

/** The fields of an issue_comment event approve mode reads. */
interface CommentEvent {
  action?: string
  issue?: { number?: number; pull_request?: unknown }
  comment?: { body?: string }
}

/** runApproveMode is the action in mode: approve. Its result is the exit
 * code: 0 when the comment was no /wiregate command or the reports were
 * decided again, 2 when that could not be done. */
export async function runApproveMode(inputs: ActionInputs, eventName: string, payload: unknown, config: string, env: RunEnv, log: Log): Promise<number> {
  try {
    if (eventName !== 'issue_comment') {
      throw new WiregateError(`mode: approve runs on issue_comment events, this run is a ${eventName || 'unknown'} event: trigger the approve workflow with 'on: issue_comment' (docs/action.md)`)
    }
    const event = payload as CommentEvent
    const pull = event.issue?.number
    if (!event.issue?.pull_request || typeof pull !== 'number') {
      log.info('the comment is on an issue, not a pull request: nothing to decide')
      return EXIT_PASS
    }
    if (!(event.comment?.body ?? '').includes('/wiregate')) {
      log.info('the comment is no /wiregate command: nothing to decide')
      return EXIT_PASS
    }
    const [owner, repo] = (process.env.GITHUB_REPOSITORY ?? '').split('/')
    if (!owner || !repo) throw new WiregateError('GITHUB_REPOSITORY is not set: run approve mode in a GitHub Actions job')
    const octokit = github.getOctokit(inputs.githubToken)
    const pr = await pullFacts(octokit, owner, repo, pull)
    // The comments are asked for once, not once per report.
    const listed = memo(() => pullComments(octokit, owner, repo, pull))
    const api: JudgeApi = {
      approvals: { ...approvalsApi(octokit, owner, repo, pull), comments: listed },
      changedFiles: memo(() => changedFiles(octokit, owner, repo, pull)),
      fileAt: (path, ref) => fileAt(octokit, owner, repo, path, ref)
    }
    for (const run of await headRuns(octokit, owner, repo, pr.headSha)) {
      const gating: GatingRun = { token: inputs.githubToken, runId: run.id, owner, repo }
      const artifacts = await reportArtifacts(gating)
      if (artifacts.length === 0) continue
      for (const artifact of artifacts) {
        const dir = join(env.tmpDir, 'approve', artifact.name)
        await mkdir(dir, { recursive: true })
        const reportJson = join(dir, REPORT_FILE)
        const text = await downloadReport(gating, artifact, dir)
        const report = parseReport(text, `report.json of artifact ${artifact.name}`)
        await writeFile(reportJson, text)
        const judged = await judge(reportJson, report, pr, { workflowPath: run.path, htmlUrl: run.htmlUrl }, config, api, { ...env, outDir: join(dir, 'decided') })
        const marker = stickyMarker(run.name, artifact.job)
        const outcome = await upsertSticky(issueCommentApi(inputs.githubToken, owner, repo, pull, octokit), marker, commentBody(marker, judgedParts(judged, run.htmlUrl), run.htmlUrl))
        const status = judgedStatus(judged, `wiregate: ${run.name}/${artifact.job}`.slice(0, 100), run.htmlUrl)
        await setCommitStatus(octokit, owner, repo, pr.headSha, status)
        log.info(`PR #${pull}: ${artifact.name} of run ${run.id} decided again: ${judged.report.result}, status ${status.state}; comment ${outcome.action} (id ${outcome.id})`)
      }
      return EXIT_PASS
    }
    log.warning(`no gate run of head ${pr.headSha} uploaded a report (wiregate-report-<job>): nothing to decide again`)
    return EXIT_PASS
  } catch (err) {
    log.error(`wiregate approve: ${errorMessage(err)}`, { title: 'wiregate could not decide the approvals' })
    return EXIT_ERROR
  }
}

/** memo calls f once, on first use. */
function memo<T>(f: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined
  return () => (p ??= f())
}
