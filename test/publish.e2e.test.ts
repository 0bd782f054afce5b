// Publish mode end to end: dist/index.js on workflow_run events, reading
// artifacts that a separate process uploaded through the real artifact
// client (as a gating run, or a forger, would) to the stand-in API.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, before, beforeEach, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import MarkdownIt from 'markdown-it'
import { parseReport } from '../src/report.js'
import { BUDGET_SPENT, CALL_BUDGET } from '../src/budget.js'
import { CHANGED_WORKFLOW } from '../src/trust.js'
import { BASE_SHA, FakeGitHub } from './fakeGitHub.js'
import { runtimeToken } from './runtimeToken.js'
import { scratch } from './scratch.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const entry = join(root, 'dist', 'index.js')
const fixture = (name: string): string => readFileSync(join(root, 'test', 'fixtures', `${name}.json`), 'utf8')

const FORK_HEAD = 'f'.repeat(40)
const OTHER_HEAD = 'e'.repeat(40)
const MARKER = '<!-- wiregate:CI/wiregate -->' // wiregate render's marker for workflow CI, job wiregate
const CONTEXT = 'wiregate: CI/wiregate (main)'

let api: FakeGitHub
let apiUrl: string
let nextRun = 100

before(async () => {
  api = new FakeGitHub()
  apiUrl = await api.start()
})

after(async () => {
  await api?.stop()
})

beforeEach(() => {
  // PR #5 comes from a fork; PR #7 is a same-repo PR a forged report names.
  api.pulls = [
    { number: 5, state: 'open', head: { sha: FORK_HEAD, ref: 'feature', owner: 'fork' } },
    { number: 7, state: 'open', head: { sha: OTHER_HEAD, ref: 'pr-7', owner: 'o' } }
  ]
  api.comments = []
  api.statuses = []
  api.requests = []
})

/** upload puts files into an artifact of run runId through the real
 * artifact client, in a process of its own (as a gating job's step). */
async function upload(runId: number, name: string, files: Record<string, string | Buffer>): Promise<void> {
  const dir = scratch('wiregate-publish-upload-')
  const paths = Object.entries(files).map(([file, content]) => {
    writeFileSync(join(dir, file), content)
    return join(dir, file)
  })
  const script = `
    import { DefaultArtifactClient } from '@actions/artifact'
    const [name, dir, ...files] = process.argv.slice(1)
    await new DefaultArtifactClient().uploadArtifact(name, files, dir)`
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, name, dir, ...paths], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      ACTIONS_RUNTIME_TOKEN: runtimeToken(String(runId)),
      ACTIONS_RESULTS_URL: `${apiUrl}/`,
      GITHUB_SERVER_URL: 'https://github.com'
    }
  })
  let out = ''
  child.stdout.on('data', d => (out += d))
  child.stderr.on('data', d => (out += d))
  const code = await new Promise<number>(resolve => child.on('close', c => resolve(c ?? -1)))
  assert.equal(code, 0, `upload failed:\n${out}`)
}

/** uploadReport uploads one report.json as the gating job "wiregate" would. */
async function uploadReport(report: string | Buffer, extra: Record<string, string | Buffer> = {}): Promise<number> {
  const runId = nextRun++
  await upload(runId, 'wiregate-report-wiregate', { 'report.json': report, ...extra })
  return runId
}

function runUrl(runId: number): string {
  return `https://github.com/o/r/actions/runs/${runId}`
}

/** workflowRun is the event GitHub sends when the gating workflow "CI" completes. */
function workflowRun(runId: number, over: Record<string, unknown> = {}): object {
  return {
    action: 'completed',
    workflow_run: {
      id: runId,
      name: 'CI',
      event: 'pull_request',
      status: 'completed',
      conclusion: 'failure',
      head_sha: FORK_HEAD,
      head_branch: 'feature',
      head_repository: { full_name: 'fork/r', owner: { login: 'fork' } },
      html_url: runUrl(runId),
      // GitHub leaves this empty for a fork PR.
      pull_requests: [],
      ...over
    }
  }
}

interface PublishRun {
  code: number
  stdout: string
  errors: string[]
}

async function publish(event: object, eventName = 'workflow_run', inputs: Record<string, string> = {}): Promise<PublishRun> {
  const dir = scratch('wiregate-publish-run-')
  writeFileSync(join(dir, 'event.json'), JSON.stringify(event))
  for (const f of ['summary.md', 'output.txt']) writeFileSync(join(dir, f), '')
  const home = process.env.HOME ?? dir
  const child = spawn(process.execPath, [entry], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '',
      // Publish mode decides the report again with wiregate (Go): built
      // once into a tool cache the tests share.
      HOME: home,
      GOPATH: process.env.GOPATH ?? join(home, 'go'),
      GOCACHE: process.env.GOCACHE ?? join(home, '.cache', 'go-build'),
      GOFLAGS: process.env.GOFLAGS ?? '',
      GOPROXY: process.env.GOPROXY ?? '',
      RUNNER_TOOL_CACHE: join(tmpdir(), 'wiregate-e2e-toolcache'),
      GITHUB_ACTIONS: 'true',
      GITHUB_EVENT_NAME: eventName,
      GITHUB_EVENT_PATH: join(dir, 'event.json'),
      GITHUB_REPOSITORY: 'o/r',
      GITHUB_API_URL: apiUrl,
      GITHUB_SERVER_URL: 'https://github.com',
      // The publish workflow's own name and job: the marker must not use them.
      GITHUB_WORKFLOW: 'wiregate publish',
      GITHUB_JOB: 'publish',
      GITHUB_RUN_ID: '9000',
      GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
      GITHUB_OUTPUT: join(dir, 'output.txt'),
      RUNNER_TEMP: dir,
      'INPUT_GITHUB-TOKEN': 'publish-token',
      INPUT_COMMENT: 'true',
      INPUT_MODE: 'publish',
      INPUT_CACHE: 'false',
      'INPUT_BASE-REF': '',
      ...inputs
    }
  })
  let stdout = ''
  child.stdout.on('data', d => (stdout += d))
  child.stderr.on('data', d => (stdout += d))
  const code = await new Promise<number>(resolve => child.on('close', c => resolve(c ?? -1)))
  return { code, stdout, errors: stdout.split('\n').filter(l => l.startsWith('::error')) }
}

/** refusedOnce checks a refusal: exit 2, one one-line error with the reason,
 * the PR the API names gets wiregate's own refusal (no word of the report),
 * an error status on the run's head, and nothing anywhere else. */
function refusedOnce(run: PublishRun, runId: number, reason: RegExp): void {
  assert.equal(run.code, 2, run.stdout)
  assert.equal(run.errors.length, 1, run.stdout)
  assert.match(run.errors[0]!, new RegExp(`^::error title=wiregate refused a report::refused the report of run ${runId}: `))
  assert.match(run.errors[0]!, reason)
  assert.doesNotMatch(run.errors[0]!, /%0A/, 'one line')
  assert.deepEqual(api.comments.map(c => c.issue), [5])
  const body = api.comments[0]!.body
  assert.ok(body.startsWith(`${MARKER}\n## ⛔ wiregate refused the report of [run ${runId}](${runUrl(runId)})`), body)
  assert.ok(body.length < 2000, `the refusal quotes nothing of the report (${body.length} characters)`)
  assert.deepEqual(api.statuses.map(s => [s.sha, s.state, s.context]), [[FORK_HEAD, 'error', CONTEXT]])
}

test('publish posts the run\'s report on the PR the API names for the run\'s head, re-rendered, and sets the status; a second run edits the same comment', async () => {
  const runId = await uploadReport(fixture('fail'))
  const run = await publish(workflowRun(runId))
  assert.equal(run.code, 0, run.stdout)
  assert.ok(api.requests.includes('GET /repos/o/r/pulls'), 'the PR is looked up by its head')
  assert.deepEqual(api.comments.map(c => c.issue), [5])
  // Decided again from its figures (the same violations), and rendered by the action.
  const stored = parseReport(fixture('fail'))
  assert.match(api.comments[0]!.body, /^<!-- wiregate:CI\/wiregate -->\n## ❌ wiregate: fail — 4 breaking changes/)
  for (const v of stored.violations) assert.ok(api.comments[0]!.body.includes(`\`${v.id}\``), `the comment lacks ${v.id}`)
  assert.deepEqual(api.statuses, [{ sha: FORK_HEAD, state: 'failure', context: CONTEXT, description: `fail: ${stored.violations.length} violations`, target_url: runUrl(runId) }])

  const again = await uploadReport(fixture('pass'))
  const second = await publish(workflowRun(again, { conclusion: 'success' }))
  assert.equal(second.code, 0, second.stdout)
  assert.equal(api.comments.length, 1, 'the same sticky comment is edited')
  assert.match(api.comments[0]!.body, /^<!-- wiregate:CI\/wiregate -->\n## ✅ wiregate: pass/)
  assert.deepEqual(api.statuses.map(s => s.state), ['failure', 'success'])
})

test('what the artifact says of a PR never decides where the comment goes: a forged head is posted on the PR the event and the API name; PR numbers are not in the contract and are refused', async () => {
  const forgedHead = { ...(JSON.parse(fixture('fail')) as Record<string, unknown>), head: { ref: 'pr-7', sha: OTHER_HEAD } }
  const runId = await uploadReport(JSON.stringify(forgedHead))
  const run = await publish(workflowRun(runId))
  assert.equal(run.code, 0, run.stdout)
  assert.deepEqual(api.comments.map(c => c.issue), [5])
  assert.equal(api.commentsOn(7).length, 0)
  assert.deepEqual(api.statuses.map(s => s.sha), [FORK_HEAD])

  api.comments = []
  api.statuses = []
  const numbered = { ...(JSON.parse(fixture('fail')) as Record<string, unknown>), number: 7, pull_request: { number: 7 }, pull_number: 7 }
  const refusedId = await uploadReport(JSON.stringify(numbered))
  refusedOnce(await publish(workflowRun(refusedId)), refusedId, /report\.json of artifact wiregate-report-wiregate: number is not in the contract/)
  assert.equal(api.commentsOn(7).length, 0)
  assert.ok(!api.requests.some(r => r.includes('/issues/7/')), api.requests.join('\n'))
})

test('a 10 MB report.json is refused, though its zip is small', async () => {
  const huge = JSON.stringify({ ...(JSON.parse(fixture('pass')) as Record<string, unknown>), benchstat: 'x'.repeat(10 << 20) })
  const runId = await uploadReport(huge)
  const zip = api.artifacts.find(a => a.runId === runId)!.zip
  assert.ok(zip.length < 1 << 20, `the forged zip is ${zip.length} bytes: under the zip limit, so the report limit is what refuses it`)
  refusedOnce(await publish(workflowRun(runId)), runId, /artifact wiregate-report-wiregate of run \d+ holds a report\.json of 10\d{6} bytes, more than the limit of 4194304/)
})

test('an artifact with a 10 MB markdown beside report.json is refused before it is downloaded', async () => {
  const runId = await uploadReport(fixture('pass'), { 'report.md': randomBytes(10 << 20) })
  const run = await publish(workflowRun(runId))
  refusedOnce(run, runId, /is \d+ bytes, more than the limit of 4194304/)
  assert.ok(!api.requests.some(r => r.startsWith('GET /blobs/download/')), 'not downloaded')
})

test('an artifact holding another file beside report.json is refused', async () => {
  const runId = await uploadReport(fixture('pass'), { 'report.md': '# ✅ all good' })
  refusedOnce(await publish(workflowRun(runId)), runId, /holds 2 files; the gate uploads only report\.json/)
})

test('invalid JSON is refused without quoting it', async () => {
  const runId = await uploadReport('{"version": 1, "result": "pass", <script>alert(1)</script>')
  const run = await publish(workflowRun(runId))
  refusedOnce(run, runId, /report\.json of artifact wiregate-report-wiregate is not valid JSON/)
  assert.doesNotMatch(run.stdout, /<script>/)
})

test('a report of another version is refused', async () => {
  const runId = await uploadReport(JSON.stringify({ ...(JSON.parse(fixture('pass')) as Record<string, unknown>), version: 2 }))
  refusedOnce(await publish(workflowRun(runId)), runId, /has version 2, this action reads version 1/)
})

test('a field of the wrong type is refused, naming the field and not its value', async () => {
  const report = JSON.parse(fixture('fail')) as { violations: Array<Record<string, unknown>> }
  report.violations[1]!.allowed = '<b>yes</b>'
  const runId = await uploadReport(JSON.stringify(report))
  const run = await publish(workflowRun(runId))
  refusedOnce(run, runId, /violations\[1\]\.allowed is not true or false/)
  assert.doesNotMatch(run.stdout, /<b>yes/)
})

test('a run whose head sha matches no open PR publishes nothing and downloads nothing', async () => {
  const runId = await uploadReport(fixture('fail'))
  const stale = 'd'.repeat(40)
  const run = await publish(workflowRun(runId, { head_sha: stale }))
  assert.equal(run.code, 0, run.stdout)
  assert.match(run.stdout, new RegExp(`::warning::no open pull request has head fork:feature at ${stale} \\(closed, or pushed to since run ${runId}\\): nothing published`))
  assert.deepEqual(api.comments, [])
  assert.deepEqual(api.statuses, [])
  assert.ok(!api.requests.some(r => r.includes('/artifacts')), api.requests.join('\n'))
})

test('a run started by a push publishes nothing', async () => {
  const runId = await uploadReport(fixture('pass'))
  const run = await publish(workflowRun(runId, { event: 'push' }))
  assert.equal(run.code, 0, run.stdout)
  assert.match(run.stdout, new RegExp(`run ${runId} was started by a push event, not a pull request: nothing to publish`))
  assert.deepEqual(api.comments, [])
  assert.deepEqual(api.statuses, [])
})

test('publish mode on another event, or on a workflow_run event without its run, says so in one line, exit 2', async () => {
  const wrongEvent = await publish({ pull_request: { number: 5 } }, 'pull_request')
  assert.equal(wrongEvent.code, 2)
  assert.match(wrongEvent.errors.join('\n'), /mode: publish runs on workflow_run events, this run is a pull_request event/)
  const noRun = await publish({})
  assert.equal(noRun.code, 2)
  assert.match(noRun.errors.join('\n'), /the workflow_run event: workflow_run is not an object/)
  assert.deepEqual(api.comments, [])
  assert.deepEqual(api.statuses, [])
})

test('HTML, scripts, links, mentions and markdown in every string of the report render as text', async () => {
  const report = JSON.parse(fixture('fail')) as {
    messages: Array<{ name: string }>
    violations: Array<{ subject: string; detail: string }>
    findings: Array<{ message: string; rule?: string }>
    env: Record<string, unknown>
    benchstat: string
    ignored?: Array<{ subject: string; reason: string }>
    errors?: string[]
    stages: Array<{ name: string; error?: string }>
    warnings?: string[]
    skipped?: Array<{ message: string; file: string; reason: string; side: string }>
  }
  const evil = 'x</code><img src=x onerror=alert(1)> <script>alert(1)</script> <!-- hidden'
  report.messages[0]!.name = '<script>alert(1)</script>'
  for (const v of report.violations) {
    v.subject = `a\`b${evil}`
    v.detail = `ok\n\n## ✅ wiregate: pass\n[approve](https://evil.example) ![t](https://evil.example/t.png) @everyone www.evil.example <details><summary>${evil}`
  }
  report.findings[0]!.message = `| broken | table |\n\n${evil}`
  report.findings[0]!.rule = '**RULE**'
  report.env.runner = `</details><a href="https://evil.example">x</a>${evil}`
  report.benchstat += `\n\`\`\`\n<script>alert(1)</script>\n</details>\n${evil}\n`
  report.ignored = [{ subject: evil, reason: `$\\color{green}{pass}$ ${evil}` }]
  report.errors = [`# heading ${evil}`]
  report.stages[0]!.error = evil
  report.warnings = [`<!-- ${evil}`]
  report.skipped = [{ message: evil, file: `\`${evil}`, reason: `[x](https://evil.example) ${evil}`, side: evil }]
  const runId = await uploadReport(JSON.stringify(report))
  const run = await publish(workflowRun(runId))
  assert.equal(run.code, 0, run.stdout)
  const body = api.comments[0]!.body
  const html = new MarkdownIt({ html: true, linkify: true }).render(body)
  assert.doesNotMatch(html, /<script|<img/i)
  assert.equal(html.match(/<!--/g)?.length, 1, 'the marker is the only HTML comment')
  assert.equal(html.match(/<h2>/g)?.length, 1, 'the verdict is the only heading of its level')
  assert.equal(html.match(/<h1>/g), null)
  for (const href of html.matchAll(/<a href="([^"]*)"/g)) assert.ok(href[1]!.startsWith(runUrl(runId)), `a link to ${href[1]}`)
  assert.equal(html.match(/<details>/g)?.length, html.match(/<\/details>/g)?.length, 'every <details> is wiregate\'s and closed')
  assert.doesNotMatch(body, /@everyone|www\.evil/, 'mentions and bare links are broken')
  assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/, 'the text is still there, as text')
  // Decided again: the poisoned stage error is an error violation.
  assert.equal(api.statuses[0]!.state, 'error')
})

// Trust: what a fork's run uploads is decided again by the
// base's rules, and a run whose workflow the fork changes is not trusted.

/** withFinding is the pass fixture with one breaking finding and these rules. */
function withFinding(rules: Record<string, unknown> = {}): string {
  const r = JSON.parse(fixture('pass')) as Record<string, unknown> & { rules: { config: Record<string, unknown> } }
  r.findings = [{ kind: 'breaking', file: 'schemas/orders/v1/order.proto', line: 8, column: 1, rule: 'FIELD_NO_DELETE', message: 'Previously present field "2" with name "price" on message "Order" was deleted.' }]
  r.rules = { ...r.rules, config: { ...r.rules.config, ...rules } }
  return JSON.stringify(r)
}

/** A comment event of PR #5 (whose author is api.pulls[0]'s). */
interface CommentEventOf {
  action?: 'created' | 'edited' | 'deleted'
  /** the comment's author; a writer when not given */
  by?: string
  /** an edit's body before it */
  from?: string
  id?: number
}

/** approveMode runs the action in mode: approve on a comment of PR #5:
 * by default a writer's that holds a command. */
async function approveMode(body = '/wiregate approve', e: CommentEventOf = {}): Promise<PublishRun> {
  const by = e.by ?? 'writer'
  const event = {
    action: e.action ?? 'created',
    issue: { number: 5, pull_request: {}, user: { login: api.pulls[0]!.author ?? 'someone' } },
    comment: { id: e.id ?? 1, body, user: { login: by, type: 'User' } },
    ...(e.from !== undefined ? { changes: { body: { from: e.from } } } : {})
  }
  return publish(event, 'issue_comment', { INPUT_MODE: 'approve' })
}

/** ID is an approval id as the comment shows it: whole, 64 bits. */
const ID = 'wg-[0-9a-f]{16}'


const sticky = (): string => api.comments.find(c => c.body.startsWith(MARKER))?.body ?? ''

test('a fork PR that edits the gating workflow: publish posts a failing status with the sentence and says why first; the same PR without the edit publishes as before', async () => {
  api.pulls[0]!.files = ['schemas/orders/v1/order.proto', '.github/workflows/ci.yml']
  const runId = await uploadReport(fixture('pass'))
  const run = await publish(workflowRun(runId, { path: '.github/workflows/ci.yml', conclusion: 'success' }))
  assert.equal(run.code, 0, run.stdout)
  assert.deepEqual(api.statuses.map(s => [s.sha, s.state, s.description]), [[FORK_HEAD, 'failure', CHANGED_WORKFLOW]])
  assert.ok(sticky().startsWith(`${MARKER}\n## ⛔ wiregate: ${CHANGED_WORKFLOW}\n`), sticky().slice(0, 300))
  assert.match(sticky(), /changes `\.github\/workflows\/ci\.yml`: the run that wrote the report below ran that change/)
  assert.ok(api.requests.includes('GET /repos/o/r/pulls/5/files'), api.requests.join('\n'))

  // A local action of the base's workflow, and wiregate.yaml, count too.
  api.contents[`${BASE_SHA}:.github/workflows/ci.yml`] = 'jobs:\n  gate:\n    steps:\n      - uses: ./tools/gate\n'
  for (const files of [['tools/gate/action.yml'], ['wiregate.yaml']]) {
    api.pulls[0]!.files = files
    api.statuses = []
    await publish(workflowRun(await uploadReport(fixture('pass')), { path: '.github/workflows/ci.yml', conclusion: 'success' }))
    assert.deepEqual(api.statuses.map(s => s.state), ['failure'], files.join())
  }

  api.pulls[0]!.files = ['schemas/orders/v1/order.proto']
  api.statuses = []
  const again = await publish(workflowRun(await uploadReport(fixture('pass')), { path: '.github/workflows/ci.yml', conclusion: 'success' }))
  assert.equal(again.code, 0, again.stdout)
  assert.deepEqual(api.statuses.map(s => [s.state, s.description]), [['success', 'pass']])
  assert.match(sticky(), /^<!-- wiregate:CI\/wiregate -->\n## ✅ wiregate: pass/)
  delete api.contents[`${BASE_SHA}:.github/workflows/ci.yml`]
})

test('a same-repository PR that edits the workflow publishes as before: its own run is the base\'s to trust', async () => {
  api.pulls[1]!.files = ['.github/workflows/ci.yml']
  const runId = await uploadReport(fixture('pass'))
  const run = await publish(workflowRun(runId, { path: '.github/workflows/ci.yml', head_sha: OTHER_HEAD, head_branch: 'pr-7', head_repository: { full_name: 'o/r', owner: { login: 'o' } } }))
  assert.equal(run.code, 0, run.stdout)
  assert.deepEqual(api.statuses.map(s => [s.sha, s.state]), [[OTHER_HEAD, 'success']])
})

test('a report with its violations removed, its figures past the thresholds: publish fails it', async () => {
  const forged = { ...(JSON.parse(fixture('fail')) as Record<string, unknown>), violations: [], result: 'pass', exit_code: 0, exit_reason: 'pass' }
  const runId = await uploadReport(JSON.stringify(forged))
  const run = await publish(workflowRun(runId, { path: '.github/workflows/ci.yml' }))
  assert.equal(run.code, 0, run.stdout)
  assert.equal(api.statuses[0]!.state, 'failure')
  assert.match(api.statuses[0]!.description, /^fail: \d+ violations$/)
  assert.match(sticky(), /^<!-- wiregate:CI\/wiregate -->\n## ❌ wiregate: fail/)
})

test('approve mode: a forged artifact whose rules make the author an approver who may approve themselves leaves the status failing and names the difference from the base\'s wiregate.yaml', async () => {
  api.pulls[0]!.author = 'author'
  api.permissions = { author: 'read', writer: 'write' }
  const runId = await uploadReport(withFinding({ approvers: ['author'], self_approve: true }))
  api.runs = [{ id: runId, name: 'CI', headSha: FORK_HEAD }]
  api.contents[`${BASE_SHA}:wiregate.yaml`] = 'thresholds:\n  size: 5%\n'
  try {
    const first = await approveMode()
    assert.equal(first.code, 0, first.stdout)
    const id = new RegExp(`\`/wiregate approve (${ID})\``).exec(sticky())?.[1]
    assert.ok(id, sticky())
    const mine = api.addComment(5, 'author', `/wiregate approve ${id} mine`)
    // By the base's rules the author may not approve: their comment
    // changes no verdict, and approve mode stops after asking who they are.
    api.requests = []
    const statuses = api.statuses.length
    const own = await approveMode(mine.body, { by: 'author', id: mine.id })
    assert.equal(own.code, 0, own.stdout)
    assert.match(own.stdout, /the comment's \/wiregate command is @author's, who may not give it \(the pull request's author cannot approve its own change/)
    assert.deepEqual(api.requests, ['GET /repos/o/r/collaborators/author/permission', 'GET /repos/o/r/pulls/5', `GET /repos/o/r/contents/wiregate.yaml`])
    assert.equal(api.statuses.length, statuses)
    const run = await approveMode()
    assert.equal(run.code, 0, run.stdout)
    assert.equal(api.statuses.at(-1)!.state, 'failure')
    assert.match(sticky(), /^<!-- wiregate:CI\/wiregate -->\n## ❌ wiregate: fail/)
    assert.match(sticky(), /The report's own rules are not the base's wiregate\.yaml with this workflow's inputs \(approvers: \\\["author"\\\], not none; self_approve: true, not false\): the base's rules decided this verdict\./)
    assert.match(sticky(), /did not count: .*cannot approve its own change/)
  } finally {
    api.runs = []
    api.permissions = {}
    api.contents = {}
  }
})

test('approve mode: a writer\'s command in a fenced block, an indented block, a code span or a quote approves nothing; the same command on a plain line approves; a bot with write permission approves nothing', async () => {
  api.permissions = { writer: 'write', 'release-robot': 'write' }
  const runId = await uploadReport(withFinding())
  api.runs = [{ id: runId, name: 'CI', headSha: FORK_HEAD }]
  try {
    await approveMode()
    const id = new RegExp(`\`/wiregate approve (${ID})\``).exec(sticky())?.[1]
    assert.ok(id, sticky())
    const line = `/wiregate approve ${id}`
    for (const body of [`How would one approve?\n\n\`\`\`\n${line}\n\`\`\``, `How would one approve?\n\n    ${line}`, `try \`${line}\``, `> ${line}`]) api.addComment(5, 'writer', body)
    api.addComment(5, 'release-robot', line, 'Bot')
    let run = await approveMode()
    assert.equal(run.code, 0, run.stdout)
    assert.equal(api.statuses.at(-1)!.state, 'failure', sticky())
    assert.match(sticky(), /release-robot.*did not count: .*is a bot: a bot's comment never approves/)
    api.addComment(5, 'writer', `${line} checked with the consumers`)
    run = await approveMode()
    assert.equal(run.code, 0, run.stdout)
    assert.equal(api.statuses.at(-1)!.state, 'success', sticky())
    assert.match(sticky(), /approved by \[@writer\]\(https:\/\/github\.com\/o\/r\/pull\/5#issuecomment-\d+\) on 2026-11-24: checked with the consumers/)
  } finally {
    api.runs = []
    api.permissions = {}
  }
})

// Fail closed: publish and approve fail closed on what they could not read
// whole or that moved while they read it, and on producer code beyond the
// workflow (buf plugins, node_modules/).

/** publishPass publishes a passing report of PR #5's head and returns the
 * run and the states it set. */
async function publishPass(): Promise<{ run: PublishRun; states: string[] }> {
  api.statuses = []
  const run = await publish(workflowRun(await uploadReport(fixture('pass')), { path: '.github/workflows/ci.yml', conclusion: 'success' }))
  return { run, states: api.statuses.map(s => s.state) }
}

test('no green status on what was not checked: 3,000 of 3,001 files listed, a head moved between reads, a report of another base, a buf plugin the fork declares, a node_modules/.bin/buf; the control with every fact in order is green', async () => {
  api.contents[`${BASE_SHA}:.github/workflows/ci.yml`] = 'jobs:\n  gate:\n    steps:\n      - uses: wiregate/wiregate@v0\n'
  api.contents[`${BASE_SHA}:buf.yaml`] = 'version: v2\nmodules:\n  - path: schemas\n'
  try {
    api.pulls[0]!.files = ['schemas/orders/v1/order.proto']
    const control = await publishPass()
    assert.equal(control.run.code, 0, control.run.stdout)
    assert.deepEqual(control.states, ['success'])
    assert.ok(api.requests.includes('GET /repos/o/r/pulls/5/files') && api.requests.filter(r => r === 'GET /repos/o/r/pulls/5').length === 2, 'the pull request is read before and after its files')

    // GitHub lists at most 3,000 files: the workflow edit is the 3,001st.
    api.pulls[0]!.files = [...Array.from({ length: 3000 }, (_, i) => `schemas/gen/m${i}.proto`), '.github/workflows/ci.yml']
    const cut = await publishPass()
    assert.deepEqual(cut.states, ['failure'])
    assert.match(api.statuses[0]!.description, /^publish could not read whole what this pull request changes/)
    assert.match(sticky(), /GitHub lists 3000 of the 3001 files it changes/)

    // The fork pushes while publish lists the files.
    api.pulls[0]!.files = ['schemas/orders/v1/order.proto']
    api.afterRequest = route => {
      if (route === 'GET /repos/o/r/pulls/5/files') api.pulls[0]!.head.sha = OTHER_HEAD
    }
    const before = sticky()
    const moved = await publishPass()
    api.afterRequest = undefined
    api.pulls[0]!.head.sha = FORK_HEAD
    assert.equal(moved.run.code, 0, moved.run.stdout)
    assert.deepEqual(moved.states, ['error'], 'nothing was decided: no earlier green stands on the old head')
    assert.match(api.statuses[0]!.description, /head is e{40}, no longer f{40}/)
    assert.equal(sticky(), before, 'the comment is the newer head\'s to write')
    assert.match(moved.run.stdout, new RegExp(`::warning::pull request #5's head is ${OTHER_HEAD}, no longer ${FORK_HEAD}`))

    // The report was judged against release-1; the pull request now targets another base.
    api.pulls[0]!.baseSha = 'c'.repeat(40)
    const retargeted = await publishPass()
    delete api.pulls[0]!.baseSha
    assert.equal(retargeted.run.code, 2, retargeted.run.stdout)
    assert.deepEqual(retargeted.states, ['error'])
    assert.match(sticky(), /the report was judged against another base than pull request #5's now \(c{40}\)/)

    // A plugin the fork declares in buf.yaml, and its file.
    api.contents[`${FORK_HEAD}:buf.yaml`] = 'version: v2\nmodules:\n  - path: schemas\nplugins:\n  - plugin: ./tools/lint\n'
    api.pulls[0]!.files = ['buf.yaml', 'tools/lint']
    const plugin = await publishPass()
    delete api.contents[`${FORK_HEAD}:buf.yaml`]
    assert.deepEqual(plugin.states, ['failure'])
    assert.match(sticky(), /changes `buf\.yaml`, `tools\/lint`: the run that wrote the report below ran that change/)

    // A buf of the fork's own, where a search of the checkout would find it.
    api.pulls[0]!.files = ['node_modules/.bin/buf', 'schemas/orders/v1/order.proto']
    const tools = await publishPass()
    assert.deepEqual(tools.states, ['failure'])
    assert.match(sticky(), /changes `node_modules\/\.bin\/buf`/)
  } finally {
    api.afterRequest = undefined
    api.contents = {}
  }
})

test('a label the pull request\'s author applied, with self-approve false, allows nothing; the same label applied by a writer allows', async () => {
  api.pulls[0]!.author = 'author'
  api.pulls[0]!.labels = ['wiregate allow breaking']
  api.permissions = { author: 'write', writer: 'write' }
  try {
    api.labelEvents = [{ issue: 5, label: 'wiregate allow breaking', actor: 'author' }]
    await publish(workflowRun(await uploadReport(withFinding()), { path: '.github/workflows/ci.yml' }))
    assert.deepEqual(api.statuses.map(s => s.state), ['failure'], sticky())
    assert.match(sticky(), /@author: label `wiregate allow breaking` did not count: the pull request's author cannot approve its own change/)

    api.statuses = []
    api.labelEvents.push({ issue: 5, label: 'wiregate allow breaking', actor: 'writer' })
    await publish(workflowRun(await uploadReport(withFinding()), { path: '.github/workflows/ci.yml' }))
    assert.deepEqual(api.statuses.map(s => s.state), ['success'], sticky())
  } finally {
    api.labelEvents = []
    api.permissions = {}
  }
})

test('approve mode: a comment without a command makes no API call; an edit that drops a command withdraws its approval; an upper-case revoke revokes', async () => {
  api.permissions = { writer: 'write' }
  const runId = await uploadReport(withFinding())
  api.runs = [{ id: runId, name: 'CI', headSha: FORK_HEAD }]
  try {
    api.requests = []
    const chat = await approveMode('LGTM, though how does one /wiregate anything?\n\n`/wiregate approve wg-0123456789abcdef`')
    assert.equal(chat.code, 0, chat.stdout)
    assert.match(chat.stdout, /the comment holds no \/wiregate command: nothing to decide/)
    assert.deepEqual(api.requests, [], 'no call to GitHub')

    await approveMode()
    const id = new RegExp(`\`/wiregate approve (${ID})\``).exec(sticky())?.[1]
    assert.ok(id, sticky())
    const approval = api.addComment(5, 'writer', `/wiregate approve ${id} planned`)
    await approveMode(approval.body, { id: approval.id })
    assert.equal(api.statuses.at(-1)!.state, 'success', sticky())

    // The writer edits the command away: the edit re-decides.
    const was = approval.body
    approval.body = 'planned, but not yet'
    const edited = await approveMode(approval.body, { action: 'edited', from: was, id: approval.id })
    assert.equal(edited.code, 0, edited.stdout)
    assert.equal(api.statuses.at(-1)!.state, 'failure', sticky())

    approval.body = was
    await approveMode(approval.body, { action: 'edited', from: 'planned, but not yet', id: approval.id })
    assert.equal(api.statuses.at(-1)!.state, 'success', sticky())
    const revoke = api.addComment(5, 'writer', `/WireGate REVOKE ${id}`)
    const revoked = await approveMode(revoke.body, { id: revoke.id })
    assert.equal(revoked.code, 0, revoked.stdout)
    assert.equal(api.statuses.at(-1)!.state, 'failure', sticky())
  } finally {
    api.runs = []
    api.permissions = {}
  }
})

// No stale green, and every fact read whole: a file GitHub answers without
// its content, pull requests of one head into two bases, a run that
// uploaded nothing, a pull request that would cost more reads than a run
// may spend, and approve mode asking no more than decides.

test('a buf.yaml past 1 MB (the contents API answers it with encoding none) is read through the git blobs API, so the plugin it declares is seen; cut there too, it counts as unread: never green', async () => {
  api.contents[`${BASE_SHA}:.github/workflows/ci.yml`] = 'jobs:\n  gate:\n    steps:\n      - uses: wiregate/wiregate@v0\n'
  api.contents[`${BASE_SHA}:buf.yaml`] = 'version: v2\nmodules:\n  - path: schemas\n'
  api.contents[`${FORK_HEAD}:buf.yaml`] = `version: v2\nmodules:\n  - path: schemas\nplugins:\n  - plugin: ./tools/lint\n${'#'.repeat(1 << 20)}\n`
  api.pulls[0]!.files = ['buf.yaml', 'tools/lint']
  try {
    const read = await publishPass()
    assert.deepEqual(read.states, ['failure'])
    assert.ok(api.requests.some(r => r.startsWith('GET /repos/o/r/git/blobs/')), 'read through the blobs API')
    assert.match(sticky(), /changes `buf\.yaml`, `tools\/lint`: the run that wrote the report below ran that change/)

    api.blobsCut = true
    const cut = await publishPass()
    assert.deepEqual(cut.states, ['failure'])
    assert.match(api.statuses[0]!.description, /^publish could not read whole what this pull request changes/)
    assert.match(sticky(), /GitHub gave buf\.yaml at f{12} \(\d+ bytes\) whole neither by the contents API nor by the git blobs API/)
  } finally {
    api.blobsCut = false
    api.contents = {}
  }
})

test('pull requests of one head into two bases: each base\'s context says its own verdict and neither answers for the other; two open pull requests with that head and that base leave that base\'s context an error', async () => {
  const RELEASE_SHA = 'c'.repeat(40)
  api.pulls.push({ number: 8, state: 'open', head: { sha: FORK_HEAD, ref: 'feature', owner: 'fork' }, baseSha: RELEASE_SHA, baseRef: 'release' })
  try {
    // The run of #5 (into main) fails; the run of #8 (into release) passes.
    const main = await publish(workflowRun(await uploadReport(fixture('fail'))))
    assert.equal(main.code, 0, main.stdout)
    const pass = JSON.parse(fixture('pass')) as { base: { sha: string; ref: string } }
    pass.base = { sha: RELEASE_SHA, ref: 'release' }
    const release = await publish(workflowRun(await uploadReport(JSON.stringify(pass)), { conclusion: 'success' }))
    assert.equal(release.code, 0, release.stdout)
    assert.deepEqual(api.statuses.map(x => [x.sha, x.context, x.state]), [
      [FORK_HEAD, 'wiregate: CI/wiregate (main)', 'failure'],
      [FORK_HEAD, 'wiregate: CI/wiregate (release)', 'success']
    ])
    assert.deepEqual(api.comments.map(c => c.issue).sort(), [5, 8])

    // A second pull request of that head into main: which was gated cannot be told.
    api.pulls.push({ number: 9, state: 'open', head: { sha: FORK_HEAD, ref: 'feature', owner: 'fork' } })
    api.statuses = []
    const two = await publish(workflowRun(await uploadReport(fixture('pass')), { conclusion: 'success' }))
    assert.equal(two.code, 2, two.stdout)
    assert.deepEqual(api.statuses.map(x => [x.context, x.state]), [['wiregate: CI/wiregate (main)', 'error']])
    assert.match(api.statuses[0]!.description, /^open pull requests #5, #9 all have head f{40} and base main: publish cannot tell which one run \d+ gated/)
    assert.equal(two.errors.length, 1, two.stdout)
  } finally {
    api.pulls = api.pulls.filter(p => p.number !== 8 && p.number !== 9)
  }
})

test('a run without an artifact sets the context an earlier run left green to error, with the reason', async () => {
  const green = await publish(workflowRun(await uploadReport(fixture('pass')), { conclusion: 'success' }))
  assert.equal(green.code, 0, green.stdout)
  assert.deepEqual(api.statuses.map(x => x.state), ['success'])
  const runId = nextRun++
  const none = await publish(workflowRun(runId, { conclusion: 'success' }))
  assert.equal(none.code, 2, none.stdout)
  assert.deepEqual(api.statuses.map(x => [x.context, x.state]), [[CONTEXT, 'success'], [CONTEXT, 'error']])
  assert.equal(api.statuses[1]!.description, `run ${runId} has no wiregate-report-<job> artifact: nothing was judged for this head`)
  assert.equal(none.errors.length, 1, none.stdout)
})

test(`past ${CALL_BUDGET} REST calls publish stops reading and fails closed in one line: a fork whose base holds 150 buf configs`, async () => {
  api.contents[`${BASE_SHA}:.github/workflows/ci.yml`] = 'jobs:\n  gate:\n    steps:\n      - uses: wiregate/wiregate@v0\n'
  for (let i = 0; i < 150; i++) api.contents[`${BASE_SHA}:d${i}/buf.yaml`] = 'version: v2\n'
  api.pulls[0]!.files = ['schemas/orders/v1/order.proto']
  try {
    const { run, states } = await publishPass()
    assert.equal(run.code, 2, run.stdout)
    assert.deepEqual(states, ['error'])
    assert.ok(BUDGET_SPENT.length <= 140, 'a status description holds it whole')
    assert.equal(api.statuses[0]!.description, BUDGET_SPENT)
    assert.equal(run.errors.length, 1, run.stdout)
    assert.match(run.errors[0]!, /wiregate stopped reading GitHub at 100 API calls/)
    const reads = api.requests.filter(r => r.startsWith('GET /repos/o/r/') && !r.includes('/artifacts'))
    assert.ok(reads.length <= CALL_BUDGET + 1, `${reads.length} reads`)
  } finally {
    api.contents = {}
  }
})

test('approve mode: a command checks the permission first and teams only where they can decide, one at a time, stopping at the first that decides', async () => {
  api.pulls[0]!.author = 'author'
  api.permissions = { author: 'write', member: 'read' }
  api.teams = { 'acme/a': [], 'acme/b': ['member', 'author'], 'acme/c': ['member'] }
  api.contents[`${BASE_SHA}:wiregate.yaml`] = 'approvers: [acme/a, acme/b, acme/c]\n'
  api.runs = [{ id: await uploadReport(withFinding()), name: 'CI', headSha: FORK_HEAD }]
  const base = ['GET /repos/o/r/pulls/5', 'GET /repos/o/r/contents/wiregate.yaml']
  try {
    // A reader in the second team: the third is never asked.
    api.requests = []
    const member = await approveMode('/wiregate approve wg-0123456789abcdef', { by: 'member' })
    assert.equal(member.code, 0, member.stdout)
    assert.deepEqual(api.requests.slice(0, 5), ['GET /repos/o/r/collaborators/member/permission', ...base, 'GET /orgs/acme/teams/a/memberships/member', 'GET /orgs/acme/teams/b/memberships/member'])
    assert.ok(!api.requests.includes('GET /orgs/acme/teams/c/memberships/member'), api.requests.join('\n'))

    // The pull request's author (self-approve is off): no team could change that, none is asked.
    api.requests = []
    const own = await approveMode('/wiregate approve wg-0123456789abcdef', { by: 'author' })
    assert.equal(own.code, 0, own.stdout)
    assert.match(own.stdout, /the comment's \/wiregate command is @author's, who may not give it/)
    assert.deepEqual(api.requests, ['GET /repos/o/r/collaborators/author/permission', ...base])
  } finally {
    api.runs = []
    api.permissions = {}
    api.teams = {}
    api.contents = {}
  }
})

/** approvedRun is a run of PR #5's head whose one finding a writer
 * approved: the run's id and the finding's approval id. */
async function approvedRun(): Promise<{ runId: number; id: string }> {
  api.permissions = { writer: 'write' }
  const runId = await uploadReport(withFinding())
  api.runs = [{ id: runId, name: 'CI', headSha: FORK_HEAD }]
  await approveMode()
  const id = new RegExp(`\`/wiregate approve (${ID})\``).exec(sticky())?.[1]
  assert.ok(id, sticky())
  return { runId, id }
}

test('approvals are read again right before posting: a revoke given while wiregate decided is what the status says', async () => {
  try {
    const { runId, id } = await approvedRun()
    api.addComment(5, 'writer', `/wiregate approve ${id} planned`)
    const approved = await publish(workflowRun(runId))
    assert.equal(approved.code, 0, approved.stdout)
    assert.equal(api.statuses.at(-1)!.state, 'success', sticky())

    // The writer revokes while publish decides: after its first reading of the comments.
    let reads = 0
    api.afterRequest = route => {
      if (route === 'GET /repos/o/r/issues/5/comments' && ++reads === 1) api.addComment(5, 'writer', `/wiregate revoke ${id}`)
    }
    const revoked = await publish(workflowRun(runId))
    assert.equal(revoked.code, 0, revoked.stdout)
    assert.equal(api.statuses.at(-1)!.state, 'failure', sticky())
    assert.ok(reads >= 2, `the comments were read ${reads} times`)
  } finally {
    api.afterRequest = undefined
    api.runs = []
    api.permissions = {}
  }
})
