import assert from 'node:assert/strict'
import { cpSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { cacheKeys, harnessFiles, hashTree, restoreCache, saveCache, schemaFiles, cacheLayout, type CacheBackend } from '../src/cache.js'
import type { Log } from '../src/log.js'
import { scratch } from './scratch.js'

const root = join(import.meta.dirname, '..', '..')

test('cache key: a harness source or Go version change misses; unchanged hits; schemas only pick the entry', async () => {
  const copy = scratch('wiregate-key-')
  cpSync(join(root, 'harness'), copy, { recursive: true, filter: src => !src.includes('/testdata') })
  const harness = await hashTree(copy, harnessFiles)
  assert.equal(await hashTree(copy, harnessFiles), harness, 'unchanged sources hash the same')
  writeFileSync(join(copy, 'parent', 'gate', 'zz_test.go'), 'package gate\n')
  assert.equal(await hashTree(copy, harnessFiles), harness, 'a test file is not a build input')
  writeFileSync(join(copy, 'parent', 'gate', 'zz.go'), 'package gate\n')
  const changed = await hashTree(copy, harnessFiles)
  assert.notEqual(changed, harness, 'a new source file changes the hash')

  const a = cacheKeys('linux-x64', 'go1.26.8', harness, 's1')
  assert.deepEqual(cacheKeys('linux-x64', 'go1.26.8', harness, 's1'), a)
  const otherGo = cacheKeys('linux-x64', 'go1.27.0', harness, 's1')
  const otherHarness = cacheKeys('linux-x64', 'go1.26.8', changed, 's1')
  const otherSchemas = cacheKeys('linux-x64', 'go1.26.8', harness, 's2')
  for (const miss of [otherGo, otherHarness]) {
    assert.notEqual(miss.key, a.key)
    assert.ok(!miss.restoreKeys.some(r => a.key.startsWith(r)), 'no restore key reaches an entry of another harness or Go')
  }
  assert.notEqual(otherSchemas.key, a.key)
  assert.ok(otherSchemas.restoreKeys.some(r => a.key.startsWith(r)), 'other schemas restore the same harness and Go')

  assert.ok(schemaFiles('schemas/a/v1/b.proto') && schemaFiles('buf.yaml') && schemaFiles('x/t.avsc') && !schemaFiles('README.md'))
})

const quiet: Log & { warnings: string[] } = { warnings: [], info: () => {}, error: () => {}, warning(m) { this.warnings.push(m) } }

test('a cache service error is a warning and a note, never a failure', async () => {
  const failing: CacheBackend = { restore: () => Promise.reject(new Error('503 from the cache')), save: () => Promise.reject(new Error('disk full')) }
  const layout = cacheLayout('/tmp/none', 'go1', 'h'.repeat(64))
  const keys = cacheKeys('linux-x64', 'go1', 'h'.repeat(64), 's')
  const { stage, matched } = await restoreCache(failing, layout, keys, quiet)
  assert.equal(matched, undefined)
  assert.match(stage.note!, /^error: 503 from the cache/)
  assert.match(await saveCache(failing, layout, keys, undefined, quiet), /^not saved: disk full/)
  assert.equal(quiet.warnings.length, 2)
  const saves: string[] = []
  const hit: CacheBackend = { restore: () => Promise.resolve(keys.key), save: (_p, k) => (saves.push(k), Promise.resolve(1)) }
  assert.equal((await restoreCache(hit, layout, keys, quiet)).matched, keys.key)
  assert.equal(await saveCache(hit, layout, keys, keys.key, quiet), 'not saved: the entry exists')
  assert.deepEqual(saves, [])
})
