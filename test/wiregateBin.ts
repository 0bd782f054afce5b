// The wiregate binary the tests render with: built once per version of
// the harness (its sources' hash), reused by every test file after.
import { mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { hashTree, harnessFiles } from '../src/cache.js'
import { buildHarness } from '../src/harness.js'
import { wiregateRenderer, type Renderer } from '../src/render.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

let built: Promise<string> | undefined

/** wiregateBin is the path of a wiregate built from this repository's harness. */
export function wiregateBin(): Promise<string> {
  built ??= (async () => {
    const dir = join(tmpdir(), 'wiregate-test-bin', (await hashTree(join(root, 'harness'), harnessFiles)).slice(0, 16))
    await mkdir(dir, { recursive: true })
    return (await buildHarness(root, dir)).bin
  })()
  return built
}

/** renderer is `wiregate render` of that binary. */
export async function renderer(): Promise<Renderer> {
  return wiregateRenderer(await wiregateBin())
}
