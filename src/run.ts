import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { bufBreaking, bufLint, locateBuf } from './buf.js'
import { errorMessage, WiregateError } from './errors.js'
import { allowFlags, exitCode } from './gate.js'
import { buildHarness, runHarnessGate } from './harness.js'
import type { Inputs } from './inputs.js'
import type { Log } from './log.js'
import type { Plan } from './plan.js'
import { renderReport, type RenderContext } from './render/report.js'
import { errorReport, type Finding, type Report, type Stage } from './report.js'
import { checkoutBase, type BaseCheckout } from './worktree.js'

export interface RunEnv {
  /** the action's root: harness/ lives here */
  actionDir: string
  /** scratch space: the base worktree and the harness binary go here */
  tmpDir: string
  /** where a missing buf is installed */
  toolCache: string
  /** where report.json, report.md, findings.json, base.txt, head.txt go */
  outDir: string
  log: Log
}

export interface RunResult {
  report: Report
  markdown: string
  exitCode: number
  reportJson: string
  reportMarkdown: string
}

/** runGate is one gate run, shared by the action and `npm run gate`. It
 * always writes report.json and report.md, whatever stage failed. */
export async function runGate(inputs: Inputs, plan: Plan, env: RunEnv, render: RenderContext = {}): Promise<RunResult> {
  const outDir = resolve(env.outDir)
  await mkdir(outDir, { recursive: true })
  await mkdir(env.tmpDir, { recursive: true })
  const workingDirectory = resolve(inputs.workingDirectory)
  const stages: Stage[] = []
  const findings: Finding[] = []
  let base: BaseCheckout | undefined
  let report: Report
  const timed = async <T>(name: string, f: () => Promise<T>): Promise<T> => {
    const start = Date.now()
    try {
      return await f()
    } finally {
      stages.push({ name, seconds: (Date.now() - start) / 1000 })
    }
  }
  try {
    base = await timed('base checkout', () => checkoutBase(workingDirectory, plan.baseRef, env.tmpDir))
    const baseCheckout = base
    const buf = await timed('locate buf', () => locateBuf([workingDirectory, env.actionDir], env.toolCache, env.log))
    const check = { buf, cwd: workingDirectory, bufInput: inputs.bufInput, fileRoot: join(baseCheckout.prefix, inputs.bufInput) }
    if (inputs.lint) findings.push(...(await timed('buf lint', () => bufLint(check))))
    if (inputs.breaking) findings.push(...(await timed('buf breaking', () => bufBreaking(check, baseCheckout.dir))))
    annotate(findings, plan, env.log)
    const findingsPath = join(outDir, 'findings.json')
    await writeFile(findingsPath, JSON.stringify(findings, null, 2) + '\n')
    const binDir = await mkdtemp(join(env.tmpDir, 'wiregate-bin-'))
    const bin = await timed('build harness', () => buildHarness(env.actionDir, binDir))
    const gate = await runHarnessGate(bin, {
      ...inputs,
      harnessDir: join(env.actionDir, 'harness'),
      baseDir: baseCheckout.dir,
      headDir: workingDirectory,
      buf,
      findings: findingsPath,
      allow: allowFlags(plan.labels),
      baseRef: plan.baseLabel,
      baseSha: baseCheckout.sha,
      headRef: plan.headLabel,
      headSha: plan.headSha,
      out: outDir
    })
    report = gate.report
    report.stages = [...stages, ...report.stages]
    if (gate.code !== exitCode(report)) {
      env.log.warning(`wiregate gate exited ${gate.code} but report.json says ${report.result}; following report.json`)
    }
  } catch (err) {
    if (!(err instanceof WiregateError)) env.log.info(err instanceof Error && err.stack ? err.stack : String(err))
    const message = errorMessage(err)
    env.log.error(message, { title: 'wiregate could not run' })
    report = errorReport(
      { ref: plan.baseLabel, sha: base?.sha ?? plan.baseRef },
      { ref: plan.headLabel, sha: plan.headSha },
      message,
      findings,
      stages
    )
    await writeReportJson(report, outDir)
  } finally {
    await base?.remove()
  }
  return writeMarkdown(report, outDir, render)
}

async function writeReportJson(report: Report, outDir: string): Promise<void> {
  await writeFile(join(outDir, 'report.json'), JSON.stringify(report, null, 2) + '\n')
}

async function writeMarkdown(report: Report, outDir: string, render: RenderContext): Promise<RunResult> {
  const markdown = renderReport(report, render)
  const reportMarkdown = join(outDir, 'report.md')
  await writeFile(reportMarkdown, markdown)
  return { report, markdown, exitCode: exitCode(report), reportJson: join(outDir, 'report.json'), reportMarkdown }
}

/** stoppedBeforeRun is the result of a run that could not even be planned
 * (a bad input): the summary still renders the one-line error. */
export async function stoppedBeforeRun(message: string, outDir: string, render: RenderContext = {}): Promise<RunResult> {
  await mkdir(outDir, { recursive: true })
  const report = errorReport({ ref: '', sha: '' }, { ref: '', sha: '' }, message)
  await writeReportJson(report, outDir)
  return writeMarkdown(report, outDir, render)
}

/** annotate puts each schema finding on its file; allowed breaking changes are warnings. */
function annotate(findings: Finding[], plan: Plan, log: Log): void {
  const allowBreaking = allowFlags(plan.labels).includes('breaking')
  for (const f of findings) {
    const annotation = { title: `buf ${f.kind}${f.rule ? `: ${f.rule}` : ''}`, file: f.file, startLine: f.line, startColumn: f.column }
    if (f.kind === 'breaking' && allowBreaking) log.warning(f.message, annotation)
    else log.error(f.message, annotation)
  }
}
