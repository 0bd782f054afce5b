// Where the action takes its tools from: never the checkout it judges.
// buf is wiregate's to find (harness/parent/prepare: FindBuf, Buf).
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { goVersion } from '../src/harness.js'
import { scratch } from './scratch.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
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
