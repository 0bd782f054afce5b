import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { WiregateError } from './errors.js'
import type { Inputs } from './inputs.js'
import { firstLine, run } from './proc.js'
import { parseReport, type Report } from './report.js'

/** buildHarness compiles the Go harness shipped with the action. */
export async function buildHarness(actionDir: string, outDir: string): Promise<string> {
  const harnessDir = join(actionDir, 'harness')
  if (!existsSync(join(harnessDir, 'go.mod'))) {
    throw new WiregateError(`the action's harness is missing (${harnessDir}/go.mod): use the action from its repository`)
  }
  const go = await run('go', ['version'])
  if (go.code !== 0) throw new WiregateError('Go is not on PATH: add actions/setup-go before wiregate')
  const bin = join(outDir, 'wiregate')
  const built = await run('go', ['build', '-o', bin, './cmd/wiregate'], { cwd: harnessDir })
  if (built.code !== 0) {
    throw new WiregateError(`building the wiregate harness failed: ${firstLine(built.stderr) || `exit code ${built.code}`}`)
  }
  return bin
}

/** The inputs the harness takes as they are. */
export type HarnessInputs = Pick<
  Inputs,
  | 'bufInput'
  | 'messages'
  | 'samples'
  | 'formats'
  | 'avroSchemas'
  | 'avroCompatibility'
  | 'sizeThreshold'
  | 'timeThreshold'
  | 'throughputThreshold'
  | 'alpha'
  | 'count'
  | 'pipeline'
  | 'pipelineMessages'
  | 'broker'
>

/** GateArgs are the flags of `wiregate gate`, one field per flag. */
export interface GateArgs extends HarnessInputs {
  harnessDir: string
  baseDir: string
  headDir: string
  buf: string
  findings: string
  allow: string[]
  baseRef: string
  baseSha: string
  headRef: string
  headSha: string
  out: string
}

/** gateArgv is the command line for `wiregate gate` (pure, so it is tested). */
export function gateArgv(a: GateArgs): string[] {
  return [
    'gate',
    `--harness-dir=${a.harnessDir}`,
    `--base-dir=${a.baseDir}`,
    `--head-dir=${a.headDir}`,
    `--buf=${a.buf}`,
    `--buf-input=${a.bufInput}`,
    `--messages=${a.messages.join(',')}`,
    `--samples=${a.samples}`,
    `--formats=${a.formats.join(',')}`,
    `--avro-schemas=${a.avroSchemas}`,
    `--avro-compatibility=${a.avroCompatibility}`,
    `--size-threshold=${a.sizeThreshold}`,
    `--time-threshold=${a.timeThreshold}`,
    `--throughput-threshold=${a.throughputThreshold}`,
    `--alpha=${a.alpha}`,
    `--count=${a.count}`,
    `--pipeline=${a.pipeline}`,
    `--pipeline-messages=${a.pipelineMessages}`,
    `--broker=${a.broker}`,
    `--findings=${a.findings}`,
    `--allow=${a.allow.join(',')}`,
    `--base-ref=${a.baseRef}`,
    `--base-sha=${a.baseSha}`,
    `--head-ref=${a.headRef}`,
    `--head-sha=${a.headSha}`,
    `--out=${a.out}`
  ]
}

/** runHarnessGate runs every harness stage; report.json is the answer even
 * when the harness exits non-zero. */
export async function runHarnessGate(bin: string, args: GateArgs): Promise<{ report: Report; code: number }> {
  const r = await run(bin, gateArgv(args), { cwd: args.headDir, stream: true })
  const path = join(args.out, 'report.json')
  if (!existsSync(path)) {
    throw new WiregateError(`wiregate gate wrote no report.json (exit code ${r.code}): ${lastLine(r.stderr) || 'no output'}`)
  }
  try {
    return { report: parseReport(await readFile(path, 'utf8')), code: r.code }
  } catch (err) {
    throw new WiregateError(`wiregate gate wrote an unreadable ${path}: ${err instanceof Error ? err.message : String(err)}`)
  }
}

function lastLine(text: string): string {
  return text.trim().split('\n').pop()?.trim() ?? ''
}
