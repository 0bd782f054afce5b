import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseReport, type Report } from '../src/report.js'

// Compiled tests live in build/test; fixtures stay in the source tree.
const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'fixtures')

export function loadFixture(name: string): Report {
  return parseReport(readFileSync(join(fixtures, `${name}.json`), 'utf8'))
}
