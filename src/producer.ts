// What of a fork's report publish cannot vouch for, read from GitHub by
// the rules of trust.ts: the pull request's files, listed whole; what the
// base's gating workflow runs from the repository, followed from the base
// through local actions and reusable workflows; and every buf plugin the
// base's buf configs, or the ones the pull request changes, declare. A
// fact that cannot be read whole fails closed.
import { posix } from 'node:path'
import { Unread, type ChangedFiles, type PullFacts, type Tree } from './github.js'
import { actionRuns, isBufConfig, localUses, newPlugins, pluginsOf, producerChanges, type Untrusted } from './trust.js'

/** What reading the producer asks GitHub. */
export interface ProducerApi {
  changedFiles(): Promise<ChangedFiles>
  /** a file's text at a commit, undefined when it has none; Unread when
   * GitHub would not give it whole */
  fileAt(path: string, ref: string): Promise<string | undefined>
  tree(ref: string): Promise<Tree>
}

/** The most workflow and action files followed from one workflow: past
 * it, what the run executes is not read whole. */
const MOST_FOLLOWED = 100

/** untrustedOf is why a fork's report is not trusted, or undefined when it
 * is. workflowPath is the gating workflow's file (undefined: GitHub did
 * not say, and every change counts); config is wiregate.yaml's path. */
export async function untrustedOf(pr: PullFacts, workflowPath: string | undefined, config: string, api: ProducerApi): Promise<Untrusted | undefined> {
  try {
    return await producerOf(pr, workflowPath, config, api)
  } catch (err) {
    // A file GitHub would not give whole is a fact not read: fail closed.
    if (err instanceof Unread) return { unread: err.message }
    throw err
  }
}

async function producerOf(pr: PullFacts, workflowPath: string | undefined, config: string, api: ProducerApi): Promise<Untrusted | undefined> {
  const listed = await api.changedFiles()
  if (listed.listed < pr.changedFiles) {
    return { unread: `GitHub lists ${listed.listed} of the ${pr.changedFiles} files it changes (the pull request files API lists at most 3,000)` }
  }
  const tree = await api.tree(pr.baseSha)
  if (tree.truncated) return { unread: 'GitHub cut its listing of the base commit\'s files (the git trees API), so not every buf config could be read' }
  const runs = workflowPath === undefined ? undefined : await workflowRuns(workflowPath, pr.baseSha, api)
  const plugins = await pluginPaths(tree.paths, listed.files, pr, api)
  const files = producerChanges(listed.files, { workflowPath, config, paths: runs === undefined ? undefined : [...runs, ...plugins] })
  return files.length > 0 ? { files } : undefined
}

/** workflowRuns are the paths the workflow at path (at ref) runs from the
 * repository, followed through every local action and reusable workflow;
 * undefined when one of them does not parse or there are too many. */
async function workflowRuns(path: string, ref: string, api: ProducerApi): Promise<string[] | undefined> {
  const paths = new Set<string>()
  const queue = [path]
  const seen = new Set<string>()
  while (queue.length > 0) {
    const used = queue.shift()!
    if (seen.has(used)) continue
    seen.add(used)
    if (seen.size > MOST_FOLLOWED) return undefined
    // A reusable workflow is its file; an action, its directory's action.yml.
    const workflow = /\.ya?ml$/.test(used)
    let text: string | undefined
    for (const file of workflow ? [used] : [posix.join(used, 'action.yml'), posix.join(used, 'action.yaml')]) {
      text ??= await api.fileAt(file, ref)
    }
    if (text === undefined) continue
    const uses = localUses(text)
    const named = workflow ? [] : actionRuns(text, used)
    if (uses === undefined || named === undefined) return undefined
    for (const u of uses) {
      paths.add(u)
      if (u === '') return ['']
      queue.push(u)
    }
    for (const f of named) paths.add(f)
  }
  return [...paths].sort()
}

/** pluginPaths are the paths whose change changes a buf plugin: every
 * path a plugin of the base's buf configs may resolve to, and, for each
 * buf config the pull request changes, the config itself when it declares
 * a plugin the base's does not, and what the head's declares. */
async function pluginPaths(base: string[], changed: string[], pr: PullFacts, api: ProducerApi): Promise<string[]> {
  const paths = new Set<string>()
  const configs = [...new Set([...base, ...changed].filter(isBufConfig))].sort()
  for (const path of configs) {
    const before = await api.fileAt(path, pr.baseSha)
    for (const p of (before === undefined ? undefined : pluginsOf(before, path))?.paths ?? []) paths.add(p)
    if (!changed.includes(path)) continue
    const after = await api.fileAt(path, pr.headSha)
    if (newPlugins(after, before, path)) paths.add(path)
    for (const p of (after === undefined ? undefined : pluginsOf(after, path))?.paths ?? []) paths.add(p)
  }
  return [...paths].sort()
}
