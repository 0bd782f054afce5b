import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { WiregateError } from './errors.js'
import type { Log } from './log.js'
import { firstLine, run } from './proc.js'

/** The buf version every wiregate run uses, so lint and breaking rules do not
 * drift between runs. package.json pins the same version for `npm ci`; a
 * test keeps the two equal. */
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
