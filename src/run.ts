import { existsSync } from 'node:fs'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { errorMessage, WiregateError } from './errors.js'
import { binDir, cacheKeys, cacheLayout, hashTree, harnessFiles, restoreCache, saveCache, schemaFiles, type CacheBackend, type CacheKeys, type CacheLayout } from './cache.js'
import { buildHarness, goVersion, runWiregate } from './harness.js'
import type { Log } from './log.js'
import type { Comparison } from './comparison.js'
import { NO_RENDERER, wiregateRenderer, type Renderer } from './render.js'
import { errorReport, parseReport, type Report, type Stage } from './report.js'
import { parseShardSplit, type PlanOutputs } from './shardPlan.js'
import type { Approvals } from './approvals.js'

export interface RunEnv {
  /** the action's root: harness/ lives here */
  actionDir: string
  /** scratch space: the base worktree and the wiregate binary go here */
  tmpDir: string
  /** the runner's tool cache: wiregate's binary is kept there */
  toolCache: string
  /** where report.json, report.md, base.txt, head.txt go */
  outDir: string
  /** flags for `wiregate gate` besides the comparison's: --inputs-from-env in the
   * action, the user's flags in a local run */
  gateFlags: string[]
  /** restore and save what later runs can reuse (the action; not local runs) */
  cache?: { backend: CacheBackend; root: string }
  log: Log
}

export interface RunResult {
  report: Report
  /** report.md, as wiregate rendered it */
  markdown: string
  exitCode: number
  reportJson: string
  /** report.json's text, as read (or written) at reportJson */
  reportText: string
  reportMarkdown: string
  /** wiregate's renderer; none when wiregate could not be built */
  render?: Renderer
}

/** What a report is rendered for: the CI run it links to, when not the one
 * wiregate runs in (its default; publish mode names the gating run). */
export interface RenderContext {
  runUrl?: string
}

/** Wiregate is the binary ready to run: the cache restored, the CLI built
 * (or reused); before are the stages that took, save what the cache keeps
 * for the next run. It is the binary `go install` gives a laptop: it
 * carries the harness its bench programs link, and finds or installs buf
 * itself, never from the checkout. */
interface Wiregate {
  bin: string
  before: Stage[]
  env?: Record<string, string>
  save(): Promise<void>
}

/** readied are the wiregates made ready in this process, by where: a mode
 * that runs wiregate several times (approve) restores, builds and saves
 * the cache once. */
const readied = new Map<string, { w: Promise<Wiregate>; saved?: Promise<void> }>()

/** ready is prepare, once per action directory, tool cache and cache. */
async function ready(env: RunEnv): Promise<Wiregate> {
  const key = JSON.stringify([env.actionDir, env.toolCache, env.cache?.root ?? ''])
  let r = readied.get(key)
  if (!r) {
    const made = { w: prepare(env) }
    made.w.catch(() => readied.delete(key))
    readied.set(key, made)
    r = made
  }
  const got = await r.w
  const once = r
  return { ...got, save: () => (once.saved ??= got.save()) }
}

/** prepare restores the cache and builds (or reuses) wiregate: what every
 * mode that runs it does first. */
async function prepare(env: RunEnv): Promise<Wiregate> {
  await mkdir(env.tmpDir, { recursive: true })
  const before: Stage[] = []
  let cached: Cached | undefined
  if (env.cache) {
    cached = await restore(env.cache.backend, env.cache.root, env.actionDir, env.log)
    before.push(cached.stage)
  }
  const save = async (): Promise<void> => {
    if (env.cache && cached) env.log.info(`wiregate cache: ${await saveCache(env.cache.backend, cached.layout, cached.keys, cached.matched, env.log)}`)
  }
  try {
    const start = Date.now()
    // Without the cache, the binary still outlives the run in the tool
    // cache: the next run on this machine reuses it.
    const dir = cached?.layout.binDir ?? binDir(env.toolCache, await goVersion(env.actionDir), await hashTree(join(env.actionDir, 'harness'), harnessFiles))
    const { bin, reused } = await buildHarness(env.actionDir, dir, cached?.layout.env)
    before.push({ name: 'build wiregate', seconds: (Date.now() - start) / 1000, note: reused ? 'reused' : 'built' })
    // The same binary a laptop runs: it says which, and with what.
    await runWiregate(bin, ['version'], process.cwd(), cached?.layout.env)
    return { bin, before, env: cached?.layout.env, save }
  } catch (err) {
    await save()
    throw err
  }
}

/** runGate is one gate run, shared by the action and `npm run gate`: it
 * runs `wiregate gate`, whose report.json is the answer, and renders
 * report.md. When wiregate cannot even start, it writes the error report
 * itself, so the summary and the comment still render. */
export async function runGate(cmp: Comparison, env: RunEnv): Promise<RunResult> {
  return runReporting(cmp, env, {}, w => [...gateArgv(cmp, env, resolve(env.outDir)), `--stages-before=${JSON.stringify(w.before)}`, ...env.gateFlags])
}

/** runMerge is mode: merge: `wiregate merge` of the parts in dirs (one per
 * shard that uploaded one), rendered as a gate run is. */
export async function runMerge(cmp: Comparison, dirs: string[], env: RunEnv): Promise<RunResult> {
  return runReporting(cmp, env, {}, () => ['merge', `--out=${resolve(env.outDir)}`, ...dirs])
}

/** What the base says, for a report from a pull request's run: its
 * wiregate.yaml ('' when it has none) and the labels GitHub lists now. */
export interface BaseRules {
  baseConfig: string
  labels: string[]
}

/** runApprove is `wiregate approve`: reportJson decided again with the
 * pull request's approvals (and, given base, by the base's rules and this
 * step's threshold inputs instead of the report's), rendered as a gate run is. */
export async function runApprove(cmp: Comparison, reportJson: string, approvals: Approvals, env: RunEnv, render: RenderContext = {}, base?: BaseRules): Promise<RunResult> {
  await mkdir(env.tmpDir, { recursive: true })
  const file = join(env.tmpDir, 'approvals.json')
  await writeFile(file, JSON.stringify(approvals))
  const flags: string[] = []
  if (base) {
    const config = join(env.tmpDir, 'base-wiregate.yaml')
    await writeFile(config, base.baseConfig)
    flags.push(`--base-config=${config}`, '--inputs-from-env', `--labels=${JSON.stringify(base.labels)}`)
  }
  return runReporting(cmp, env, render, () => ['approve', `--report=${resolve(reportJson)}`, `--approvals=${file}`, ...flags, `--out=${resolve(env.outDir)}`, ...runUrlFlag(render)])
}

/** What `wiregate commands` says each comment holds. */
export interface Held {
  comments: Array<{ id: number; author: string; commands: number; refused?: string }>
  /** wiregate.yaml's org/team approvers: membership the facts may lack */
  approver_teams: string[] | null
}

/** runCommands is `wiregate commands`: what the comments of approvals
 * hold for wiregate, and whether their authors may give it, by the
 * default rules or, given baseConfig, the base's wiregate.yaml. */
export async function runCommands(approvals: Approvals, env: RunEnv, baseConfig?: string): Promise<Held> {
  await mkdir(env.tmpDir, { recursive: true })
  const file = join(env.tmpDir, 'comment.json')
  const out = join(env.tmpDir, 'held.json')
  await writeFile(file, JSON.stringify(approvals))
  const flags = [`--approvals=${file}`, `--out=${out}`]
  if (baseConfig !== undefined) {
    const config = join(env.tmpDir, 'base-wiregate.yaml')
    await writeFile(config, baseConfig)
    flags.push(`--base-config=${config}`, '--inputs-from-env')
  }
  const w = await ready(env)
  try {
    const code = await runWiregate(w.bin, ['commands', ...flags], process.cwd(), w.env)
    if (code !== 0) throw new WiregateError(`wiregate commands exited ${code}: see its error above`)
    return JSON.parse(await readFile(out, 'utf8')) as Held
  } finally {
    await w.save()
  }
}

/** runUrlFlag links the report to the run (wiregate's default is the run
 * it is in). */
function runUrlFlag(render: RenderContext): string[] {
  return render.runUrl ? [`--run-url=${render.runUrl}`] : []
}

/** runReporting runs wiregate with argv(w) and reads the report.json and
 * report.md it writes into env.outDir; report.json's exit code is the
 * answer. */
async function runReporting(cmp: Comparison, env: RunEnv, render: RenderContext, argv: (w: Wiregate) => string[]): Promise<RunResult> {
  const outDir = resolve(env.outDir)
  await mkdir(outDir, { recursive: true })
  const reportJson = join(outDir, 'report.json')
  let w: Wiregate | undefined
  try {
    w = await ready(env)
    const exitCode = await runWiregate(w.bin, argv(w), process.cwd(), w.env)
    if (!existsSync(reportJson)) {
      throw new WiregateError(`wiregate wrote no report.json (exit code ${exitCode})`)
    }
    const text = await readFile(reportJson, 'utf8')
    const report = parseReport(text)
    if (exitCode !== report.exit_code) env.log.warning(`wiregate exited ${exitCode} but its report.json says ${report.exit_code}: the report decides`)
    return await finish(report, text, outDir, render, w.bin)
  } catch (err) {
    if (!(err instanceof WiregateError)) env.log.info(err instanceof Error && err.stack ? err.stack : String(err))
    const message = errorMessage(err)
    env.log.error(message, { title: 'wiregate could not run' })
    const stopped = errorReport({ ref: cmp.baseLabel, sha: cmp.baseRef }, { ref: cmp.headLabel ?? '', sha: cmp.headSha ?? '' }, message)
    return finish(stopped, undefined, outDir, render, w?.bin)
  } finally {
    await w?.save()
  }
}

/** runPlan is mode: plan: `wiregate plan` with the gate's flags, its
 * plan.json read back. A plan that could not be made is one shard: that
 * gate job meets the same problem and reports it. */
export async function runPlan(cmp: Comparison, env: RunEnv): Promise<PlanOutputs> {
  const outDir = resolve(env.outDir)
  await mkdir(outDir, { recursive: true })
  const planJson = join(outDir, 'plan.json')
  let w: Wiregate | undefined
  try {
    w = await ready(env)
    const argv = gateArgv(cmp, env, outDir)
    argv[0] = 'plan'
    const code = await runWiregate(w.bin, [...argv, `--plan-out=${planJson}`, ...env.gateFlags], process.cwd(), w.env)
    if (!existsSync(planJson)) throw new WiregateError(`wiregate plan exited ${code} without a plan`)
    const split = parseShardSplit(await readFile(planJson, 'utf8'))
    // Exit 2 with a plan: the gate could not start (a bad input), and the plan is one shard whose job says why.
    if (code !== 0) env.log.warning(`wiregate plan: ${split.note}; planning one shard`)
    return split
  } catch (err) {
    const why = errorMessage(err)
    env.log.warning(`wiregate plan: ${why}; planning one shard`)
    return { shards: 1, matrix: { shard: ['1/1'] }, note: why }
  } finally {
    await w?.save()
  }
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
  const go = await goVersion(actionDir)
  const keys = cacheKeys(`${process.platform}-${process.arch}`, go, harnessHash, await hashTree(process.cwd(), schemaFiles))
  const layout = cacheLayout(root, go, harnessHash)
  const { stage, matched } = await restoreCache(backend, layout, keys, log)
  return { layout, keys, matched, stage }
}

/** finish reads report.md as wiregate wrote it (and writes report.json
 * when wiregate did not, text undefined, and report.md from it with
 * wiregate's renderer, or a line saying the log has why when there is no
 * wiregate binary); the exit code is the report's. */
async function finish(report: Report, text: string | undefined, outDir: string, render: RenderContext, bin?: string): Promise<RunResult> {
  const reportJson = join(outDir, 'report.json')
  const reportMarkdown = join(outDir, 'report.md')
  if (text === undefined) {
    text = JSON.stringify(report, null, 2) + '\n'
    await writeFile(reportJson, text)
    await rm(reportMarkdown, { force: true })
  }
  if (!existsSync(reportMarkdown)) {
    if (bin) await runWiregate(bin, ['render', `--report=${reportJson}`, `-o=${reportMarkdown}`, ...runUrlFlag(render)], process.cwd())
    if (!existsSync(reportMarkdown)) await writeFile(reportMarkdown, NO_RENDERER)
  }
  const markdown = await readFile(reportMarkdown, 'utf8')
  return { report, markdown, exitCode: report.exit_code, reportJson, reportText: text, reportMarkdown, render: bin ? wiregateRenderer(bin) : undefined }
}

/** gateArgv is the comparison as `wiregate gate` flags: the base the
 * event names (wiregate finds its harness and buf as on any machine). */
export function gateArgv(cmp: Comparison, env: Pick<RunEnv, 'tmpDir'>, outDir: string): string[] {
  const argv = [
    'gate',
    `--base-ref=${cmp.baseRef}`,
    `--base-label=${cmp.baseLabel}`,
    `--labels=${JSON.stringify(cmp.labels)}`,
    `--tmp-dir=${env.tmpDir}`,
    `--out=${outDir}`
  ]
  if (cmp.headSha) argv.push(`--head-sha=${cmp.headSha}`)
  if (cmp.headLabel) argv.push(`--head-label=${cmp.headLabel}`)
  if (cmp.recordHistory) argv.push('--record-history')
  return argv
}

/** stoppedBeforeRun is the result of a run that could not even be planned
 * (a bad action input): the summary still renders the one-line error,
 * with wiregate's renderer when env can make it ready. */
export async function stoppedBeforeRun(message: string, outDir: string, env?: RunEnv): Promise<RunResult> {
  await mkdir(outDir, { recursive: true })
  let bin: string | undefined
  try {
    bin = env ? (await ready(env)).bin : undefined
  } catch (err) {
    env?.log.warning(`wiregate is not ready to render the report (${errorMessage(err)}): the job summary says the log has why`)
  }
  return finish(errorReport({ ref: '', sha: '' }, { ref: '', sha: '' }, message), undefined, outDir, {}, bin)
}

/** binary is the wiregate binary made ready for env (the cache restored,
 * built or reused): what renders a report. */
export async function binary(env: RunEnv): Promise<string> {
  return (await ready(env)).bin
}
