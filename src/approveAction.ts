// Approve mode: on a pull request comment (issue_comment), decide the PR
// head's latest gate report again with the PR's approvals and update its
// sticky comment and commit status, in seconds and without running PR
// code: the report comes from the gating run's artifact (checked as
// publish mode checks it), the verdict from `wiregate approve`.
import * as github from '@actions/github'
import { join } from 'node:path'
import { mkdir, writeFile } from 'node:fs/promises'
import type { ActionInputs } from './actionInputs.js'
import { gatherApprovals, type Approvals } from './approvals.js'
import { downloadReport, reportArtifacts, REPORT_FILE, type GatingRun } from './artifact.js'
import { commentBody, stickyMarker, upsertSticky } from './comment.js'
import { errorMessage, EXIT_ERROR, EXIT_PASS, WiregateError } from './errors.js'
import { approvalsApi, headRuns, issueCommentApi, pullHead, setCommitStatus } from './github.js'
import type { Log } from './log.js'
import { statusOf } from './outputs.js'
import { reportParts } from './render/report.js'
import { parseReport } from './report.js'
import { runApprove, type RunEnv } from './run.js'

/** The fields of an issue_comment event approve mode reads. */
interface CommentEvent {
  action?: string
  issue?: { number?: number; pull_request?: unknown }
  comment?: { body?: string }
}

/** runApproveMode is the action in mode: approve. Its result is the exit
 * code: 0 when the comment was no /wiregate command or the reports were
 * decided again, 2 when that could not be done. */
export async function runApproveMode(inputs: ActionInputs, eventName: string, payload: unknown, env: RunEnv, log: Log): Promise<number> {
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
    const head = await pullHead(octokit, owner, repo, pull)
    // The comments and their authors are asked once per approvers list
    // (every report of one base has the same), not once per report.
    const gathered = new Map<string, Promise<Approvals | undefined>>()
    const approvalsFor = (approvers: string[]): Promise<Approvals | undefined> => {
      const key = JSON.stringify(approvers)
      if (!gathered.has(key)) gathered.set(key, gatherApprovals(approvalsApi(octokit, owner, repo, pull), head.author, approvers))
      return gathered.get(key)!
    }
    for (const run of await headRuns(octokit, owner, repo, head.headSha)) {
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
        // No /wiregate comment left (a deleted one): decided without approvals.
        const approvals: Approvals = (await approvalsFor(report.rules?.config.approvers ?? [])) ?? {
          comments: [],
          authors: [],
          pr_author: head.author
        }
        const plan = { baseRef: report.base.sha, baseLabel: report.base.ref, headSha: report.head.sha, headLabel: report.head.ref, labels: [] }
        const result = await runApprove(plan, reportJson, approvals, { ...env, outDir: join(dir, 'decided') }, { runUrl: run.htmlUrl })
        const marker = stickyMarker(run.name, artifact.job)
        const outcome = await upsertSticky(issueCommentApi(inputs.githubToken, owner, repo, pull, octokit), marker, commentBody(marker, reportParts(result.report, { runUrl: run.htmlUrl }), run.htmlUrl))
        await setCommitStatus(octokit, owner, repo, head.headSha, { ...statusOf(result.report), context: `wiregate: ${run.name}/${artifact.job}`.slice(0, 100), targetUrl: run.htmlUrl })
        log.info(`PR #${pull}: ${artifact.name} of run ${run.id} decided again: ${result.report.result}; comment ${outcome.action} (id ${outcome.id})`)
      }
      return EXIT_PASS
    }
    log.warning(`no gate run of head ${head.headSha} uploaded a report (wiregate-report-<job>): nothing to decide again`)
    return EXIT_PASS
  } catch (err) {
    log.error(`wiregate approve: ${errorMessage(err)}`, { title: 'wiregate could not decide the approvals' })
    return EXIT_ERROR
  }
}
