// A commit status belongs to a commit, not to a pull request: pull requests
// of one head into two bases share it. So each status wiregate sets names
// the base branch its report was judged against, and a branch protection
// rule requires the context of its own branch: one base's green never
// answers for another's.

/** GitHub's longest status context. */
const CONTEXT_LIMIT = 100

/** statusContext is the context of a gating job's report judged against
 * base: "wiregate: CI/gate (main)". */
export function statusContext(workflow: string, job: string, base: string): string {
  const suffix = ` (${base})`
  return `${`wiregate: ${workflow}/${job}`.slice(0, Math.max(0, CONTEXT_LIMIT - suffix.length))}${suffix}`.slice(0, CONTEXT_LIMIT)
}

/** contextsOf are the contexts among contexts that a job of workflow set
 * for base. */
export function contextsOf(contexts: string[], workflow: string, base: string): string[] {
  const prefix = `wiregate: ${workflow}/`
  return contexts.filter(c => c.startsWith(prefix.slice(0, CONTEXT_LIMIT)) && c.endsWith(` (${base})`))
}
