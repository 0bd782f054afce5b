// plan.json, as `wiregate plan` writes it (harness/parent/gate/plan.go): how many
// shards, the matrix that runs them, and a line saying why. The action
// reads only what it passes on as step outputs.
import { WiregateError } from './errors.js'
import { Fields } from './jsonShape.js'

export interface ShardPlan {
  shards: number
  /** strategy.matrix for `fromJSON`: one job per shard, each with input shard */
  matrix: { shard: string[] }
  note: string
}

/** A shard as the gate's input takes it: "2/8". */
const SHARD = /^[1-9]\d{0,2}\/[1-9]\d{0,2}$/

export function parseShardPlan(text: string): ShardPlan {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    throw new WiregateError('plan.json is not valid JSON')
  }
  const f = Fields.of('plan.json', '', raw)
  const shards = f.int('shards')
  const shard = f.object('matrix').strings('shard') ?? []
  if (shards < 1 || shard.length !== shards || !shard.every(s => SHARD.test(s))) {
    throw new WiregateError(`plan.json: matrix.shard is not ${shards} shards of the form i/n`)
  }
  return { shards, matrix: { shard }, note: f.string('note') }
}
