import * as core from '@actions/core'
import { readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { actionDir } from './actionDir.js'
import { readActionInputs, type ActionInputs } from './actionInputs.js'
import { actionsCache } from './actionsCache.js'
import { cannotComment, commentBody, stickyMarker, upsertSticky } from './comment.js'
import { errorMessage } from './errors.js'
import { issueCommentApi } from './github.js'
import type { Log } from './log.js'
import { annotations, failureMessage, gateOutputs } from './outputs.js'
import { planRun, type EventPayload, type Plan } from './plan.js'
import { renderSummary, reportParts } from './render/report.js'
import { downloadParts, runPublishMode, sharePart, shareReport } from './publishAction.js'
import { runGate, runMerge, runPlan, stoppedBeforeRun, type RunEnv, type RunResult } from './run.js'

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

async function postComment(inputs: ActionInputs, plan: Plan, result: RunResult): Promise<void> {
  if (!inputs.comment || plan.pullNumber === undefined) return
  const [owner, repo] = (process.env.GITHUB_REPOSITORY ?? '').split('/')
  if (!owner || !repo || !inputs.githubToken) {
    core.warning('no GITHUB_REPOSITORY or github-token: the PR comment is skipped (the job summary has the report)')
    return
  }
  const marker = stickyMarker(process.env.GITHUB_WORKFLOW ?? 'wiregate', process.env.GITHUB_JOB ?? 'gate')
  try {
    const api = issueCommentApi(inputs.githubToken, owner, repo, plan.pullNumber)
    const outcome = await upsertSticky(api, marker, commentBody(marker, reportParts(result.report, { runUrl: runUrl() }), runUrl()))
    core.info(`PR comment ${outcome.action} (id ${outcome.id})`)
  } catch (err) {
    if (!cannotComment(err)) throw err
    core.warning(
      `wiregate cannot comment on PR #${plan.pullNumber} (${errorMessage(err)}): a fork PR's token is read-only, or the workflow lacks 'permissions: pull-requests: write'. The job summary has the report; a publish workflow (mode: publish, docs/action.md) posts it from the uploaded artifact.`
    )
  }
}

/** publish annotates, sets the outputs, writes the job summary, posts the
 * comment and sets the exit code: the same for a finished run and one
 * stopped early. A shard's part is not the pull request's verdict: it is
 * uploaded for the merge job instead of commented on or annotated. Every
 * decision in it was made by wiregate. */
async function publish(result: RunResult, inputs?: ActionInputs, plan?: Plan): Promise<void> {
  const part = result.report.shard
  if (!part) {
    for (const a of annotations(result.report)) {
      if (a.severity === 'warning') core.warning(a.message, a.annotation)
      else core.error(a.message, a.annotation)
    }
  }
  for (const w of result.report.warnings ?? []) core.warning(w, { title: 'wiregate' })
  const outputs = gateOutputs(result.report)
  core.setOutput('result', outputs.result)
  core.setOutput('report-json', result.reportJson)
  core.setOutput('report-markdown', result.reportMarkdown)
  core.setOutput('violations', String(outputs.violations))
  core.setOutput('breaking', String(outputs.breaking))
  try {
    await core.summary.addRaw(renderSummary(result.report, { runUrl: runUrl() })).write()
  } catch (err) {
    core.warning(`could not write the job summary: ${errorMessage(err)}`)
  }
  if (part) {
    await sharePart(result.reportJson, part, coreLog)
  } else if (inputs && plan) {
    try {
      await postComment(inputs, plan, result)
    } catch (err) {
      core.warning(`could not post the PR comment: ${errorMessage(err)}`)
    }
    if (plan.pullNumber !== undefined) await shareReport(result.reportJson, coreLog)
  }
  if (result.exitCode !== 0) core.setFailed(failureMessage(result.report))
  process.exitCode = result.exitCode
}

export async function main(): Promise<void> {
  const tmp = process.env.RUNNER_TEMP || tmpdir()
  const outDir = join(tmp, 'wiregate')
  let inputs: ActionInputs
  let plan: Plan
  try {
    inputs = readActionInputs(name => core.getInput(name))
    if (inputs.mode === 'publish') {
      process.exitCode = await runPublishMode(inputs, process.env.GITHUB_EVENT_NAME ?? '', readEvent(), coreLog)
      return
    }
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
  const toolCache = process.env.RUNNER_TOOL_CACHE || join(tmp, 'wiregate-tools')
  const env: RunEnv = {
    actionDir: actionDir(import.meta.url),
    tmpDir: join(tmp, 'wiregate-work'),
    toolCache,
    outDir,
    // wiregate reads its inputs from INPUT_* as the runner set them.
    gateFlags: ['--inputs-from-env'],
    // The tool cache's path is the same on every run of a runner image,
    // so the cache entry's paths (and version) match between runs.
    cache: inputs.cache ? { backend: actionsCache, root: join(toolCache, 'wiregate-cache') } : undefined,
    log: coreLog
  }
  if (inputs.mode === 'plan') {
    const shardPlan = await runPlan(plan, env)
    core.setOutput('matrix', JSON.stringify(shardPlan.matrix))
    core.setOutput('shards', String(shardPlan.shards))
    core.info(`wiregate plan: ${shardPlan.note}`)
    await core.summary.addRaw(`wiregate plan: ${shardPlan.shards} shard${shardPlan.shards === 1 ? '' : 's'}\n`).write().catch(() => undefined)
    return
  }
  if (inputs.mode === 'merge') {
    await publish(await runMerge(plan, await downloadParts(inputs, join(tmp, 'wiregate-parts'), coreLog), env, { runUrl: runUrl() }), inputs, plan)
    return
  }
  await publish(await runGate(plan, env, { runUrl: runUrl() }), inputs, plan)
}
