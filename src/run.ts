import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { locateBuf } from './buf.js'
import { errorMessage, EXIT_ERROR, WiregateError } from './errors.js'
import { binDir, cacheKeys, cacheLayout, hashTree, harnessFiles, restoreCache, saveCache, schemaFiles, type CacheBackend, type CacheKeys, type CacheLayout } from './cache.js'
import { buildHarness, goVersion, runWiregate } from './harness.js'
import type { Log } from './log.js'
import type { Plan } from './plan.js'
import { renderReport, type RenderContext } from './render/report.js'
import { errorReport, parseReport, type Report, type Stage } from './report.js'

export interface RunEnv {
  /** the action's root: harness/ lives here */
  actionDir: string
  /** scratch space: the base worktree and the wiregate binary go here */
  tmpDir: string
  /** where a missing buf is installed */
  toolCache: string
  /** where report.json, report.md, base.txt, head.txt go */
  outDir: string
  /** flags for `wiregate gate` besides the plan's: --inputs-from-env in the
   * action, the user's flags in a local run */
  gateFlags: string[]
  /** restore and save what later runs can reuse (the action; not local runs) */
  cache?: { backend: CacheBackend; root: string }
  log: Log
}

export interface RunResult {
  report: Report
  markdown: string
  exitCode: number
  reportJson: string
  reportMarkdown: string
}

/** runGate is one gate run, shared by the action and `npm run gate`: it
 * runs `wiregate gate`, whose report.json and exit code are the answer, and
 * renders report.md. When wiregate cannot even start, it writes the error
 * report itself, so the summary and the comment still render. */
export async function runGate(plan: Plan, env: RunEnv, render: RenderContext = {}): Promise<RunResult> {
  const outDir = resolve(env.outDir)
  await mkdir(outDir, { recursive: true })
  await mkdir(env.tmpDir, { recursive: true })
  const reportJson = join(outDir, 'report.json')
  let report: Report
  let exitCode: number
  let cached: Cached | undefined
  try {
    const buf = await locateBuf([process.cwd(), env.actionDir], env.toolCache, env.log)
    const before: Stage[] = []
    if (env.cache) {
      cached = await restore(env.cache.backend, env.cache.root, env.actionDir, env.log)
      before.push(cached.stage)
    }
    const start = Date.now()
    // Without the cache, the binary still outlives the run in the tool
    // cache: the next run on this machine reuses it.
    const dir = cached?.layout.binDir ?? binDir(env.toolCache, await goVersion(), await hashTree(join(env.actionDir, 'harness'), harnessFiles))
    const { bin, reused } = await buildHarness(env.actionDir, dir, cached?.layout.env)
    before.push({ name: 'build wiregate', seconds: (Date.now() - start) / 1000, note: reused ? 'reused' : 'built' })
    const argv = [...gateArgv(plan, env, buf, outDir), `--stages-before=${JSON.stringify(before)}`, ...env.gateFlags]
    exitCode = await runWiregate(bin, argv, process.cwd(), cached?.layout.env)
    if (!existsSync(reportJson)) {
      throw new WiregateError(`wiregate gate wrote no report.json (exit code ${exitCode})`)
    }
    report = parseReport(await readFile(reportJson, 'utf8'))
  } catch (err) {
    if (!(err instanceof WiregateError)) env.log.info(err instanceof Error && err.stack ? err.stack : String(err))
    const message = errorMessage(err)
    env.log.error(message, { title: 'wiregate could not run' })
    const stopped = errorReport({ ref: plan.baseLabel, sha: plan.baseRef }, { ref: plan.headLabel ?? '', sha: plan.headSha ?? '' }, message)
    return finish(stopped, EXIT_ERROR, outDir, render, true)
  } finally {
    if (env.cache && cached) env.log.info(`wiregate cache: ${await saveCache(env.cache.backend, cached.layout, cached.keys, cached.matched, env.log)}`)
  }
  if (exitCode !== report.exit_code) env.log.warning(`wiregate gate exited ${exitCode} but its report.json says ${report.exit_code}: the report decides`)
  return finish(report, report.exit_code, outDir, render, false)
}

interface Cached {
  layout: CacheLayout
  keys: CacheKeys
  matched?: string
  stage: Stage
}

/** restore restores the cache for this harness, Go and schema set. */
async function restore(backend: CacheBackend, root: string, actionDir: string, log: Log): Promise<Cached> {
  const harnessHash = await hashTree(join(actionDir, 'harness'), harnessFiles)
  const go = await goVersion()
  const keys = cacheKeys(`${process.platform}-${process.arch}`, go, harnessHash, await hashTree(process.cwd(), schemaFiles))
  const layout = cacheLayout(root, go, harnessHash)
  const { stage, matched } = await restoreCache(backend, layout, keys, log)
  return { layout, keys, matched, stage }
}

/** finish renders report.md (and writes report.json when wiregate did not). */
async function finish(report: Report, exitCode: number, outDir: string, render: RenderContext, writeJson: boolean): Promise<RunResult> {
  const reportJson = join(outDir, 'report.json')
  if (writeJson) await writeFile(reportJson, JSON.stringify(report, null, 2) + '\n')
  const markdown = renderReport(report, render)
  const reportMarkdown = join(outDir, 'report.md')
  await writeFile(reportMarkdown, markdown)
  return { report, markdown, exitCode, reportJson, reportMarkdown }
}

/** gateArgv is the plan as `wiregate gate` flags. */
export function gateArgv(plan: Plan, env: Pick<RunEnv, 'actionDir' | 'tmpDir'>, buf: string, outDir: string): string[] {
  const argv = [
    'gate',
    `--base-ref=${plan.baseRef}`,
    `--base-label=${plan.baseLabel}`,
    `--labels=${JSON.stringify(plan.labels)}`,
    `--harness-dir=${join(env.actionDir, 'harness')}`,
    `--buf=${buf}`,
    `--tmp-dir=${env.tmpDir}`,
    `--out=${outDir}`
  ]
  if (plan.headSha) argv.push(`--head-sha=${plan.headSha}`)
  if (plan.headLabel) argv.push(`--head-label=${plan.headLabel}`)
  if (plan.recordHistory) argv.push('--record-history')
  return argv
}

/** stoppedBeforeRun is the result of a run that could not even be planned
 * (a bad action input): the summary still renders the one-line error. */
export async function stoppedBeforeRun(message: string, outDir: string, render: RenderContext = {}): Promise<RunResult> {
  await mkdir(outDir, { recursive: true })
  return finish(errorReport({ ref: '', sha: '' }, { ref: '', sha: '' }, message), EXIT_ERROR, outDir, render, true)
}
