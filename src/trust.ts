// Whether a fork's report can be trusted at all: a pull request from a
// fork runs the gating workflow as its own head has it, so a head that
// changes that workflow, an action or script it runs from the repository,
// a tool or buf plugin the run could execute, or wiregate.yaml can upload
// any report it likes. Publish and approve modes then post no verdict of
// it (docs/action.md, trust model). These are the rules; producer.ts reads
// what they need from GitHub.
import { posix } from 'node:path'
import { parse } from 'yaml'

/** The commit status and the comment's first line for such a report. */
export const CHANGED_WORKFLOW = 'the workflow that produced this report is changed by this pull request: a maintainer re-runs it after review'

/** configPath is wiregate.yaml's path in the repository, under the
 * working-directory input (the gated root). */
export function configPath(workingDirectory: string): string {
  return posix.normalize(`${workingDirectory.trim() || '.'}/wiregate.yaml`).replace(/^\.\//, '')
}

/** yamlOf is a YAML file's value, as GitHub and buf read it (flow style,
 * quoted keys, anchors, merge keys); undefined when it does not parse. */
function yamlOf(text: string): unknown {
  try {
    return parse(text, { merge: true, maxAliasCount: 1000 }) as unknown
  } catch {
    return undefined
  }
}

/** objectOf is v when it is a mapping, else an empty one. */
function objectOf(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {}
}

/** valuesOf are the values of every key named key at any depth of v. */
function valuesOf(v: unknown, key: string, out: unknown[] = []): unknown[] {
  if (Array.isArray(v)) {
    for (const x of v) valuesOf(x, key, out)
  } else if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (k === key) out.push(x)
      valuesOf(x, key, out)
    }
  }
  return out
}

/** inRepo is a path as the repository names it; "" (the whole repository)
 * for one that is the root or leaves it. */
function inRepo(path: string): string {
  const p = posix.normalize(path).replace(/^\.\//, '').replace(/\/+$/, '')
  return p === '.' || p === '' || p.startsWith('../') || p === '..' || p.startsWith('/') ? '' : p
}

/** localUses are what a workflow or an action runs from its own
 * repository: every `uses: ./…` at any depth, as a path ("" for `uses: ./`,
 * the repository itself): a step's action, a job's reusable workflow, a
 * composite action's step. Undefined when the file does not parse: then
 * nobody can say what it runs. */
export function localUses(yaml: string): string[] | undefined {
  const doc = yamlOf(yaml)
  if (doc === undefined) return undefined
  const uses = valuesOf(doc, 'uses').filter((u): u is string => typeof u === 'string').map(u => u.trim())
  return [...new Set(uses.filter(u => u === '.' || u.startsWith('./')).map(inRepo))].sort()
}

/** actionRuns are the files an action's action.yml (in dir) runs beyond
 * its steps: a JavaScript action's main, pre and post, a Docker action's
 * Dockerfile; paths may leave dir (`main: ../../dist/index.js`).
 * Undefined when it does not parse. */
export function actionRuns(yaml: string, dir: string): string[] | undefined {
  const doc = yamlOf(yaml)
  if (doc === undefined) return undefined
  const runs: Record<string, unknown> = objectOf(objectOf(doc).runs)
  const files = ['main', 'pre', 'post', 'image'].map(k => runs[k]).filter((f): f is string => typeof f === 'string' && !f.startsWith('docker://'))
  return files.map(f => inRepo(posix.join(dir, f)))
}

/** The files buf reads plugin declarations from: a module's or
 * workspace's config, generation templates, policies. */
export const BUF_CONFIGS = ['buf.yaml', 'buf.work.yaml', 'buf.gen.yaml', 'buf.policy.yaml']

/** isBufConfig says whether path is one of BUF_CONFIGS, anywhere. */
export function isBufConfig(path: string): boolean {
  return BUF_CONFIGS.includes(posix.basename(path))
}

/** What a buf config declares to run. */
export interface Plugins {
  /** each declaration as written (its JSON), to compare base and head */
  declared: string[]
  /** every path a declaration may resolve to: each name or path it gives
   * (plugin, local, path), from the config's directory and from the
   * repository's root */
  paths: string[]
}

/** pluginsOf are the plugins a buf config at path declares (a check
 * plugin's `plugin:` and its `options:`, a template's `local:`, `plugin:`,
 * `path:` and `opt:`, a policy's `policy:`): every string of each, a
 * command list's arguments and every option's value included, since a
 * plugin may run or read any file they name (`plugin: [python3,
 * tools/lint.py]`). Undefined when it does not parse. */
export function pluginsOf(yaml: string, path: string): Plugins | undefined {
  const doc = yamlOf(yaml)
  if (doc === undefined) return undefined
  const entries = [...valuesOf(doc, 'plugins'), ...valuesOf(doc, 'policies')].flatMap((p): unknown[] => (Array.isArray(p) ? (p as unknown[]) : [p]))
  const named = (e: unknown): unknown[] => (typeof e === 'string' ? [e] : ['plugin', 'local', 'path', 'policy', 'options', 'opt'].map(k => objectOf(e)[k]))
  const dir = posix.dirname(path)
  const paths = entries
    .flatMap(named)
    .flatMap(stringsIn)
    // A flag or an option may name its file after `=` (--config=tools/x).
    .flatMap(n => (n.includes('=') ? [n, n.slice(n.indexOf('=') + 1)] : [n]))
    .filter(n => n.trim() !== '')
    .flatMap(n => {
      // From the repository's root too: buf.gen.yaml's paths are the
      // working directory's. A path that leaves the repository from both
      // could be anything in it.
      const inside = [posix.join(dir, n.trim()), n.trim()].map(inRepo).filter(x => x !== '')
      return inside.length > 0 ? inside : ['']
    })
  return { declared: entries.map(e => JSON.stringify(e)), paths: [...new Set(paths)].sort() }
}

/** stringsIn is every string in v, at any depth (a mapping's values). */
function stringsIn(v: unknown): string[] {
  if (typeof v === 'string') return [v]
  if (Array.isArray(v)) return v.flatMap(stringsIn)
  if (v !== null && typeof v === 'object') return Object.values(v).flatMap(stringsIn)
  return []
}

/** newPlugins says whether head declares a plugin base does not, as
 * written: an unreadable head is one. */
export function newPlugins(head: string | undefined, base: string | undefined, path: string): boolean {
  if (head === undefined) return false
  const h = pluginsOf(head, path)
  if (h === undefined) return true
  const b = base === undefined ? undefined : pluginsOf(base, path)
  return h.declared.some(d => !(b?.declared ?? []).includes(d))
}

/** The run a report came from, and what its producer is. */
export interface Producer {
  /** the workflow file (workflow_run.path); undefined when GitHub did not say */
  workflowPath?: string
  /** paths whose files the run executes: local actions and reusable
   * workflows (followed from the base's workflow), the files actions name,
   * every path a buf plugin may resolve to, a buf config the pull request
   * gives a new plugin; "" is the whole repository. Undefined when what the
   * workflow runs could not be read: nothing can be vouched for. */
  paths?: string[]
  /** wiregate.yaml's path */
  config: string
}

/** producerChanges are the files of changed (the pull request's) that the
 * report's producer depends on: the workflow file, anything under
 * .github/, anything under a node_modules/ (tools a search could find),
 * a path of the producer's, wiregate.yaml. */
export function producerChanges(changed: string[], p: Producer): string[] {
  const counts = (f: string): boolean =>
    p.workflowPath === undefined ||
    p.paths === undefined ||
    f === p.workflowPath ||
    f.startsWith('.github/') ||
    f.split('/').includes('node_modules') ||
    f === p.config ||
    p.paths.some(dir => dir === '' || f === dir || f.startsWith(`${dir}/`))
  return [...new Set(changed.filter(counts))].sort()
}

/** Why a fork's report is not trusted: the producer files it changes, or
 * a fact publish could not read whole. */
export type Untrusted = { files: string[] } | { unread: string }

/** untrustedStatus is the commit status's description for it. */
export function untrustedStatus(u: Untrusted): string {
  return 'files' in u ? CHANGED_WORKFLOW : 'publish could not read whole what this pull request changes: a maintainer reviews it and re-runs it'
}
