// Whether a fork's report can be trusted at all: a pull request from a
// fork runs the gating workflow as its own head has it, so a head that
// changes that workflow, an action it runs from the repository, or
// wiregate.yaml can upload any report it likes. Publish and approve modes
// then post no verdict of it (docs/action.md, trust model).
import { posix } from 'node:path'
import { code, join, md, type Md } from './render/markdown.js'

/** The commit status and the comment's first line for such a report. */
export const CHANGED_WORKFLOW = 'the workflow that produced this report is changed by this pull request: a maintainer re-runs it after review'

/** configPath is wiregate.yaml's path in the repository, under the
 * working-directory input (the gated root). */
export function configPath(workingDirectory: string): string {
  return posix.normalize(`${workingDirectory.trim() || '.'}/wiregate.yaml`).replace(/^\.\//, '')
}

/** localActions are the directories of the actions a workflow runs from
 * its own repository (`uses: ./path`); "" for `uses: ./`, the repository
 * itself. A line scan, not a YAML parse: a `uses:` the scan misreads can
 * only add a directory, and every file under .github/ counts anyway. */
export function localActions(workflow: string): string[] {
  const dirs = new Set<string>()
  for (const m of workflow.matchAll(/^[ \t]*(?:-[ \t]*)?uses:[ \t]*["']?(\.[^"'\s#]*)/gm)) {
    const dir = posix.normalize(m[1]!).replace(/\/+$/, '')
    dirs.add(dir === '.' ? '' : dir)
  }
  return [...dirs].sort()
}

/** The run a report came from, as GitHub names it. */
export interface Producer {
  /** the workflow file (workflow_run.path); undefined when GitHub did not say */
  workflowPath?: string
  /** the directories of local actions the base's version of it runs */
  actions: string[]
  /** wiregate.yaml's path */
  config: string
}

/** producerChanges are the files of changed (the pull request's) that the
 * report's producer depends on: the workflow file, anything under
 * .github/, a local action it runs, wiregate.yaml. An unnamed workflow is
 * one nobody can vouch for: every change counts. */
export function producerChanges(changed: string[], p: Producer): string[] {
  const counts = (f: string): boolean =>
    p.workflowPath === undefined ||
    f === p.workflowPath ||
    f.startsWith('.github/') ||
    f === p.config ||
    p.actions.some(dir => dir === '' || f === dir || f.startsWith(`${dir}/`))
  return [...new Set(changed.filter(counts))].sort()
}

/** untrustedNotice heads the comment of a report whose producer the pull
 * request changes: what it changed, and that the report below is unverified. */
export function untrustedNotice(files: string[]): Md {
  const shown = files.slice(0, 10).map(f => code(f))
  const more = files.length > shown.length ? md` and ${files.length - shown.length} more` : md``
  return md`## ⛔ wiregate: ${CHANGED_WORKFLOW}

This pull request comes from a fork and changes ${join(shown, md`, `)}${more}: the run that wrote the report below ran that change, so the report may say anything. The commit status stays failing while this pull request changes them: a maintainer reviews the change, lands it on the base branch on its own, and re-runs this pull request's checks.

What the report says, unverified:`
}
