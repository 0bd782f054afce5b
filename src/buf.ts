import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { compileError, parseBufOutput, toFindings } from './bufFindings.js'
import { WiregateError } from './errors.js'
import type { Log } from './log.js'
import { firstLine, run } from './proc.js'
import type { Finding } from './report.js'

/** The buf version every wiregate run uses, so lint and breaking rules do not
 * drift between runs (keep in step with package.json). */
export const BUF_VERSION = '1.75.0'

async function versionOf(path: string): Promise<string | undefined> {
  const r = await run(path, ['--version'])
  return r.code === 0 ? r.stdout.trim() : undefined
}

/** locateBuf finds the pinned buf: on PATH, in a node_modules, or installed
 * with npm into the tool cache. */
export async function locateBuf(searchDirs: string[], toolCache: string, log: Log): Promise<string> {
  if ((await versionOf('buf')) === BUF_VERSION) return 'buf'
  for (const dir of searchDirs) {
    const candidate = join(dir, 'node_modules', '.bin', 'buf')
    if (existsSync(candidate) && (await versionOf(candidate)) === BUF_VERSION) return candidate
  }
  const prefix = join(toolCache, 'wiregate-buf', BUF_VERSION)
  const installed = join(prefix, 'node_modules', '.bin', 'buf')
  if (existsSync(installed) && (await versionOf(installed)) === BUF_VERSION) return installed
  log.info(`installing @bufbuild/buf@${BUF_VERSION} into ${prefix}`)
  await mkdir(prefix, { recursive: true })
  const npm = await run('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', `@bufbuild/buf@${BUF_VERSION}`])
  if (npm.code !== 0 || (await versionOf(installed)) !== BUF_VERSION) {
    throw new WiregateError(`could not install @bufbuild/buf@${BUF_VERSION} with npm: ${firstLine(npm.stderr) || 'buf did not run'}`)
  }
  return installed
}

export interface BufCheck {
  buf: string
  /** the working directory: buf runs here */
  cwd: string
  bufInput: string
  /** where buf's input-relative paths sit in the repo, for annotations */
  fileRoot: string
}

/** bufLint runs buf lint on head. */
export async function bufLint(c: BufCheck): Promise<Finding[]> {
  return bufFindings(c, 'lint', ['lint', c.bufInput, '--error-format=json'])
}

/** bufBreaking runs buf breaking on head against the base's buf input. */
export async function bufBreaking(c: BufCheck, againstDir: string): Promise<Finding[]> {
  const against = join(againstDir, c.bufInput)
  if (!existsSync(against)) {
    throw new WiregateError(`input 'buf-input' (${c.bufInput}) does not exist in the base commit: set 'breaking: false' for the first run`)
  }
  return bufFindings(c, 'breaking', ['breaking', c.bufInput, '--against', against, '--error-format=json'])
}

async function bufFindings(c: BufCheck, kind: 'lint' | 'breaking', args: string[]): Promise<Finding[]> {
  if (!existsSync(join(c.cwd, c.bufInput))) {
    throw new WiregateError(`input 'buf-input' (${c.bufInput}) does not exist in ${c.cwd}`)
  }
  const r = await run(c.buf, args, { cwd: c.cwd })
  const { annotations, other } = parseBufOutput(r.stdout)
  const compile = compileError(annotations, c.fileRoot)
  if (compile) throw new WiregateError(compile)
  if (r.code === 0 || (r.code === 100 && other.length === 0)) return toFindings(kind, annotations, c.fileRoot)
  const why = firstLine(r.stderr) || firstLine(other.join('\n')) || `exit code ${r.code}`
  throw new WiregateError(`buf ${kind} failed on input 'buf-input' (${c.bufInput}): ${why}`)
}
