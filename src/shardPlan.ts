// plan.json, as `wiregate plan` writes it. Its contract is declared once, by
// the Go type shard.Plan (harness/parent/shard): it generates
// plan.schema.json, which generates the types below (plan.gen.ts, `npm run
// schema`) and validates the plan before the action passes any of it on.
// The shard strings are Go's: the action checks only that the matrix is the
// plan's n shards, and never parses a shard's range itself.
import { Ajv2020 } from 'ajv/dist/2020.js'
import schema from '../harness/parent/shard/plan.schema.json' with { type: 'json' }
import { breach, notJSON } from './contract.js'
import { WiregateError } from './errors.js'
import type { ShardPlan } from './plan.gen.js'

export type { ShardPlan } from './plan.gen.js'

/** What the action passes on as step outputs: the matrix, how many shards,
 * and the line saying why. */
export type PlanOutputs = Pick<ShardPlan, 'shards' | 'matrix' | 'note'>

const validate = new Ajv2020({ allErrors: false, strict: true }).compile<ShardPlan>(schema)

/** parseShardPlan reads plan.json and checks it against the contract
 * (plan.schema.json: every field's type, the shard count in the gate's
 * one range, no field the contract lacks), then that its matrix is its
 * shards, 1/n to n/n. A bad plan is a one-line error naming plan.json and
 * the field, never its value. */
export function parseShardPlan(text: string): ShardPlan {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (err) {
    throw new WiregateError(notJSON('plan.json', err))
  }
  if (!validate(raw)) throw new WiregateError(`plan.json: ${breach(validate.errors?.[0])}`)
  const { shards, matrix } = raw
  if (matrix.shard.length !== shards || matrix.shard.some((s, i) => s !== `${i + 1}/${shards}`)) {
    throw new WiregateError(`plan.json: matrix.shard is not the plan's ${shards} shards, 1/${shards} to ${shards}/${shards}`)
  }
  return raw
}
