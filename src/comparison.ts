import { WiregateError } from './errors.js'
import type { ActionInputs } from './actionInputs.js'

/** The subset of a GitHub event payload that wiregate reads. */
export interface EventPayload {
  number?: number
  /** push: the pushed ref, refs/heads/<branch> */
  ref?: string
  before?: string
  after?: string
  repository?: { default_branch?: string }
  pull_request?: {
    number?: number
    base?: { sha?: string; ref?: string }
    head?: { sha?: string; ref?: string }
    labels?: Array<{ name?: string } | string>
    user?: { login?: string }
  }
}

export interface EventContext {
  eventName: string
  payload: EventPayload
  /** GITHUB_SHA */
  sha: string
  /** GITHUB_REF_NAME */
  refName: string
}

/** Comparison is what one run compares with what, and for which pull request. */
export interface Comparison {
  /** what to check out as the base: a sha from the event or the base-ref input */
  baseRef: string
  /** the ref name shown in the report */
  baseLabel: string
  /** head's sha and name in the report; wiregate asks git when unset */
  headSha?: string
  headLabel?: string
  /** pull request number to comment on; undefined outside pull requests */
  pullNumber?: number
  labels: string[]
  /** the pull request's author: their own approvals need self-approve */
  prAuthor?: string
  /** append head's exact figures to the history branch: a push to the
   * repository's default branch, the one event whose head is main's next
   * point. Only the event says so; the gate is told with --record-history. */
  recordHistory?: boolean
}

const ZERO_SHA = /^0+$/

/** comparisonOf resolves what is compared with what, from the event and inputs. */
export function comparisonOf(inputs: Pick<ActionInputs, 'baseRef'>, ctx: EventContext): Comparison {
  const override = inputs.baseRef
  switch (ctx.eventName) {
    case 'pull_request':
    case 'pull_request_target': {
      const pr = ctx.payload.pull_request
      const baseSha = pr?.base?.sha
      if (!pr || (!baseSha && !override)) {
        throw new WiregateError(`the ${ctx.eventName} event has no pull_request.base.sha: set input 'base-ref'`)
      }
      return {
        baseRef: override || baseSha!,
        baseLabel: override || pr.base?.ref || baseSha!,
        headSha: pr.head?.sha || ctx.sha,
        headLabel: pr.head?.ref || ctx.refName,
        pullNumber: pr.number ?? ctx.payload.number,
        labels: labelNames(pr.labels),
        prAuthor: pr.user?.login
      }
    }
    case 'push': {
      const before = ctx.payload.before
      if (!override && (!before || ZERO_SHA.test(before))) {
        throw new WiregateError(
          `the push has no previous commit ('before' is ${before ? 'all zeros: a new branch' : 'missing'}): set input 'base-ref'`
        )
      }
      const defaultBranch = ctx.payload.repository?.default_branch
      return {
        baseRef: override || before!,
        baseLabel: override || before!,
        headSha: ctx.payload.after || ctx.sha,
        headLabel: ctx.refName,
        labels: [],
        recordHistory: defaultBranch !== undefined && ctx.payload.ref === `refs/heads/${defaultBranch}`
      }
    }
    default: {
      if (!override) {
        throw new WiregateError(`the ${ctx.eventName || 'unknown'} event names no base commit: set input 'base-ref'`)
      }
      return { baseRef: override, baseLabel: override, headSha: ctx.sha, headLabel: ctx.refName, labels: [] }
    }
  }
}

function labelNames(labels: Array<{ name?: string } | string> | undefined): string[] {
  return (labels ?? []).map(l => (typeof l === 'string' ? l : l.name ?? '')).filter(n => n !== '')
}
