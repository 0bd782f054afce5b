// Publish and approve modes read GitHub on events a pull request can
// cause as often as it likes (an `edited` event re-runs publish without a
// push), with the repository's token and its hourly rate limit. So one run
// reads at most a fixed number of REST calls, pages included; past it, it
// stops reading and fails closed: what it has not read could change the
// verdict. Writing what it decided (a status, the comment) is not reading.
import type * as github from '@actions/github'
import { WiregateError } from './errors.js'

type Octokit = ReturnType<typeof github.getOctokit>

/** The most REST reads one publish or approve run makes, pages included. */
export const CALL_BUDGET = 100

/** BudgetSpent is a run that would read past CALL_BUDGET. */
export class BudgetSpent extends WiregateError {}

/** The one line of a spent budget: the status's description and the log's. */
export const BUDGET_SPENT = `wiregate stopped reading GitHub at ${CALL_BUDGET} API calls (pages included): this pull request needs more, so nothing is decided`

/** budgeted counts octokit's reads and refuses the one past limit. */
export function budgeted(octokit: Octokit, limit = CALL_BUDGET): Octokit {
  let reads = 0
  octokit.hook.before('request', options => {
    if (options.method !== 'GET' && options.method !== 'HEAD') return
    reads++
    if (reads > limit) throw new BudgetSpent(BUDGET_SPENT)
  })
  return octokit
}
