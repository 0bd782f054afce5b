// plan.json as the action reads it: through plan.schema.json (generated from
// the Go type), then its matrix against its shards. A bad plan is one line
// naming plan.json and what is wrong.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { WiregateError } from '../src/errors.js'
import { parseShardSplit } from '../src/shardPlan.js'

/** A plan as `wiregate plan` writes it (shard.Split, MarshalIndent): the
 * names are Go's (inputs.Shard.String, shard.PartName), copied here as Go
 * writes them; the action never builds one. */
function plan(n: number): Record<string, unknown> {
  const shard = Array.from({ length: n }, (_, i) => `${i + 1}/${n}`)
  return {
    shards: n,
    matrix: { shard },
    needed: n,
    max_shards: 8,
    price_seconds: 600,
    capacity_seconds: 300,
    parts: shard.map((s, i) => ({ shard: s, artifact: `wiregate-part-${i + 1}-of-${n}`, messages: [`m${i}.V1`], price_seconds: 600 / n })),
    change: { measure: 'changed', changed: ['m0.V1'], new: [], removed: [], unchanged: [] },
    note: `${n} shards`
  }
}

function refused(text: string, want: RegExp): void {
  assert.throws(
    () => parseShardSplit(text),
    (err: unknown) => err instanceof WiregateError && want.test(err.message) && !err.message.includes('\n'),
    `${text.slice(0, 80)} → ${want}`
  )
}

test('a plan Go writes is read whole: 1/1, 2 shards and 256/256 alike', () => {
  for (const n of [1, 2, 256]) {
    const p = parseShardSplit(JSON.stringify(plan(n), null, 2))
    assert.equal(p.shards, n)
    assert.equal(p.matrix.shard.at(-1), `${n}/${n}`)
  }
  // The one-shard plan of a gate that could not start: no change, no parts, max-shards unread.
  const stopped = { shards: 1, matrix: { shard: ['1/1'] }, needed: 1, max_shards: 0, price_seconds: 0, capacity_seconds: 0, parts: [], note: 'input \'shard\' is "257/300": want i/n' }
  assert.equal(parseShardSplit(JSON.stringify(stopped)).note, stopped.note)
})

test('plan.json that is not JSON', () => {
  refused('{"shards": 2,', /^plan\.json is not valid JSON/)
  refused('', /^plan\.json is not valid JSON/)
})

test('plan.json of the wrong shape names the field', () => {
  const p = plan(2)
  refused(JSON.stringify([p]), /^plan\.json: the top level is not an object$/)
  refused(JSON.stringify({ ...p, shards: '2' }), /^plan\.json: shards is not an integer$/)
  refused(JSON.stringify({ ...p, note: undefined }), /^plan\.json: note is missing$/)
  refused(JSON.stringify({ ...p, matrix: { shard: '1/2' } }), /^plan\.json: matrix\.shard is not a list$/)
  refused(JSON.stringify({ ...p, extra: 1 }), /^plan\.json: extra is not in the contract$/)
  refused(JSON.stringify({ ...p, parts: null }), /^plan\.json: parts is not a list$/)
  refused(JSON.stringify({ ...p, change: { ...(p.change as object), measure: 'some' } }), /^plan\.json: change\.measure is not one of the contract's words$/)
})

test('the shard count is in the gate\'s one range, from the schema Go made', () => {
  refused(JSON.stringify({ ...plan(2), shards: 0 }), /^plan\.json: shards is not >= 1$/)
  refused(JSON.stringify(plan(257)), /^plan\.json: shards is not <= 256$/)
})

test('a matrix that is not the plan\'s shards', () => {
  const p = plan(3)
  const matrix = (shard: string[]): string => JSON.stringify({ ...p, matrix: { shard } })
  const count = /^plan\.json: matrix\.shard does not hold the plan's 3 shards once each$/
  refused(matrix(['1/3', '2/3']), count)
  refused(matrix(['1/3', '2/3', '3/3', '3/3']), count)
  refused(matrix(['1/3', '2/3', '2/3']), count)
  const named = /^plan\.json: matrix\.shard does not name the shards its parts name, in their order$/
  refused(matrix(['1/3', '3/3', '2/3']), named)
  refused(matrix(['1/2', '2/2', '3/3']), named)
  refused(matrix(['1/3', '2/3', '3/3 ']), /^plan\.json: matrix\.shard\[2\] does not match the contract$/)
  refused(JSON.stringify({ ...p, parts: (p.parts as unknown[]).slice(1) }), named)
})

test('the names are passed on as Go wrote them, and only names of the contract\'s pattern pass', () => {
  // Go's names, as its contract shapes them (report.ShardNamePattern,
  // PartNamePattern in plan.schema.json): the action reads them, it does not make them.
  const p = plan(2)
  const read = parseShardSplit(JSON.stringify(p))
  assert.deepEqual(read.matrix.shard, (p.matrix as { shard: string[] }).shard)
  assert.deepEqual(read.parts.map(part => part.artifact), ['wiregate-part-1-of-2', 'wiregate-part-2-of-2'])
  const renamed = { ...p, matrix: { shard: ['a', 'b'] }, parts: (p.parts as Array<Record<string, unknown>>).map((part, i) => ({ ...part, shard: ['a', 'b'][i] })) }
  refused(JSON.stringify(renamed), /^plan\.json: matrix\.shard\[0\] does not match the contract$/)
  const badPart = { ...p, parts: (p.parts as Array<Record<string, unknown>>).map(part => ({ ...part, artifact: '../../etc' })) }
  refused(JSON.stringify(badPart), /^plan\.json: parts\[0\]\.artifact does not match the contract$/)
})
