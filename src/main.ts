import * as core from '@actions/core'
import { readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { actionDir } from './actionDir.js'
import { cannotComment, commentBody, stickyMarker, upsertSticky } from './comment.js'
import { errorMessage } from './errors.js'
import { failureMessage, gateOutputs } from './gate.js'
import { issueCommentApi } from './github.js'
import { readInputs, type InputName, type Inputs } from './inputs.js'
import type { Log } from './log.js'
import { planRun, type EventPayload, type Plan } from './plan.js'
import { runGate, stoppedBeforeRun, type RunResult } from './run.js'

const coreLog: Log = {
  info: m => core.info(m),
  warning: (m, a) => core.warning(m, a),
  error: (m, a) => core.error(m, a)
}

function readEvent(): EventPayload {
  const path = process.env.GITHUB_EVENT_PATH
  if (!path) return {}
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as EventPayload
  } catch {
    return {}
  }
}

function runUrl(): string | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: id } = process.env
  return server && repo && id ? `${server}/${repo}/actions/runs/${id}` : undefined
}

async function postComment(inputs: Inputs, plan: Plan, result: RunResult): Promise<void> {
  if (!inputs.comment || plan.pullNumber === undefined) return
  const [owner, repo] = (process.env.GITHUB_REPOSITORY ?? '').split('/')
  if (!owner || !repo || !inputs.githubToken) {
    core.warning('no GITHUB_REPOSITORY or github-token: the PR comment is skipped (the job summary has the report)')
    return
  }
  const marker = stickyMarker(process.env.GITHUB_WORKFLOW ?? 'wiregate', process.env.GITHUB_JOB ?? 'gate')
  try {
    const api = issueCommentApi(inputs.githubToken, owner, repo, plan.pullNumber)
    const outcome = await upsertSticky(api, marker, commentBody(marker, result.markdown, runUrl()))
    core.info(`PR comment ${outcome.action} (id ${outcome.id})`)
  } catch (err) {
    if (!cannotComment(err)) throw err
    core.warning(
      `wiregate cannot comment on PR #${plan.pullNumber} (${errorMessage(err)}): a fork PR's token is read-only, or the workflow lacks 'permissions: pull-requests: write'. The job summary has the report.`
    )
  }
}

/** publish sets the outputs, writes the job summary, posts the comment and
 * sets the exit code: the same for a finished run and one stopped early. */
async function publish(result: RunResult, inputs?: Inputs, plan?: Plan): Promise<void> {
  const outputs = gateOutputs(result.report)
  core.setOutput('result', outputs.result)
  core.setOutput('report-json', result.reportJson)
  core.setOutput('report-markdown', result.reportMarkdown)
  core.setOutput('violations', String(outputs.violations))
  core.setOutput('breaking', String(outputs.breaking))
  try {
    await core.summary.addRaw(result.markdown).write()
  } catch (err) {
    core.warning(`could not write the job summary: ${errorMessage(err)}`)
  }
  if (inputs && plan) {
    try {
      await postComment(inputs, plan, result)
    } catch (err) {
      core.warning(`could not post the PR comment: ${errorMessage(err)}`)
    }
  }
  if (result.exitCode !== 0) core.setFailed(failureMessage(result.report))
  process.exitCode = result.exitCode
}

export async function main(): Promise<void> {
  const tmp = process.env.RUNNER_TEMP || tmpdir()
  const outDir = join(tmp, 'wiregate')
  let inputs: Inputs
  let plan: Plan
  try {
    inputs = readInputs((name: InputName) => core.getInput(name))
    plan = planRun(inputs, {
      eventName: process.env.GITHUB_EVENT_NAME ?? '',
      payload: readEvent(),
      sha: process.env.GITHUB_SHA ?? '',
      refName: process.env.GITHUB_REF_NAME ?? ''
    })
  } catch (err) {
    await publish(await stoppedBeforeRun(errorMessage(err), outDir, { runUrl: runUrl() }))
    return
  }
  const result = await runGate(
    inputs,
    plan,
    {
      actionDir: actionDir(import.meta.url),
      tmpDir: join(tmp, 'wiregate-work'),
      toolCache: process.env.RUNNER_TOOL_CACHE || join(tmp, 'wiregate-tools'),
      outDir,
      log: coreLog
    },
    { runUrl: runUrl() }
  )
  await publish(result, inputs, plan)
}
