import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { rename } from 'node:fs/promises'
import { join } from 'node:path'
import { WiregateError } from './errors.js'
import { firstLine, run } from './proc.js'

/** goEnv is what every go command of the action runs with: the harness's
 * module alone, whatever go.work lies above the action. */
const goEnv = { GOWORK: 'off' }

/** harnessOf is the harness shipped with the action. */
function harnessOf(actionDir: string): string {
  const harnessDir = join(actionDir, 'harness')
  if (!existsSync(join(harnessDir, 'go.mod'))) {
    throw new WiregateError(`the action's harness is missing (${harnessDir}/go.mod): use the action from its repository`)
  }
  return harnessDir
}

/** goVersion is the version (go1.26.8) of the Go toolchain that builds the
 * action's harness; Go must be on PATH. It runs in the harness, not in the
 * working directory: there the checkout's go.mod would choose the
 * toolchain (GOTOOLCHAIN=auto downloads the one it names). */
export async function goVersion(actionDir: string): Promise<string> {
  const go = await run('go', ['env', 'GOVERSION'], { cwd: harnessOf(actionDir), env: goEnv })
  if (go.code === 127) throw new WiregateError('Go is not on PATH: add actions/setup-go before wiregate')
  if (go.code !== 0) throw new WiregateError(`go env GOVERSION failed in the action's harness: ${firstLine(go.stderr) || `exit code ${go.code}`}`)
  return go.stdout.trim()
}

/** buildHarness compiles the wiregate binary from the harness shipped with
 * the action into binDir, or reuses the one there (binDir is per harness
 * version when the cache is on). */
export async function buildHarness(actionDir: string, binDir: string, env: Record<string, string> = {}): Promise<{ bin: string; reused: boolean }> {
  const harnessDir = harnessOf(actionDir)
  await goVersion(actionDir)
  const bin = join(binDir, 'wiregate')
  if (existsSync(bin)) return { bin, reused: true }
  // Built beside and renamed into place: a run that starts meanwhile never
  // sees half a binary.
  const staged = `${bin}.${process.pid}`
  const built = await run('go', ['build', '-trimpath', '-o', staged, './cmd/wiregate'], { cwd: harnessDir, env: { ...goEnv, ...env } })
  if (built.code !== 0) {
    throw new WiregateError(`building the wiregate harness failed: ${firstLine(built.stderr) || `exit code ${built.code}`}`)
  }
  await rename(staged, bin)
  return { bin, reused: false }
}

const FORWARDED: NodeJS.Signals[] = ['SIGINT', 'SIGTERM']

/** runWiregate runs the wiregate binary with its output on our stderr and
 * passes SIGINT and SIGTERM on to it (a cancelled job sends them): the gate
 * stops its children, writes report.json and exits 2. The result is the
 * gate's own exit code, 2 when a signal ended it. */
export async function runWiregate(bin: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<number> {
  const child = spawn(bin, args, { cwd, stdio: ['ignore', 2, 2], env: { ...process.env, ...env } })
  const forward = (signal: NodeJS.Signals): void => {
    child.kill(signal)
  }
  for (const s of FORWARDED) process.on(s, forward)
  try {
    return await new Promise<number>((resolve, reject) => {
      child.on('error', reject)
      child.on('close', code => resolve(code ?? 2))
    })
  } finally {
    for (const s of FORWARDED) process.off(s, forward)
  }
}
