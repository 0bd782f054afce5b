import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after } from 'node:test'

const made: string[] = []
after(() => {
  for (const dir of made) {
    try {
      rmSync(dir, { recursive: true, force: true })
    } catch {
      // A Go module cache's directories are read-only: writable, then gone.
      execFileSync('chmod', ['-R', 'u+w', dir])
      rmSync(dir, { recursive: true, force: true })
    }
  }
})

/** scratch is a fresh temporary directory, removed when the test file's
 * tests are done (a suite run left thousands behind). */
export function scratch(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  made.push(dir)
  return dir
}
