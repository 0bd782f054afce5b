import { existsSync, realpathSync, statSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { delimiter, isAbsolute, join, relative, sep } from 'node:path'
import { WiregateError } from './errors.js'
import type { Log } from './log.js'
import { firstLine, run } from './proc.js'

/** The buf version every wiregate run uses, so lint and breaking rules do not
 * drift between runs. package.json pins the same version for `npm ci`; a
 * test keeps the two equal. */
export const BUF_VERSION = '1.75.0'

/** Where a run may take buf from, and the checkout it must not. */
export interface BufPlaces {
  /** the action's root: `npm ci` there puts buf in node_modules/.bin */
  actionDir: string
  /** where a missing buf is installed */
  toolCache: string
  /** the checkout the gate judges (the working directory): a program in it
   * is the pull request's */
  checkout: string
  /** the search path, as PATH holds it */
  path: string
}

async function versionOf(path: string): Promise<string | undefined> {
  const r = await run(path, ['--version'])
  return r.code === 0 ? r.stdout.trim() : undefined
}

/** inside says whether path lies in dir, symbolic links followed. */
function inside(dir: string, path: string): boolean {
  const real = (p: string): string => (existsSync(p) ? realpathSync(p) : p)
  const rel = relative(real(dir), real(path))
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel))
}

function isExecutable(path: string): boolean {
  try {
    const st = statSync(path)
    return st.isFile() && (st.mode & 0o111) !== 0
  } catch {
    return false
  }
}

/** locateBuf finds the pinned buf, as an absolute path: in PATH's absolute
 * directories outside the checkout, in the action's own node_modules, or
 * installed with npm into the tool cache. Nothing in the checkout runs, not
 * even for --version: the action's own directory is the one exception,
 * which is the checkout only when the action is (`uses: ./`, `npm run gate`
 * here), and then the code judging it is the checkout's anyway. */
export async function locateBuf(places: BufPlaces, log: Log): Promise<string> {
  const onPath = places.path
    .split(delimiter)
    .filter(dir => isAbsolute(dir))
    .map(dir => join(dir, 'buf'))
    .filter(p => !inside(places.checkout, p))
  for (const candidate of [...onPath, join(places.actionDir, 'node_modules', '.bin', 'buf')]) {
    if (isExecutable(candidate) && (await versionOf(candidate)) === BUF_VERSION) return candidate
  }
  const prefix = join(places.toolCache, 'wiregate-buf', BUF_VERSION)
  const installed = join(prefix, 'node_modules', '.bin', 'buf')
  if (isExecutable(installed) && (await versionOf(installed)) === BUF_VERSION) return installed
  log.info(`installing @bufbuild/buf@${BUF_VERSION} into ${prefix}`)
  await mkdir(prefix, { recursive: true })
  // Run in the prefix: npm reads an .npmrc from the directory it runs in (a registry, scripts).
  const npm = await run('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', `@bufbuild/buf@${BUF_VERSION}`], { cwd: prefix })
  if (npm.code !== 0 || (await versionOf(installed)) !== BUF_VERSION) {
    throw new WiregateError(`could not install @bufbuild/buf@${BUF_VERSION} with npm: ${firstLine(npm.stderr) || 'buf did not run'}`)
  }
  return installed
}
