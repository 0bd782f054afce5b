import * as core from '@actions/core'
import { readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { actionDir } from './actionDir.js'
import { readActionInputs, type ActionInputs } from './actionInputs.js'
import { actionsCache } from './actionsCache.js'
import { cannotComment, upsertSticky } from './comment.js'
import { errorMessage } from './errors.js'
import { approvalsApi, issueCommentApi } from './github.js'
import type { Log } from './log.js'
import { gateOutputs } from './outputs.js'
import { comparisonOf, type EventPayload, type Comparison } from './comparison.js'
import { markerOf, NO_RENDERER } from './render.js'
import { downloadParts, runPublishMode, sharePart, shareReport } from './publishAction.js'
import { runApprove, runGate, runMerge, runPlan, stoppedBeforeRun, type RunEnv, type RunResult } from './run.js'
import { runApproveMode } from './approveAction.js'
import { configPath } from './trust.js'
import { askAbout, gatherFacts, type Approvals } from './approvals.js'
import * as github from '@actions/github'
import { mkdir, writeFile } from 'node:fs/promises'

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

async function postComment(inputs: ActionInputs, cmp: Comparison, result: RunResult, report: string): Promise<void> {
  if (!inputs.comment || cmp.pullNumber === undefined) return
  const [owner, repo] = (process.env.GITHUB_REPOSITORY ?? '').split('/')
  if (!owner || !repo || !inputs.githubToken) {
    core.warning('no GITHUB_REPOSITORY or github-token: the PR comment is skipped (the job summary has the report)')
    return
  }
  if (!result.render) {
    core.warning('wiregate could not be built, so it cannot render the PR comment: the step\'s log and the job summary say why')
    return
  }
  const body = await result.render.comment({ workflow: process.env.GITHUB_WORKFLOW ?? 'wiregate', job: process.env.GITHUB_JOB ?? 'gate', report })
  try {
    const api = issueCommentApi(inputs.githubToken, owner, repo, cmp.pullNumber)
    const outcome = await upsertSticky(api, markerOf(body), body)
    core.info(`PR comment ${outcome.action} (id ${outcome.id})`)
  } catch (err) {
    if (!cannotComment(err)) throw err
    core.warning(
      `wiregate cannot comment on PR #${cmp.pullNumber} (${errorMessage(err)}): a fork PR's token is read-only, or the workflow lacks 'permissions: pull-requests: write'. The job summary has the report; a publish workflow (mode: publish, docs/action.md) posts it from the uploaded artifact.`
    )
  }
}

// No --run-url here: every report this step writes and renders links
// wiregate's default run (ci.Of, from GITHUB_SERVER_URL, GITHUB_REPOSITORY
// and GITHUB_RUN_ID), which is this one. Publish mode names the gating run.

/** publish annotates, sets the outputs, writes the job summary, posts the
 * comment and sets the exit code: the same for a finished run and one
 * stopped early. A shard's part is not the pull request's verdict: it is
 * uploaded for the merge job instead of commented on (wiregate leaves its
 * annotations out). Every decision in it, and every word of its
 * markdown and annotations, was made by wiregate. */
async function publish(result: RunResult, inputs?: ActionInputs, cmp?: Comparison): Promise<void> {
  const part = result.report.shard
  const report = result.reportText
  // Workflow commands on stdout: the runner reads them as annotations.
  if (result.render) process.stdout.write(await result.render.github(report))
  else core.error(result.report.exit_reason, { title: 'wiregate' })
  const outputs = gateOutputs(result.report)
  core.setOutput('result', outputs.result)
  core.setOutput('report-json', result.reportJson)
  core.setOutput('report-markdown', result.reportMarkdown)
  core.setOutput('violations', String(outputs.violations))
  core.setOutput('breaking', String(outputs.breaking))
  try {
    await core.summary.addRaw(result.render ? await result.render.summary(report) : NO_RENDERER).write()
  } catch (err) {
    core.warning(`could not write the job summary: ${errorMessage(err)}`)
  }
  if (part) {
    await sharePart(result.reportJson, part, coreLog)
  } else if (inputs && cmp) {
    try {
      await postComment(inputs, cmp, result, report)
    } catch (err) {
      core.warning(`could not post the PR comment: ${errorMessage(err)}`)
    }
    if (cmp.pullNumber !== undefined) await shareReport(result.reportJson, coreLog)
  }
  process.exitCode = result.exitCode
}

export async function main(): Promise<void> {
  const tmp = process.env.RUNNER_TEMP || tmpdir()
  const outDir = join(tmp, 'wiregate')
  let inputs: ActionInputs
  let cmp: Comparison
  try {
    inputs = readActionInputs(name => core.getInput(name))
    if (inputs.mode === 'publish') {
      process.exitCode = await runPublishMode(inputs, process.env.GITHUB_EVENT_NAME ?? '', readEvent(), configPath(core.getInput('working-directory')), runEnv(inputs, tmp, outDir), coreLog)
      return
    }
    if (inputs.mode === 'approve') {
      process.exitCode = await runApproveMode(inputs, process.env.GITHUB_EVENT_NAME ?? '', readEvent(), configPath(core.getInput('working-directory')), runEnv(inputs, tmp, outDir), coreLog)
      return
    }
    cmp = comparisonOf(inputs, {
      eventName: process.env.GITHUB_EVENT_NAME ?? '',
      payload: readEvent(),
      sha: process.env.GITHUB_SHA ?? '',
      refName: process.env.GITHUB_REF_NAME ?? ''
    })
  } catch (err) {
    // No cache: the inputs that say whether to use one may be what failed.
    const env = runEnv({ cache: false }, tmp, outDir)
    await publish(await stoppedBeforeRun(errorMessage(err), outDir, env))
    return
  }
  const env = runEnv(inputs, tmp, outDir)
  const approvals = cmp.pullNumber === undefined ? undefined : await prApprovals(inputs, cmp)
  if (approvals) {
    // The gate applies them; the people whose commands or labels it
    // refused for want of facts are asked about after (withAuthorFacts).
    await mkdir(env.tmpDir, { recursive: true })
    const file = join(env.tmpDir, 'approvals.json')
    await writeFile(file, JSON.stringify(approvals))
    env.gateFlags = [...env.gateFlags, `--approvals=${file}`]
  }
  if (inputs.mode === 'plan') {
    const split = await runPlan(cmp, env)
    core.setOutput('matrix', JSON.stringify(split.matrix))
    core.setOutput('shards', String(split.shards))
    core.info(`wiregate plan: ${split.note}`)
    await core.summary.addRaw(`wiregate plan: ${split.shards} shard${split.shards === 1 ? '' : 's'}\n`).write().catch(() => undefined)
    return
  }
  let result: RunResult
  if (inputs.mode === 'merge') {
    // The parts carry the comments as each shard read them; the merge's own are newer.
    result = await runMerge(cmp, await downloadParts(inputs, join(tmp, 'wiregate-parts'), coreLog), env)
    if (approvals) result = await runApprove(cmp, result.reportJson, approvals, { ...env, cache: undefined })
  } else {
    result = await runGate(cmp, env)
  }
  await publish(approvals ? await withAuthorFacts(result, approvals, inputs, cmp, env) : result, inputs, cmp)
}

/** runEnv is where the action runs wiregate. */
function runEnv(inputs: Pick<ActionInputs, 'cache'>, tmp: string, outDir: string): RunEnv {
  const toolCache = process.env.RUNNER_TOOL_CACHE || join(tmp, 'wiregate-tools')
  return {
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
}

/** prApprovals gathers the pull request's comments and who applied its
 * labels (approvals.ts); a token that cannot read them is a warning, not a
 * stop: the gate then decides without approvals, and no label counts. */
async function prApprovals(inputs: ActionInputs, cmp: Comparison): Promise<Approvals | undefined> {
  try {
    const api = approvalsOf(inputs, cmp)
    return api ? await gatherFacts(api, cmp.prAuthor ?? '', cmp.labels) : undefined
  } catch (err) {
    core.warning(`could not read the pull request's comments and label events (${errorMessage(err)}): the verdict applies no approval and no label; mode: approve applies them on the next comment`)
    return undefined
  }
}

/** approvalsOf asks GitHub about the pull request cmp gates. */
function approvalsOf(inputs: ActionInputs, cmp: Comparison): ReturnType<typeof approvalsApi> | undefined {
  const [owner, repo] = (process.env.GITHUB_REPOSITORY ?? '').split('/')
  if (!owner || !repo || !inputs.githubToken || cmp.pullNumber === undefined) return undefined
  return approvalsApi(github.getOctokit(inputs.githubToken), owner, repo, cmp.pullNumber)
}

/** withAuthorFacts decides the report again when it refused a command or
 * a label for want of facts: GitHub is asked about those people (their
 * permission, wiregate.yaml's approver teams) now that the report says
 * who they are. A token that cannot ask leaves the refusals standing. */
async function withAuthorFacts(result: RunResult, facts: Approvals, inputs: ActionInputs, cmp: Comparison, env: RunEnv): Promise<RunResult> {
  const api = approvalsOf(inputs, cmp)
  if (!api) return result
  let more: Approvals | undefined
  try {
    more = await askAbout(facts, api, result.report)
  } catch (err) {
    core.warning(`could not ask GitHub about the authors of /wiregate commands and labels (${errorMessage(err)}): they count for nothing in this run`)
    return result
  }
  if (!more) return result
  return runApprove(cmp, result.reportJson, more, { ...env, cache: undefined })
}
