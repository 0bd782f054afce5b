// Golden comments: report.json files rendered to committed report.md
// files, compared byte for byte, so a change to the renderer shows as a
// diff a reviewer reads. `npm run golden` rewrites every .md after a
// deliberate change (scripts/golden.sh also regenerates the .json files
// that the gate derives from real buf runs).
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { renderReport } from '../src/render/report.js'
import { parseReport } from '../src/report.js'

// Compiled tests live in build/test; golden files stay in the source tree.
const test_ = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test')
const golden = join(test_, 'golden')
const UPDATE = process.env.WIREGATE_GOLDEN === 'update'

/** The golden reports: test/golden's own and the gate's real fixtures. */
const sources: Array<[string, string]> = [
  ...readdirSync(golden)
    .filter(f => f.endsWith('.json'))
    .map((f): [string, string] => [f.slice(0, -'.json'.length), join(golden, f)]),
  ...['pass', 'all', 'fail', 'allowed'].map((n): [string, string] => [`fixture-${n}`, join(test_, 'fixtures', `${n}.json`)])
]

for (const [name, path] of sources) {
  test(`golden comment: ${name}`, () => {
    const got = renderReport(parseReport(readFileSync(path, 'utf8'), path), { runUrl: 'https://example.test/run/1' })
    const file = join(golden, `${name}.md`)
    if (UPDATE) writeFileSync(file, got)
    let want: string
    try {
      want = readFileSync(file, 'utf8')
    } catch {
      assert.fail(`${file} is missing: run npm run golden`)
    }
    assert.ok(got === want, `${name}.md differs from what the renderer writes: run npm run golden and review the diff`)
  })
}
