import { WiregateError } from './errors.js'

/** The inputs the action reads itself: GitHub glue the gate never sees.
 * Every other input goes to `wiregate gate`, which owns its default and
 * its validation (harness/parent/inputs). The runner applies action.yml's
 * defaults, so an empty value here is an input set to ''. */
export interface ActionInputs {
  githubToken: string
  /** post or update the sticky PR comment */
  comment: boolean
  /** what head is compared against; empty: the event's base */
  baseRef: string
  /** restore and save wiregate's caches with the Actions cache */
  cache: boolean
  /** gate: run the gate here (a whole change, or one shard's part);
   * plan: split the change over shards and output the matrix; merge: merge
   * this run's parts into one verdict; publish: post the report of a
   * gating run (workflow_run); approve: decide the PR head's report again
   * with the PR's /wiregate comments (issue_comment) */
  mode: Mode
}

export type Mode = 'gate' | 'plan' | 'merge' | 'publish' | 'approve'

const MODES: Mode[] = ['gate', 'plan', 'merge', 'publish', 'approve']


export function readActionInputs(get: (name: string) => string): ActionInputs {
  return {
    githubToken: get('github-token').trim(),
    comment: parseBool('comment', get('comment').trim()),
    baseRef: get('base-ref').trim(),
    cache: parseBool('cache', get('cache').trim()),
    mode: parseMode(get('mode').trim())
  }
}

function parseMode(value: string): Mode {
  const mode = MODES.find(m => m === value)
  if (mode) return mode
  throw new WiregateError(
    `input 'mode' is ${JSON.stringify(value)}: want gate (run the gate, or one shard of it), plan (split the change over a matrix), merge (one verdict from the shards' parts), publish (post a gating run's report, on workflow_run) or approve (apply a pull request's /wiregate comments, on issue_comment)`
  )
}

function parseBool(name: string, value: string): boolean {
  if (/^true$/i.test(value)) return true
  if (/^false$/i.test(value)) return false
  throw new WiregateError(`input '${name}' is ${JSON.stringify(value)}: want true or false`)
}
