// Every string of a real report replaced by markup an attacker would try,
// rendered as gate mode and publish mode post it: nothing of it may act as
// markup, and all of it must still be there, as text.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import MarkdownIt from 'markdown-it'
import type { ReportArtifact } from '../src/artifact.js'
import type { CommentApi } from '../src/comment.js'
import type { Log } from '../src/log.js'
import { publishRun } from '../src/publish.js'
import { run } from '../src/proc.js'
import { parseReport } from '../src/report.js'
import schema from '../harness/parent/report/report.schema.json' with { type: 'json' }
import { completeReport } from './reports.js'
import { renderer, wiregateBin } from './wiregateBin.js'

const POISON = '<script>x</script> @octocat ![x](https://e.example/x.png) [click](https://e.example) </details></table> <!-- wiregate:wiregate/gate --> # Heading'
const RUN_URL = 'https://github.com/o/r/actions/runs/9'
const MARKER = '<!-- wiregate:wiregate/gate -->' // wiregate render's marker for workflow wiregate, job gate

type Json = null | boolean | number | string | Json[] | { [k: string]: Json }

/** strings lists every string value of v with its path ("messages[0].name"). */
function strings(v: Json, path = ''): Array<[string, string]> {
  if (typeof v === 'string') return [[path, v]]
  if (Array.isArray(v)) return v.flatMap((x, i) => strings(x, `${path}[${i}]`))
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => strings(x, path ? `${path}.${k}` : k))
  return []
}

function setAt(root: Json, path: string, value: string): void {
  const keys = path.match(/[^.[\]]+/g)!
  let o = root as Record<string, Json>
  for (const k of keys.slice(0, -1)) o = o[k] as Record<string, Json>
  o[keys.at(-1)!] = value
}

const normal = (path: string): string => path.replace(/\[\d+\]/g, '[]')

/** poisoned is the report with every string replaced by POISON and an id
 * for its value ("id7x"): the same value gets the same id everywhere, so a
 * message's name still matches its history and its change-set entry. The
 * parser refuses a poisoned word (a kind, a status, the result) or a
 * name of the contract's pattern (a shard's, a part's): those fields keep
 * their value, and words lists their paths. */
function poisoned(raw: Json): { text: string; ids: Map<string, string[]>; words: Set<string>; idOf: Map<string, string> } {
  const root = structuredClone(raw)
  const idOf = new Map<string, string>()
  const ids = new Map<string, string[]>()
  for (const [path, value] of strings(raw)) {
    if (!idOf.has(value)) idOf.set(value, `id${idOf.size}x`)
    const id = idOf.get(value)!
    ids.set(id, [...(ids.get(id) ?? []), normal(path)])
    setAt(root, path, `${POISON} ${id}`)
  }
  const words = new Set<string>()
  for (;;) {
    try {
      parseReport(JSON.stringify(root))
      return { text: JSON.stringify(root), ids, words, idOf }
    } catch (err) {
      const path = /^report\.json: (\S+) (?:is not |does not match the contract)/.exec((err as Error).message)?.[1]
      assert.ok(path, (err as Error).message)
      const original = strings(raw).find(([p]) => p === path)
      assert.ok(original && !words.has(`${path} `), `the parser refused ${path} twice`)
      setAt(root, path, original[1])
      words.add(normal(path))
    }
  }
}

/** The paths of the report present (not null) in its JSON: "messages[].name". */
function present(v: Json, path = '', out = new Set<string>()): Set<string> {
  if (Array.isArray(v)) v.forEach(x => present(x, `${path}[]`, out))
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (x === null) continue
      const p = path ? `${path}.${k}` : k
      out.add(p)
      present(x, p, out)
    }
  }
  return out
}

/** outsideCode is markdown without its fenced blocks and code spans (whose
 * content is literal text): what is left is what GitHub reads as markup. */
function outsideCode(markdown: string): string {
  const noFences = markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '')
  let out = ''
  for (let i = 0; i < noFences.length; ) {
    const run = /^`+/.exec(noFences.slice(i))?.[0]
    if (!run || (i > 0 && noFences[i - 1] === '\\')) {
      out += noFences[i++]
      continue
    }
    // A code span closes at the next run of exactly as many backticks.
    const close = new RegExp(`(?<!\`)${run}(?!\`)`, 'g')
    close.lastIndex = i + run.length
    const end = close.exec(noFences)
    if (!end) {
      out += run
      i += run.length
      continue
    }
    out += '<code/>'
    i = end.index + run.length
  }
  return out
}

/** A < that does not open one of the renderer's own tags; and where its headings start. */
const NOT_OWN_TAG = /<(?!(\/?(details|summary|sub)|br|code\/)>)/g
const OWN_HEADING = /^#{2,4} (✅ wiregate|❌ wiregate|⛔ wiregate|Schema checks|Approvals|Not measured|Changed through|<code\/>)/

/** inert checks a rendered comment or summary: nothing of POISON acts as
 * markup, and it still shows. */
function inert(body: string, ids: Map<string, string[]>, where: string, notShown: Set<string>): void {
  assert.equal(body.split('<!--').length - 1, body.startsWith(MARKER) ? 1 : 0, `${where}: one sticky marker at most, first`)
  const outside = outsideCode(body.startsWith(MARKER) ? body.slice(MARKER.length) : body).replaceAll(`[run](${RUN_URL})`, '').replaceAll(`[this run](${RUN_URL})`, '')
  for (const m of outside.matchAll(NOT_OWN_TAG)) assert.fail(`${where}: a < that is not the renderer's: ${outside.slice(m.index - 40, m.index + 40)}`)
  // Escaped brackets (\[, \]) open and close nothing.
  assert.doesNotMatch(outside, /!\[/, `${where}: an image`)
  assert.doesNotMatch(outside, /(?<!\\)\]\(/, `${where}: a link`)
  assert.doesNotMatch(outside, /(?<!\u200b)@octocat/, `${where}: a live mention`)
  for (const line of outside.split('\n').filter(l => /^ {0,3}#/.test(l))) assert.match(line, OWN_HEADING, `${where}: a heading that is not the renderer's`)
  // Rendered as GitHub would (CommonMark, GFM tables, bare links): no element but the renderer's.
  const html = new MarkdownIt({ html: true, linkify: true }).render(body)
  const elements = new Set([...html.matchAll(/<([a-z0-9]+)[\s>]/g)].map(m => m[1]!))
  for (const e of elements) assert.ok(['h2', 'h3', 'h4', 'p', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'code', 'pre', 'details', 'summary', 'sub', 'br', 'ul', 'li', 'blockquote', 'strong', 'a'].includes(e), `${where}: <${e}>`)
  assert.deepEqual([...html.matchAll(/<a href="([^"]*)"/g)].map(m => m[1]).filter(h => h !== RUN_URL), [], `${where}: a link that is not the run's`)
  assert.equal((html.match(/<details>/g) ?? []).length, (html.match(/<\/details>/g) ?? []).length, `${where}: every <details> closed once`)
  // Still there, escaped: the whole of POISON as inline text at least once,
  // and each value's id after POISON's last word wherever the value shows.
  assert.ok(body.includes('&lt;script&gt;x&lt;/script&gt; \u200b@\u200boctocat !\\[x\\](https:/\u200b/e.example/x.png) \\[click\\](https:/\u200b/e.example) &lt;/details&gt;&lt;/table&gt; &lt;!-- wiregate:wiregate/gate --&gt; # Heading'), `${where}: POISON as text`)
  // What the budget cut, the cut note says: its fields are not dropped silently.
  const cut = /✂️ Cut to fit: ([^.]*)\./.exec(body)?.[1]?.split(', ') ?? []
  const cutFields = (p: string): boolean => cut.some(c => (CUT_FIELDS[c] ?? []).some(prefix => p.startsWith(prefix)))
  const dropped = [...ids].filter(([id, paths]) => !paths.every(p => notShown.has(p) || cutFields(p)) && !new RegExp(`Heading ${id}\\b`).test(body))
  assert.deepEqual(dropped.map(([, paths]) => paths.join(', ')), [], `${where}: values dropped`)
}

/** Fields the comment does not show, whatever their value (the renderer
 * reads them as keys, or not at all). */
const NOT_SHOWN = new Set([
  'messages[].formats[].metrics[].name', // a lookup key: encode, decode
  'messages[].added_content.formats[].figures[].unit', // its metric says it (the column's header)
  'messages[].formats[].metrics[].delta', // benchstat's text has it
  // shown under its cpu violation, found by the violation's subject, which
  // the poison replaces (test/profiles.test.ts poisons the names themselves)
  'messages[].formats[].metrics[].functions[].name',
  'pipeline[].broker', // the environment says which broker
  'pipeline[].broker_reason',
  'env.bench_pin',
  'cpu_cost.mode',
  'breaking_against.input',
  'breaking_against.sha',
  'history.messages[].commits[].date',
  'history.messages[].commits[].ref', // the chart's title names the newest one's branch
  'findings[].against', // a row per release, by the release's ref
  'violations[].against',
  'violations[].file', // annotations, not the comment
  'violations[].detail (grouped)', // a schema element's row says its changes in words
  'violations[].approve_with (grouped)', // … and approves them with its own line
  ...['new_fields', 'new_oneof_members', 'renamed', 'removed'].map(l => `messages[].records.${l}[].was`),
  'elements[].against', // its violations' rows name the release
  'skipped[].side',
  // whose rules judged: report.json's and the tools stage's; the comment
  // states the change, and counts what head's own rules alone find
  'buf_rules.from[]',
  ...['file', 'line', 'column', 'rule', 'message', 'against'].map(f => `buf_rules.head_only[].${f}`),
  'plan.bench.benchtime', // the bench note says what the budget made of it
  // A field's number: its name says which it is. Kinds are a regenerated
  // field's (from → to) and names a renamed one's; the other lists have none.
  ...['new_fields', 'regenerated', 'new_oneof_members', 'renamed', 'removed'].map(l => `messages[].records.${l}[].number`),
  ...['new_fields', 'new_oneof_members', 'removed'].flatMap(l => [`messages[].records.${l}[].from`, `messages[].records.${l}[].to`]),
  'exit_reason', // the commit status's description
  'rules.labels[]', // the verdict's inputs: the comment shows what they decided
  'rules.config.source',
  'rules.config.overrides[].message',
  'rules.config.overrides[].format',
  'rules.config.ignore[].subject', // ignored[] shows what was ignored, with its reason
  'rules.config.ignore[].reason',
  'shard.parts[][]', // a merge reads them; a part's comment names its own messages
  'shard.split',
  'shard.change',
  'shard.inputs',
  'shard.harness',
  'shard.name', // the matrix's name of the part: a part's comment is the merge's to write
  'shard.artifact', // the name the part uploads under (the action's, not the comment's)
  // The approvals' inputs: approvals[] and each violation's approval show what they decided.
  'rules.comments[].body',
  'rules.comments[].created_at',
  'rules.comments[].updated_at',
  'rules.comments[].url',
  'rules.authors[].permission',
  'rules.authors[].teams[]',
  'rules.authors[].bot',
  'rules.labeled[].label', // approvals[] says what each label did, by whom
  'rules.labeled[].by',
  'rules.config.approvers[]',
  'rules.pr_author',
  'violations[].approved.at', // shown as its date, the first 10 characters
  // A link only when it is a pull request comment's URL (markdown.commentLink): a poisoned one is dropped.
  'violations[].approved.url',
  'approvals[].url'
])

/** The fields each kind of detail the budget may cut shows (budget.ts's CUTS words). */
const CUT_FIELDS: Record<string, string[]> = {
  'benchstat text': ['benchstat'],
  'noise floors': ['messages[].formats[].metrics[].unit', 'messages[].formats[].metrics[].mde_reason', 'pipeline[].mde_reason'],
  'stage timings': ['stages[]'],
  environment: ['env.', 'cpu_cost.tool', 'cpu_cost.installed'],
  'ignored metrics': ['ignored[]'],
  'folded name lists': ['change.', 'plan.', 'history.carried', 'history.unreached', 'findings[]', 'skipped[]']
}

/** contractPaths are the paths of every field report.schema.json declares
 * ("messages[].name"; a map's values as "coverage.cut.*"). */
function contractPaths(): Set<string> {
  type S = { $ref?: string; properties?: Record<string, S>; items?: S; oneOf?: S[]; anyOf?: S[]; additionalProperties?: S | boolean }
  const defs = (schema as { $defs: Record<string, S> }).$defs
  const out = new Set<string>()
  const walk = (s: S, path: string, seen: Set<string>): void => {
    if (s.$ref) {
      const name = s.$ref.replace('#/$defs/', '')
      if (seen.has(name)) return
      return walk(defs[name]!, path, new Set([...seen, name]))
    }
    for (const x of [...(s.oneOf ?? []), ...(s.anyOf ?? [])]) walk(x, path, seen)
    if (s.items) walk(s.items, `${path}[]`, seen)
    if (typeof s.additionalProperties === 'object') {
      out.add(`${path}.*`)
      walk(s.additionalProperties, `${path}.*`, seen)
    }
    for (const [k, x] of Object.entries(s.properties ?? {})) {
      const p = path ? `${path}.${k}` : k
      out.add(p)
      walk(x, p, seen)
    }
  }
  walk({ $ref: '#/$defs/Report' }, '', new Set())
  return out
}

test('the complete report holds every field of the contract, so the poisoned one exercises them all', () => {
  const has = new Set([...present(JSON.parse(JSON.stringify(completeReport())) as Json)].map(p => p.replace(/^(coverage\.cut|costs\[\]\.noise)\.[^.[]+/, '$1.*')))
  assert.deepEqual([...contractPaths()].filter(p => !has.has(p)).sort(), [], 'fields of report.schema.json that completeReport() lacks: add them there')
})

test('every string of a real report, poisoned, is inert in gate mode and publish mode, and still shown', async () => {
  const raw = JSON.parse(JSON.stringify(completeReport())) as Json
  const { text, ids, words, idOf } = poisoned(raw)
  // A violation grouped in a schema element shows as the element's row:
  // its changes in words and its rule, not buf's sentence or its own line.
  const complete = completeReport()
  const grouped = new Set((complete.elements ?? []).flatMap(e => e.violations))
  for (const v of complete.violations.filter(v => v.id && grouped.has(v.id))) {
    for (const [field, value] of [['detail', v.detail], ['approve_with', v.approve_with]] as const) {
      const id = value === undefined ? undefined : idOf.get(value)
      if (id) ids.set(id, ids.get(id)!.map(p => (p === `violations[].${field}` ? `violations[].${field} (grouped)` : p)))
    }
  }
  assert.deepEqual(
    [...words].sort(),
    ['buf_rules.head_only[].kind', 'change.measure', 'coverage.expected[]', 'elements[].kind', 'findings[].kind', 'merged.missing_names[]', 'messages[].added_content.formats[].figures[].metric', 'messages[].formats[].metrics[].functions[].kind', 'messages[].formats[].metrics[].noise_floor_from', 'messages[].status', 'result', 'shard.artifact', 'shard.name', 'stages[].name', 'violations[].kind'],
    'only words stay unpoisoned'
  )
  const report = parseReport(text)
  const render = await renderer()
  const markdown = await run(await wiregateBin(), ['render', '--report=-', `--run-url=${RUN_URL}`], { input: text })
  assert.equal(markdown.code, 0, markdown.stderr)
  // NOT_SHOWN fields and stage names aside, every value shows in the whole report…
  const shownAnywhere = new Set([...NOT_SHOWN, ...words])
  inert(markdown.stdout, ids, 'report.md', shownAnywhere)
  inert(await render.summary(text, RUN_URL), ids, 'job summary', shownAnywhere)
  // …and in the comment gate mode posts (main.ts)…
  const gate = await render.comment({ workflow: 'wiregate', job: 'gate', runUrl: RUN_URL, report: text })
  inert(gate, ids, 'gate comment', shownAnywhere)

  // …and in the one publish mode posts from the artifact.
  const posted: string[] = []
  const comments: CommentApi = {
    list: () => Promise.resolve([]),
    create: body => (posted.push(body), Promise.resolve({ id: 1 })),
    update: () => Promise.reject(new Error('no comment to update'))
  }
  const log: Log = { info: () => undefined, warning: () => undefined, error: m => assert.fail(m) }
  const artifact: ReportArtifact = { id: 1, name: 'wiregate-report-gate', job: 'gate', size: text.length }
  const head = 'c'.repeat(40)
  const code = await publishRun(
    { id: 9, name: 'wiregate', event: 'pull_request', conclusion: 'success', headSha: head, headBranch: 'f', headOwner: 'fork', htmlUrl: RUN_URL },
    {
      openPullsWithHead: () => Promise.resolve([{ number: 5, headSha: head, baseSha: report.base.sha, baseRef: 'main' }]),
      statusContexts: () => Promise.resolve([]),
      comments: () => comments,
      setStatus: () => Promise.resolve(),
      reportArtifacts: () => Promise.resolve([artifact]),
      download: () => Promise.resolve(text),
      judge: (_pull, text, report) => Promise.resolve({ report, text }),
      comment: c => render.comment(c)
    },
    log,
    { comment: true }
  )
  assert.equal(code, 0)
  assert.equal(posted.length, 1)
  assert.ok(posted[0]!.startsWith(`${MARKER}\n## `), posted[0]!.slice(0, 200))
  inert(posted[0]!, ids, 'publish comment', shownAnywhere)
})
