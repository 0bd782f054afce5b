// Where the action takes its tools from: never the checkout it judges.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { delimiter, dirname, join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { BUF_VERSION, locateBuf } from '../src/buf.js'
import { goVersion } from '../src/harness.js'
import type { Log } from '../src/log.js'
import { scratch } from './scratch.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const quiet: Log = { info: () => undefined, warning: () => undefined, error: () => undefined }

/** fakeBuf writes <dir>/buf: it says version, and notes each run in marker. */
function fakeBuf(dir: string, version: string, marker: string): string {
  mkdirSync(dir, { recursive: true })
  const path = join(dir, 'buf')
  writeFileSync(path, `#!/bin/sh\necho "$0 $*" >> '${marker}'\necho ${version}\n`, { mode: 0o755 })
  return path
}

/** inDir runs f with the working directory dir, as the action runs in the checkout. */
async function inDir<T>(dir: string, f: () => Promise<T>): Promise<T> {
  const was = process.cwd()
  process.chdir(dir)
  try {
    return await f()
  } finally {
    process.chdir(was)
  }
}

test('buf is never the checkout\'s: not through a relative PATH entry, not through an absolute one into it, not in its node_modules', async () => {
  const tmp = scratch('wiregate-tools-')
  const marker = join(tmp, 'checkout-buf-ran')
  const checkout = join(tmp, 'checkout')
  fakeBuf(join(checkout, 'node_modules', '.bin'), BUF_VERSION, marker)
  const action = fakeBuf(join(tmp, 'action', 'node_modules', '.bin'), BUF_VERSION, join(tmp, 'action-buf-ran'))
  const path = ['node_modules/.bin', join(checkout, 'node_modules', '.bin'), '/usr/bin'].join(delimiter)
  const found = await inDir(checkout, () => locateBuf({ actionDir: join(tmp, 'action'), toolCache: join(tmp, 'cache'), checkout, path }, quiet))
  assert.equal(found, action)
  assert.equal(existsSync(marker), false, `the checkout's buf ran: ${existsSync(marker) ? readFileSync(marker, 'utf8') : ''}`)
})

test('buf comes from PATH (absolute, the pinned version), the action\'s node_modules, or the tool cache, in that order', async () => {
  const tmp = scratch('wiregate-tools-')
  const marker = join(tmp, 'ran')
  const checkout = join(tmp, 'checkout')
  mkdirSync(checkout)
  const old = fakeBuf(join(tmp, 'old'), '1.0.0', marker)
  const pinned = fakeBuf(join(tmp, 'bin'), BUF_VERSION, marker)
  const action = fakeBuf(join(tmp, 'action', 'node_modules', '.bin'), BUF_VERSION, marker)
  const cached = fakeBuf(join(tmp, 'cache', 'wiregate-buf', BUF_VERSION, 'node_modules', '.bin'), BUF_VERSION, marker)
  const places = { actionDir: join(tmp, 'action'), toolCache: join(tmp, 'cache'), checkout }
  assert.equal(await locateBuf({ ...places, path: [dirname(old), dirname(pinned)].join(delimiter) }, quiet), pinned)
  assert.equal(await locateBuf({ ...places, path: dirname(old) }, quiet), action)
  assert.equal(await locateBuf({ ...places, actionDir: join(tmp, 'elsewhere'), path: dirname(old) }, quiet), cached)
})

test('the Go version is the harness\'s toolchain: the checkout\'s go.mod does not choose one', async () => {
  const checkout = scratch('wiregate-tools-go-')
  // Asks for a toolchain that does not exist; with the proxy off, go fails at once rather than download it.
  writeFileSync(join(checkout, 'go.mod'), 'module example.com/pr\n\ngo 1.21\n\ntoolchain go1.999.0\n')
  const saved = { GOTOOLCHAIN: process.env.GOTOOLCHAIN, GOPROXY: process.env.GOPROXY }
  process.env.GOTOOLCHAIN = 'auto'
  process.env.GOPROXY = 'off'
  try {
    const want = execFileSync('go', ['env', 'GOVERSION'], { cwd: join(root, 'harness'), env: { ...process.env, GOWORK: 'off' } }).toString().trim()
    assert.equal(await inDir(checkout, () => goVersion(root)), want)
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k]
      else process.env[k] = v
    }
  }
})
