// plan.json, as `wiregate plan` writes it. Its contract is declared once, by
// the Go type shard.Split (harness/parent/shard): it generates
// plan.schema.json, which generates the types below (plan.gen.ts, `npm run
// schema`) and validates the plan before the action passes any of it on.
// The shard names (2/8) and part names (wiregate-part-2-of-8) are Go's: the
// action checks only that the matrix holds the plan's n shards and names
// the same ones as its parts, and never builds or parses a name itself.
import { Ajv2020 } from 'ajv/dist/2020.js'
import schema from '../harness/parent/shard/plan.schema.json' with { type: 'json' }
import { breach, notJSON } from './contract.js'
import { WiregateError } from './errors.js'
import type { ShardSplit } from './plan.gen.js'

export type { ShardSplit } from './plan.gen.js'

/** What the action passes on as step outputs: the matrix, how many shards,
 * and the line saying why. */
export type PlanOutputs = Pick<ShardSplit, 'shards' | 'matrix' | 'note'>

const validate = new Ajv2020({ allErrors: false, strict: true }).compile<ShardSplit>(schema)

/** parseShardSplit reads plan.json and checks it against the contract
 * (plan.schema.json: every field's type, the shard count in the gate's
 * one range, no field the contract lacks), then that its matrix holds its
 * n shards, the ones its parts name (a plan that stopped has no parts). A bad plan is a one-line error naming plan.json and
 * the field, never its value. */
export function parseShardSplit(text: string): ShardSplit {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (err) {
    throw new WiregateError(notJSON('plan.json', err))
  }
  if (!validate(raw)) throw new WiregateError(`plan.json: ${breach(validate.errors?.[0])}`)
  const { shards, matrix, parts } = raw
  if (matrix.shard.length !== shards || new Set(matrix.shard).size !== shards) {
    throw new WiregateError(`plan.json: matrix.shard does not hold the plan's ${shards} shards once each`)
  }
  if (parts.length > 0 && (parts.length !== shards || parts.some((p, i) => p.shard !== matrix.shard[i]))) {
    throw new WiregateError('plan.json: matrix.shard does not name the shards its parts name, in their order')
  }
  return raw
}
