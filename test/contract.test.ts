// One contract a file: report.json's and plan.json's types are generated
// from the schemas the Go types generate (npm run schema), and nothing else
// declares them.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { CONTRACTS, contractTypes } from '../scripts/reportTypes.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

test('both contracts are generated: report.json and plan.json', () => {
  assert.deepEqual(CONTRACTS.map(c => c.types), ['src/report.gen.ts', 'src/plan.gen.ts'])
})

for (const c of CONTRACTS) {
  test(`${c.types} is what ${c.schema} makes (run npm run schema after go test ./${c.pkg.replace('harness/', '')} -update)`, async () => {
    assert.equal(readFileSync(join(root, c.types), 'utf8'), await contractTypes(root, c))
  })
}
