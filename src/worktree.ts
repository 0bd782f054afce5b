import { mkdtemp } from 'node:fs/promises'
import { join } from 'node:path'
import { WiregateError } from './errors.js'
import { firstLine, run } from './proc.js'

export interface BaseCheckout {
  sha: string
  /** root of the base worktree */
  root: string
  /** the working directory's counterpart inside the base worktree */
  dir: string
  /** the working directory relative to the repository root ('' at the root) */
  prefix: string
  remove(): Promise<void>
}

async function git(cwd: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const r = await run('git', args, { cwd })
  return { code: r.code, out: r.stdout.trim(), err: r.stderr.trim() }
}

async function resolveCommit(cwd: string, ref: string): Promise<string | undefined> {
  for (const candidate of [ref, `origin/${ref}`]) {
    const r = await git(cwd, 'rev-parse', '--verify', '--quiet', `${candidate}^{commit}`)
    if (r.code === 0 && r.out) return r.out
  }
  return undefined
}

/** checkoutBase adds a detached worktree at the base ref, fetching the one
 * commit when a shallow clone lacks it. */
export async function checkoutBase(workingDirectory: string, ref: string, tmpRoot: string): Promise<BaseCheckout> {
  const top = await git(workingDirectory, 'rev-parse', '--show-toplevel')
  if (top.code !== 0) {
    throw new WiregateError(`input 'working-directory' (${workingDirectory}) is not inside a git repository: ${firstLine(top.err)}`)
  }
  const prefix = (await git(workingDirectory, 'rev-parse', '--show-prefix')).out
  let sha = await resolveCommit(workingDirectory, ref)
  if (!sha) {
    const fetched = await git(workingDirectory, 'fetch', '--no-tags', '--depth=1', 'origin', ref)
    if (fetched.code === 0) sha = await resolveCommit(workingDirectory, 'FETCH_HEAD')
  }
  if (!sha) {
    throw new WiregateError(
      `base commit ${ref} is not in this clone and could not be fetched: set 'fetch-depth: 0' on actions/checkout`
    )
  }
  const root = await mkdtemp(join(tmpRoot, 'wiregate-base-'))
  const added = await git(workingDirectory, 'worktree', 'add', '--detach', root, sha)
  if (added.code !== 0) {
    throw new WiregateError(`git worktree add for base ${sha} failed: ${firstLine(added.err)}`)
  }
  return {
    sha,
    root,
    dir: prefix ? join(root, prefix) : root,
    prefix: prefix.replace(/\/$/, ''),
    remove: async () => {
      await git(workingDirectory, 'worktree', 'remove', '--force', root)
    }
  }
}

/** headSha is the commit the working tree is on (a local run's head). */
export async function headInfo(workingDirectory: string): Promise<{ sha: string; ref: string; dirty: boolean }> {
  const sha = (await git(workingDirectory, 'rev-parse', 'HEAD')).out
  const ref = (await git(workingDirectory, 'rev-parse', '--abbrev-ref', 'HEAD')).out
  const dirty = (await git(workingDirectory, 'status', '--porcelain')).out !== ''
  return { sha, ref, dirty }
}
