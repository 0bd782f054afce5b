// One contract: report.json's types are generated from the schema the Go
// types generate (npm run schema), and nothing else declares them.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { reportTypes, TYPES } from '../scripts/reportTypes.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

test('src/report.gen.ts is what report.schema.json makes (run npm run schema after go test ./report -update)', async () => {
  assert.equal(readFileSync(join(root, TYPES), 'utf8'), await reportTypes(root))
})
