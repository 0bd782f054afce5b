import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { errorMessage } from './errors.js'
import type { Log } from './log.js'
import type { Stage } from './report.js'

/** CacheLayout is where a run keeps what a later run can reuse, all under
 * one root so one cache entry holds it: the Go build and module caches of
 * wiregate's own builds, the prepared bench programs and plugins
 * (content-addressed by `wiregate prepare`), and the wiregate binary. */
export interface CacheLayout {
  root: string
  /** what the cache entry holds: the root, without the module zips (Go
   * builds from the extracted sources; the zips are a third of the modules) */
  paths: string[]
  /** the wiregate binary for this harness */
  binDir: string
  /** for `go build` of the binary and for `wiregate gate` */
  env: Record<string, string>
}

export function cacheLayout(root: string, goVersion: string, harnessHash: string): CacheLayout {
  return {
    root,
    paths: [root, `!${join(root, 'go-mod', 'cache', 'download', '**', '*.zip')}`],
    binDir: binDir(root, goVersion, harnessHash),
    env: { GOCACHE: join(root, 'go-build'), GOMODCACHE: join(root, 'go-mod'), WIREGATE_CACHE: join(root, 'programs') }
  }
}

/** binDir is where the wiregate binary of one harness and Go version lives:
 * a binary there is reused, so a run builds it once per version. */
export function binDir(root: string, goVersion: string, harnessHash: string): string {
  return join(root, 'bin', `${goVersion}-${harnessHash.slice(0, 16)}`)
}

export interface CacheKeys {
  key: string
  /** an entry of the same harness and Go with other schemas still holds
   * the build caches and the plugins */
  restoreKeys: string[]
}

/** cacheKeys: a harness change or a Go version change misses; an
 * unchanged schema set hits. */
export function cacheKeys(platform: string, goVersion: string, harnessHash: string, schemasHash: string): CacheKeys {
  const prefix = `wiregate-v1-${platform}-${goVersion}-${harnessHash.slice(0, 16)}-`
  return { key: prefix + schemasHash.slice(0, 16), restoreKeys: [prefix] }
}

/** hashTree hashes the files under dir that keep returns true for (by
 * path relative to dir), skipping .git and node_modules: names and bytes,
 * in a stable order. */
export async function hashTree(dir: string, keep: (rel: string) => boolean): Promise<string> {
  const h = createHash('sha256')
  const walk = async (d: string): Promise<void> => {
    const entries = (await readdir(d, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    for (const e of entries) {
      const p = join(d, e.name)
      if (e.isDirectory()) {
        if (e.name !== '.git' && e.name !== 'node_modules') await walk(p)
      } else if (e.isFile() && keep(relative(dir, p))) {
        const b = await readFile(p)
        h.update(`${relative(dir, p)} ${b.length}\n`).update(b)
      }
    }
  }
  await walk(dir)
  return h.digest('hex')
}

/** The harness's build inputs: what changes the binary or a bench program. */
export const harnessFiles = (rel: string): boolean =>
  (rel.endsWith('.go') && !rel.endsWith('_test.go') && !rel.split('/').includes('testdata')) || rel === 'go.mod' || rel === 'go.sum'

/** The schema set: what changes a prepared bench program. */
export const schemaFiles = (rel: string): boolean => /\.(proto|avsc)$|(^|\/)(buf\.yaml|buf\.lock|buf\.work\.yaml)$/.test(rel)

/** The two calls wiregate makes of @actions/cache (main.ts backs them). */
export interface CacheBackend {
  restore(paths: string[], key: string, restoreKeys: string[]): Promise<string | undefined>
  save(paths: string[], key: string): Promise<number>
}

/** restoreCache restores the layout's root. A miss or a cache service error
 * costs only time: it is a note (and a warning), never a failure. */
export async function restoreCache(backend: CacheBackend, layout: CacheLayout, keys: CacheKeys, log: Log): Promise<{ stage: Stage; matched?: string }> {
  const start = Date.now()
  const stage = (note: string): Stage => ({ name: 'cache restore', seconds: (Date.now() - start) / 1000, note })
  try {
    const matched = await backend.restore(layout.paths, keys.key, keys.restoreKeys)
    if (matched === undefined) return { stage: stage(`miss: ${keys.key}`) }
    return { stage: stage(matched === keys.key ? `hit: ${matched}` : `partial hit: ${matched}`), matched }
  } catch (err) {
    log.warning(`wiregate's cache could not be restored (the run goes on, only slower): ${errorMessage(err)}`)
    return { stage: stage(`error: ${errorMessage(err)}`) }
  }
}

/** saveCache saves the layout's root under the key, unless that exact key
 * was restored (cache entries are immutable). Errors are warnings. */
export async function saveCache(backend: CacheBackend, layout: CacheLayout, keys: CacheKeys, matched: string | undefined, log: Log): Promise<string> {
  if (matched === keys.key) return 'not saved: the entry exists'
  try {
    const id = await backend.save(layout.paths, keys.key)
    return `saved: ${keys.key} (entry ${id})`
  } catch (err) {
    log.warning(`wiregate's cache could not be saved (the next run will build again): ${errorMessage(err)}`)
    return `not saved: ${errorMessage(err)}`
  }
}
