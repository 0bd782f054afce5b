// End to end: dist/index.js on a throwaway git repo built from this repo's
// schemas, with a fake GitHub API standing in for api.github.com.
import assert from 'node:assert/strict'
import { execFileSync, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { after, before, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { FakeCache } from './fakeCache.js'
import { onlyEntry } from '../src/zip.js'
import { FakeGitHub } from './fakeGitHub.js'
import { runtimeToken } from './runtimeToken.js'
import { scratch } from './scratch.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const entry = join(root, 'dist', 'index.js')
const ORDER = 'schemas/orders/v1/order.proto'


let repo: string
let baseSha: string
let api: FakeGitHub
let apiUrl: string

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim()
}

/** headWith commits an edit of order.proto on a fresh branch off the base. */
function headWith(branch: string, edit: (proto: string) => string): string {
  git('checkout', '-q', '-B', branch, baseSha)
  const path = join(repo, ORDER)
  writeFileSync(path, edit(readFileSync(path, 'utf8')))
  git('commit', '-qam', branch)
  return git('rev-parse', 'HEAD')
}

interface GateReport {
  result: string
  exit_code: number
  violations: Array<{ kind: string; allowed: boolean; subject: string }>
}

interface ActionRun {
  code: number
  stdout: string
  summary: string
  outputs: Record<string, string>
  report: GateReport | undefined
  /** report.json as the gate wrote it */
  reportJson: Buffer | undefined
}

/** A push event instead of the default pull_request on baseSha. */
interface PushEvent {
  before: string
  branch: string
  defaultBranch: string
}

/** Another event than a pull_request or a push: its name and payload. */
interface OtherEvent {
  name: string
  payload: object
}

async function runAction(
  headSha: string,
  labels: string[] = [],
  inputs: Record<string, string> = {},
  pr: Record<string, unknown> = {},
  push?: PushEvent,
  other?: OtherEvent
): Promise<ActionRun> {
  const dir = scratch('wiregate-e2e-run-')
  // The labels were applied by a maintainer: a label counts only by who applied it.
  api.labelEvents = labels.map(label => ({ issue: 1, label, actor: 'maintainer' }))
  api.permissions = { maintainer: 'write', ...api.permissions }
  const event = join(dir, 'event.json')
  writeFileSync(event, JSON.stringify(other
    ? other.payload
    : push
    ? { ref: `refs/heads/${push.branch}`, before: push.before, after: headSha, repository: { default_branch: push.defaultBranch } }
    : {
        number: 1,
        pull_request: { number: 1, base: { sha: baseSha, ref: 'main' }, head: { sha: headSha, ref: 'feature' }, labels: labels.map(name => ({ name })), user: { login: 'author' }, ...pr }
      }))
  const summary = join(dir, 'summary.md')
  const output = join(dir, 'output.txt')
  writeFileSync(summary, '')
  writeFileSync(output, '')
  const env: Record<string, string> = {
    // buf 1.75.0 on PATH, outside the checkout gated, as a runner's setup step puts it.
    PATH: [join(root, 'node_modules', '.bin'), process.env.PATH ?? ''].join(delimiter),
    HOME: process.env.HOME ?? dir,
    GOPATH: process.env.GOPATH ?? join(process.env.HOME ?? dir, 'go'),
    GOCACHE: process.env.GOCACHE ?? join(process.env.HOME ?? dir, '.cache', 'go-build'),
    GOFLAGS: process.env.GOFLAGS ?? '',
    GOPROXY: process.env.GOPROXY ?? '',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: other ? other.name : push ? 'push' : 'pull_request',
    GITHUB_EVENT_PATH: event,
    GITHUB_REPOSITORY: 'o/r',
    GITHUB_API_URL: apiUrl,
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_RUN_ID: '42',
    GITHUB_WORKFLOW: 'CI',
    GITHUB_JOB: 'wiregate',
    GITHUB_SHA: headSha,
    GITHUB_REF_NAME: push ? push.branch : '1/merge',
    GITHUB_STEP_SUMMARY: summary,
    GITHUB_OUTPUT: output,
    GITHUB_WORKSPACE: repo,
    RUNNER_TEMP: dir,
    RUNNER_TOOL_CACHE: join(tmpdir(), 'wiregate-e2e-toolcache'),
    // The runner passes every input, action.yml's default when unset.
    'INPUT_GITHUB-TOKEN': 'test-token',
    INPUT_COMMENT: 'true',
    INPUT_CACHE: 'false',
    INPUT_MODE: 'gate',
    INPUT_MESSAGES: 'orders.v1.Order',
    INPUT_FORMATS: 'json,protobuf',
    INPUT_COUNT: '3',
    INPUT_PIPELINE: 'false',
    INPUT_BROKER: 'embedded',
    // Counting under Valgrind is the harness's tests' business; these test
    // the action around the gate, and counting was most of their time.
    'INPUT_CPU-COST': 'off',
    ...inputs
  }
  const child = spawn(process.execPath, [entry], { cwd: repo, env })
  let stdout = ''
  child.stdout.on('data', d => (stdout += d))
  child.stderr.on('data', d => (stdout += d))
  const code = await new Promise<number>(resolve => child.on('close', c => resolve(c ?? -1)))
  const outputs: Record<string, string> = {}
  for (const m of readFileSync(output, 'utf8').matchAll(/^([\w-]+)<<(\S+)\n([\s\S]*?)\n\2$/gm)) outputs[m[1]!] = m[3]!
  const reportPath = join(dir, 'wiregate', 'report.json')
  const report = existsSync(reportPath) ? (JSON.parse(readFileSync(reportPath, 'utf8')) as GateReport) : undefined
  return { code, stdout, summary: readFileSync(summary, 'utf8'), outputs, report, reportJson: existsSync(reportPath) ? readFileSync(reportPath) : undefined }
}

before(async () => {
  repo = scratch('wiregate-e2e-repo-')
  cpSync(join(root, 'schemas'), join(repo, 'schemas'), { recursive: true })
  cpSync(join(root, 'buf.yaml'), join(repo, 'buf.yaml'))
  git('init', '-q', '-b', 'main')
  git('config', 'user.email', 'e2e@wiregate.test')
  git('config', 'user.name', 'wiregate e2e')
  git('add', '.')
  git('commit', '-qm', 'base')
  baseSha = git('rev-parse', 'HEAD')
  api = new FakeGitHub()
  apiUrl = await api.start()
})

after(async () => {
  await api?.stop()
})

test('a .proto syntax error exits 2 naming the file; the comment is created once, then edited', async () => {
  const head = headWith('syntax-error', p => p.replace('int32 quantity = 3;', 'int32 quantity = 3'))
  const first = await runAction(head)
  assert.equal(first.code, 2, first.stdout)
  assert.equal(first.report!.exit_code, 2, "report.json's exit code is the action's")
  assert.match(first.stdout, /::error.*schemas\/orders\/v1\/order\.proto:\d+:\d+/)
  assert.match(first.summary, /could not run: schemas\/orders\/v1\/order\.proto:\d+:\d+/)
  assert.equal(first.outputs.result, 'fail')
  assert.equal(api.comments.length, 1)
  assert.match(api.comments[0]!.body, /^<!-- wiregate:CI\/wiregate -->\n/)
  const id = api.comments[0]!.id

  const second = await runAction(head)
  assert.equal(second.code, 2)
  assert.equal(api.comments.length, 1, 'a second run must not add a comment')
  assert.equal(api.comments[0]!.id, id)
  assert.ok(api.requests.includes(`PATCH /repos/o/r/issues/comments/${id}`), api.requests.join('\n'))
  assert.equal(git('worktree', 'list').split('\n').length, 1, 'the base worktree is removed')
})

test('a bad input exits 2 naming the input, and the summary says so', async () => {
  const run = await runAction(baseSha, [], { 'INPUT_SIZE-THRESHOLD': '-5%' })
  assert.equal(run.code, 2, run.stdout)
  assert.match(run.stdout, /::error title=wiregate::wiregate failed:%0Ainput 'size-threshold' is "-5%25"/)
  assert.match(run.summary, /could not run: input 'size-threshold'/)
  assert.equal(run.outputs.result, 'fail')
})

test('a token that cannot comment gives a warning; the summary is still written', async () => {
  const head = headWith('syntax-error-403', p => p.replace('int32 quantity = 3;', 'int32 quantity = 3'))
  api.deny = true
  try {
    const run = await runAction(head)
    assert.equal(run.code, 2)
    assert.match(run.stdout, /::warning::wiregate cannot comment on PR #1/)
    assert.match(run.summary, /could not run/)
  } finally {
    api.deny = false
  }
})

test('(a) a comment-only change passes', async () => {
  const head = headWith('comment-only', p => p.replace('// Order is', '// An Order is'))
  const run = await runAction(head)
  assert.equal(run.code, 0, run.stdout)
  assert.equal(run.report!.exit_code, 0, "report.json's exit code is the action's")
  assert.equal(run.outputs.result, 'pass')
  assert.equal(run.outputs.violations, '0')
  assert.equal(run.outputs.breaking, 'false')
  assert.match(run.summary, /^## ✅ wiregate: pass/)
  assert.match(api.comments.at(-1)!.body, /✅ wiregate: pass/)
})

test('(b) a renumbered field is a breaking change', async () => {
  const head = headWith('renumber', p => p.replace('double price = 2;', 'double price = 12;'))
  const run = await runAction(head)
  assert.equal(run.code, 1, run.stdout)
  assert.equal(run.report!.exit_code, 1, "report.json's exit code is the action's")
  assert.equal(run.outputs.result, 'fail')
  assert.equal(run.outputs.breaking, 'true')
  assert.match(run.stdout, /::error file=schemas\/orders\/v1\/order\.proto,line=\d+,col=\d+,title=buf breaking/)
  assert.ok(run.report?.violations.some(v => v.kind === 'breaking' && !v.allowed))
  assert.match(run.summary, /^## ❌ wiregate: fail — .*breaking/)
})

test('(c) a counter made fixed-width is a size violation (an added field would be stated)', async () => {
  const head = headWith('fixed-width', p => p.replace('int32 quantity = 3;', 'sfixed64 quantity = 3;'))
  const run = await runAction(head)
  assert.equal(run.code, 1, run.stdout)
  assert.ok(run.report?.violations.some(v => v.kind === 'size' && !v.allowed), JSON.stringify(run.report?.violations))
  assert.match(run.summary, /size \+\d/)
})

test('(d) the allow-breaking label turns the breaking change into a warning', async () => {
  const head = headWith('renumber-allowed', p => p.replace('double price = 2;', 'double price = 12;'))
  const run = await runAction(head, ['wiregate allow breaking'])
  assert.equal(run.code, 0, run.stdout)
  assert.equal(run.outputs.result, 'pass')
  assert.equal(run.outputs.violations, '0')
  assert.ok(run.report?.violations.some(v => v.kind === 'breaking' && v.allowed))
  assert.match(run.summary, /⚠️ allowed \| breaking/)
})

/** verdictOf is what a label decides: the result and each violation's allowed bit. */
function verdictOf(r: GateReport | undefined): string[] {
  return [r?.result ?? 'none', ...(r?.violations ?? []).map(v => `${v.kind} ${v.subject} allowed=${v.allowed}`).sort()]
}

test('each label gives the same verdict through the action and through wiregate gate --labels', async () => {
  // A renamed field (breaking, no byte moved) and a counter made fixed-width (breaking, and bytes/msg past the size threshold).
  const head = headWith('rename-and-grow', p => p.replace('string user_id = 4;', 'string owner_id = 4;').replace('int32 quantity = 3;', 'sfixed64 quantity = 3;'))
  const bin = join(scratch('wiregate-e2e-bin-'), 'wiregate')
  execFileSync('go', ['build', '-o', bin, './cmd/wiregate'], { cwd: join(root, 'harness') })
  git('checkout', '-q', head)
  for (const label of ['wiregate allow breaking', 'wiregate allow regression']) {
    const viaAction = await runAction(head, [label])
    const out = scratch('wiregate-e2e-cli-')
    // Who applied the label, as the action gathers it: a label counts only by its applier.
    const facts = join(out, 'approvals.json')
    writeFileSync(facts, JSON.stringify({ labeled: [{ label, by: 'maintainer' }], authors: [{ login: 'maintainer', permission: 'write' }], pr_author: 'author' }))
    const cli = spawn(bin, ['gate', `--base-ref=${baseSha}`, `--labels=${JSON.stringify([label])}`, `--approvals=${facts}`, `--harness-dir=${join(root, 'harness')}`,
      '--messages=orders.v1.Order', '--formats=json,protobuf', '--count=3', '--pipeline=false', '--cpu-cost=off', `--out=${out}`, '--quiet'], { cwd: repo, stdio: 'ignore' })
    const code = await new Promise<number>(resolve => cli.on('close', c => resolve(c ?? -1)))
    const viaCli = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as GateReport
    assert.deepEqual(verdictOf(viaAction.report), verdictOf(viaCli), label)
    assert.equal(viaAction.code, code, label)
    assert.ok(viaCli.violations.some(v => v.allowed) && viaCli.violations.some(v => !v.allowed), `${label}: ${verdictOf(viaCli).join('; ')}`)
  }
})

test('the cache: a miss builds and saves, a fresh runner restores and reuses, a cache error is a warning', async () => {
  const cache = new FakeCache()
  const resultsUrl = await cache.start()
  const toolCache = scratch('wiregate-e2e-cachetools-')
  // github.com: the toolkit uses cache service v2 there (not on GHES).
  // The cold run starts from empty Go caches as a fresh runner does; its
  // modules come from this machine's module cache rather than the network
  // (what is tested is that they land in the entry, not the download).
  const goEnv = (name: string): string => execFileSync('go', ['env', name]).toString().trim()
  const goProxy = `file://${goEnv('GOMODCACHE')}/cache/download,${goEnv('GOPROXY')}`
  const withCache = { GITHUB_SERVER_URL: 'https://github.com', INPUT_CACHE: 'true', ACTIONS_CACHE_SERVICE_V2: 'true', ACTIONS_RESULTS_URL: resultsUrl, ACTIONS_RUNTIME_TOKEN: 'stand-in', RUNNER_TOOL_CACHE: toolCache, GOPROXY: goProxy }
  const stages = (r: ActionRun): Record<string, string> =>
    Object.fromEntries((r.report as unknown as { stages: Array<{ name: string; note?: string }> }).stages.map(s => [s.name, s.note ?? '']))
  try {
    const head = headWith('cache', p => p.replace('map<string, string> meta = 7;', 'map<string, string> meta = 7;\n  string note = 8;'))
    // A real change (a field added), so there is something to build; its
    // regressions are allowed: the cache is what this test is about.
    const allow = ['wiregate allow regression']
    const cold = await runAction(head, allow, withCache)
    assert.equal(cold.code, 0, cold.stdout)
    assert.match(stages(cold)['cache restore']!, /^miss: wiregate-v1-/)
    assert.equal(stages(cold)['build wiregate'], 'built')
    assert.match(stages(cold)['prepare']!, /^head built for 1 message in /)
    assert.equal(cache.entries.size, 1, cache.calls.join(' '))
    assert.match(cold.stdout, /wiregate cache: saved: wiregate-v1-/)

    // A fresh runner: nothing on disk, everything from the cache.
    rmSync(join(toolCache, 'wiregate-cache'), { recursive: true, force: true })
    const warm = await runAction(head, allow, withCache)
    assert.equal(warm.code, 0, warm.stdout)
    assert.match(stages(warm)['cache restore']!, /^hit: wiregate-v1-/, cache.calls.join('\n'))
    assert.equal(stages(warm)['build wiregate'], 'reused')
    assert.equal(stages(warm)['prepare'], 'head reused (1 message); base reused (1 message)')
    assert.match(warm.stdout, /wiregate cache: not saved: the entry exists/)
    assert.equal(cache.entries.size, 1)

    // The toolkit reports a failing service itself and calls it a miss;
    // the gate goes on. Rate limited (429), which the toolkit gives up on
    // at once: a 5xx ends the same way after half a minute of retries.
    cache.fail = true
    cache.failStatus = 429
    const broken = await runAction(head, allow, withCache)
    assert.equal(broken.code, 0, broken.stdout)
    assert.match(broken.stdout, /Failed to restore|cache could not be restored/)
    assert.equal(broken.outputs.result, 'pass')
  } finally {
    await cache.stop()
  }
})

test('gate mode on a fork PR uploads report.json as wiregate-report-<job>; a re-run replaces it', async () => {
  const head = headWith('fork-syntax-error', p => p.replace('int32 quantity = 3;', 'int32 quantity = 3'))
  const fork = { head: { sha: head, ref: 'feature', repo: { full_name: 'fork/r', owner: { login: 'fork' } } }, base: { sha: baseSha, ref: 'main', repo: { full_name: 'o/r' } } }
  // github.com: the artifact client refuses to run on Enterprise Server.
  const artifactService = { ACTIONS_RUNTIME_TOKEN: runtimeToken('42'), ACTIONS_RESULTS_URL: `${apiUrl}/`, GITHUB_SERVER_URL: 'https://github.com' }
  api.deny = true // a fork PR's token cannot comment
  try {
    for (const attempt of [1, 2]) {
      const run = await runAction(head, [], artifactService, fork)
      assert.equal(run.code, 2, run.stdout)
      assert.match(run.stdout, /::warning::wiregate cannot comment on PR #1 .*a publish workflow \(mode: publish/)
      assert.match(run.stdout, /report\.json uploaded as artifact wiregate-report-wiregate/)
      const uploaded = api.artifacts.filter(a => a.runId === 42 && a.name === 'wiregate-report-wiregate' && a.finalized)
      assert.equal(uploaded.length, 1, `attempt ${attempt}: one artifact per job and run`)
      assert.ok(run.reportJson, 'the gate wrote report.json')
      assert.deepEqual(onlyEntry(uploaded[0]!.zip, 'report.json', 1 << 20, 'the uploaded zip'), run.reportJson, `attempt ${attempt}`)
    }
  } finally {
    api.deny = false
  }
})

test('a sharded gate: plan writes the matrix, each shard uploads its part, merge posts one comment and one verdict', async () => {
  git('checkout', '-q', '-B', 'sharded', baseSha)
  const grow = (file: string, from: string, to: string): void => {
    const path = join(repo, file)
    writeFileSync(path, readFileSync(path, 'utf8').replace(from, to))
  }
  grow(ORDER, 'map<string, string> meta = 7;', 'map<string, string> meta = 7;\n  repeated string tags = 8;')
  grow('schemas/pingpong/v1/ping_pong.proto', 'repeated double doubles = 7;', 'repeated double doubles = 7;\n  string note = 8;')
  git('commit', '-qam', 'sharded')
  const head = git('rev-parse', 'HEAD')
  const shared = {
    ACTIONS_RUNTIME_TOKEN: runtimeToken('42'),
    ACTIONS_RESULTS_URL: `${apiUrl}/`,
    GITHUB_SERVER_URL: 'https://github.com',
    INPUT_MESSAGES: '',
    INPUT_FORMATS: 'protobuf',
    // Two messages priced at ~5 s each at count 6 (a shard job runs at most count bench rounds): a shard of
    // 80s holds 8 s (budget.Capacity), so the plan needs two.
    'INPUT_TIME-BUDGET': '80s',
    'INPUT_MAX-SHARDS': '2',
    'INPUT_CPU-COST': 'off',
    INPUT_COUNT: '6',
    INPUT_BENCHTIME: '5ms',
    INPUT_PIPELINE: 'false',
    // The added fields fail: what they cost is judged at 1%.
    'INPUT_ADDED-CONTENT-THRESHOLD': '1%'
  }
  const comments = api.comments.length

  // A budget that leaves a shard nothing: wiregate plan exits 2 with the input error; the step plans one shard and says why.
  const tooSmall = await runAction(head, [], { ...shared, INPUT_MODE: 'plan', 'INPUT_TIME-BUDGET': '1m' })
  assert.equal(tooSmall.code, 0, tooSmall.stdout)
  assert.equal(tooSmall.outputs.shards, '1', tooSmall.stdout)
  assert.match(tooSmall.stdout, /::warning::wiregate plan: input 'time-budget' is 1m: a shard spends 1m10s outside measuring.*the smallest time-budget that holds it is \d+m; planning one shard/)

  const plan = await runAction(head, [], { ...shared, INPUT_MODE: 'plan' })
  assert.equal(plan.code, 0, plan.stdout)
  assert.equal(plan.outputs.shards, '2', plan.stdout)
  const matrix = JSON.parse(plan.outputs.matrix!) as { shard: string[] }
  assert.deepEqual(matrix, { shard: ['1/2', '2/2'] })

  for (const shard of matrix.shard) {
    const run = await runAction(head, [], { ...shared, INPUT_MODE: 'gate', INPUT_SHARD: shard })
    assert.equal(run.code, 0, `a shard's own failure is the merge's to decide:\n${run.stdout}`)
    assert.match(run.stdout, new RegExp(`part uploaded as artifact wiregate-part-${shard.replace('/', '-of-')}`))
    assert.match(run.summary, /^## ❌ wiregate: fail/, 'the job summary shows the part')
  }
  assert.equal(api.comments.length, comments, 'shards do not comment')
  assert.deepEqual(api.artifacts.filter(a => a.runId === 42 && a.name.startsWith('wiregate-part-')).map(a => a.name).sort(), ['wiregate-part-1-of-2', 'wiregate-part-2-of-2'])

  const merged = await runAction(head, [], { ...shared, INPUT_MODE: 'merge' })
  assert.equal(merged.code, 1, merged.stdout)
  assert.equal(merged.outputs.result, 'fail')
  const body = api.comments.at(-1)!.body
  assert.equal(api.comments.length, comments === 0 ? 1 : comments, 'one sticky comment')
  assert.match(body, /### `orders\.v1\.Order`/)
  assert.match(body, /### `pingpong\.v1\.PingPong`/)
  assert.match(merged.stdout, /report\.json uploaded as artifact wiregate-report-wiregate/, 'publish mode posts merged reports for fork PRs')
})

test('the shard input is the gate\'s to parse: 1/1 and 256/256 are parts the action uploads, 257/300 is the gate\'s one-line input error, exit 2', async () => {
  const head = headWith('shard-range', p => p.replace('map<string, string> meta = 7;', 'map<string, string> meta = 7;\n  repeated string tags = 8;'))
  const shared = { ACTIONS_RUNTIME_TOKEN: runtimeToken('42'), ACTIONS_RESULTS_URL: `${apiUrl}/`, GITHUB_SERVER_URL: 'https://github.com', INPUT_FORMATS: 'protobuf' }
  const comments = api.comments.length
  for (const [shard, index, count] of [['1/1', 1, 1], ['256/256', 256, 256]] as const) {
    const run = await runAction(head, [], { ...shared, INPUT_SHARD: shard })
    assert.equal(run.code, 0, `${shard}: a part exits 0:\n${run.stdout}`)
    const part = (run.report as unknown as { shard?: { index: number; count: number } }).shard
    assert.deepEqual(part && { index: part.index, count: part.count }, { index, count }, `${shard}: Go wrote report.shard`)
    assert.match(run.stdout, new RegExp(`part uploaded as artifact wiregate-part-${index}-of-${count}\\b`), shard)
  }
  assert.equal(api.comments.length, comments, 'a part, 1/1 too, does not comment')

  const bad = await runAction(head, [], { ...shared, INPUT_SHARD: '257/300' })
  assert.equal(bad.code, 2, bad.stdout)
  assert.equal(bad.report!.exit_code, 2)
  assert.match(bad.stdout, /::error title=wiregate::wiregate failed:%0Ainput 'shard' is "257\/300": want i\/n with 1 <= i <= n <= 256,/)
  assert.doesNotMatch(bad.stdout, /part uploaded/)
})

test('per-change approval: the comment names each violation and the line that approves it; a writer approves one, mode: approve re-decides from the stored report; a new commit stays approved; a reader approves nothing', async () => {
  const head = headWith('approve-renumber', p => p.replace('double price = 2;', 'double price = 12;'))
  const artifactService = { ACTIONS_RUNTIME_TOKEN: runtimeToken('77'), ACTIONS_RESULTS_URL: `${apiUrl}/`, GITHUB_SERVER_URL: 'https://github.com', GITHUB_RUN_ID: '77' }
  api.pulls = [{ number: 1, state: 'open', head: { sha: head, ref: 'feature', owner: 'o' }, baseSha, author: 'author' }]
  api.runs = [{ id: 77, name: 'CI', headSha: head }]
  api.permissions = { writer: 'write', reader: 'read', author: 'write' }
  const gated = await runAction(head, [], artifactService)
  assert.equal(gated.code, 1, gated.stdout)
  const failing = (gated.report as unknown as { violations: Array<{ kind: string; id: string; approve_with?: string }> }).violations.filter(v => v.kind === 'breaking')
  assert.ok(failing.length > 0, gated.stdout)
  const body = api.comments.at(-1)!.body
  for (const v of failing) assert.ok(body.includes(`\`${v.approve_with!}\``), `the comment lacks ${v.approve_with}`)

  // A reader's approval changes nothing; the author's own is refused too (self-approve is off).
  api.addComment(1, 'reader', `/wiregate approve ${failing.map(v => v.id).join(' ')}`)
  const commentEvent = (body: string): OtherEvent => ({ name: 'issue_comment', payload: { action: 'created', issue: { number: 1, pull_request: {}, user: { login: 'author' } }, comment: { id: 1, body, user: { login: 'writer', type: 'User' } } } })
  const statuses = api.statuses.length
  let approve = await runAction(head, [], { ...artifactService, INPUT_MODE: 'approve' }, {}, undefined, commentEvent('/wiregate approve'))
  assert.equal(approve.code, 0, approve.stdout)
  assert.match(api.comments.find(c => c.body.startsWith('<!-- wiregate:CI/wiregate -->'))!.body, /^<!-- wiregate:CI\/wiregate -->\n## ❌ wiregate: fail/)
  assert.equal(api.statuses.at(-1)!.state, 'failure')
  assert.ok(api.statuses.length > statuses, 'the status is set')

  // A writer's approval of every breaking change turns the check green, in seconds, without a gate run.
  api.addComment(1, 'writer', `/wiregate approve ${failing.map(v => v.id).join(' ')} planned: prices move to field 12`)
  const start = Date.now()
  approve = await runAction(head, [], { ...artifactService, INPUT_MODE: 'approve' }, {}, undefined, commentEvent('/wiregate approve'))
  const seconds = (Date.now() - start) / 1000
  assert.equal(approve.code, 0, approve.stdout)
  const sticky = api.comments.find(c => c.body.startsWith('<!-- wiregate:CI/wiregate -->'))!.body
  assert.match(sticky, /^<!-- wiregate:CI\/wiregate -->\n## ✅ wiregate: pass — \d+ breaking changes? approved/)
  assert.match(sticky, /approved by \[@writer\]\(https:\/\/github\.com\/o\/r\/pull\/1#issuecomment-\d+\) on 2026-11-24: planned: prices move to field 12/)
  assert.match(sticky, /@reader\]\(https:\/\/github\.com\/o\/r\/pull\/1#issuecomment-\d+\): `\/wiregate approve wg-[0-9a-f]{16}` did not count: \u200b@\u200breader has read permission/)
  assert.match(sticky, /\| buf breaking \| ✅ \d+ \(approved\) \|/)
  assert.deepEqual(api.statuses.at(-1)!.state, 'success')
  assert.doesNotMatch(approve.stdout, /wiregate: gate|buf breaking/, 'approve mode runs no gate')
  console.log(`# mode: approve decided again in ${seconds.toFixed(1)} s`)

  // A new commit with the same breaking change: the gate applies the approval itself.
  const next = commitOn('approve-renumber', p => p.replace('// Order is', '// An Order is'))
  api.pulls[0]!.head.sha = next
  const again = await runAction(next, [], artifactService)
  assert.equal(again.code, 0, again.stdout)
  assert.match(api.comments.find(c => c.body.startsWith('<!-- wiregate:CI/wiregate -->'))!.body, /## ✅ wiregate: pass — \d+ breaking changes? approved/)
  api.pulls = []
  api.runs = []
  api.comments = api.comments.filter(c => !c.body.startsWith('/wiregate'))
})

/** commitOn commits an edit of order.proto on branch (which must exist). */
function commitOn(branch: string, edit: (proto: string) => string): string {
  git('checkout', '-q', branch)
  const path = join(repo, ORDER)
  writeFileSync(path, edit(readFileSync(path, 'utf8')))
  git('commit', '-qam', `${branch}: edit`)
  return git('rev-parse', 'HEAD')
}

// Last: it gives the shared repository an origin.
test('history: two pushes to main append two lines on origin; a PR comment charts them with the PR last', async () => {
  const origin = join(scratch('wiregate-e2e-origin-'), 'origin.git')
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', origin])
  git('remote', 'add', 'origin', origin)
  git('checkout', '-q', '-B', 'main', baseSha)
  git('push', '-q', 'origin', 'main')
  const lines = (): string[] =>
    execFileSync('git', ['-C', origin, 'cat-file', 'blob', 'wiregate-data:history.jsonl'], { encoding: 'utf8' }).trim().split('\n')

  const first = commitOn('main', p => p.replace('// Order is', '// An Order is'))
  const pushed1 = await runAction(first, [], {}, {}, { before: baseSha, branch: 'main', defaultBranch: 'main' })
  assert.equal(pushed1.code, 0, pushed1.stdout)
  const second = commitOn('main', p => p.replace('map<string, string> meta = 7;', 'map<string, string> meta = 7;\n  string note = 8;'))
  const pushed2 = await runAction(second, [], {}, {}, { before: first, branch: 'main', defaultBranch: 'main' })
  assert.equal(pushed2.code, 0, 'the second push adds a field to Order: stated, not failed, and recorded (head\'s records whole)')
  assert.match(pushed2.summary, new RegExp(`History: recorded ${second.slice(0, 7)} on \`wiregate-data\``))
  let recorded = lines()
  assert.equal(recorded.length, 2, recorded.join('\n'))
  assert.deepEqual(recorded.map(l => (JSON.parse(l) as { sha: string }).sha), [first, second])

  // A push to another branch records nothing.
  git('checkout', '-q', '-B', 'topic', second)
  const topic = commitOn('topic', p => p.replace('// An Order is', '// The Order is'))
  await runAction(topic, [], {}, {}, { before: second, branch: 'topic', defaultBranch: 'main' })
  recorded = lines()
  assert.equal(recorded.length, 2)

  // The PR adds to Order again, against main's tip: the chart ends on its records whole.
  git('checkout', '-q', '-B', 'grow-more', second)
  const head = commitOn('grow-more', p => p.replace('string note = 8;', 'string note = 8;\n  string channel = 9;'))
  const saved = baseSha
  baseSha = second
  let pr: ActionRun
  try {
    pr = await runAction(head)
  } finally {
    baseSha = saved
  }
  assert.equal(pr.code, 0, pr.stdout)
  const body = api.comments.at(-1)!.body
  const chart = /```mermaid\nxychart-beta\n {4}title "orders\.v1\.Order B\/msg: last 2 commits of main, then this PR"\n {4}x-axis \[([^\]]*)\]\n {4}y-axis[^\n]*\n((?: {4}line \[[^\]]*\]\n)+)```/.exec(body)
  assert.ok(chart, body)
  assert.deepEqual(JSON.parse(`[${chart[1]}]`), [first.slice(0, 7), second.slice(0, 7), 'PR'])
  for (const line of chart[2]!.matchAll(/line \[([^\]]*)\]/g)) {
    const [a, b, c] = line[1]!.split(', ').map(Number)
    assert.ok(a! < b! && b! < c!, `each format grew twice: ${line[1]}`)
  }
  assert.equal(lines().length, 2, 'a PR run does not write history')
})

/** markingPlugin is a buf check plugin that notes where and how it ran in
 * marker, then answers as a plugin without rules (buf's own plugin speaks
 * the protocol for it): buf lint passes whether or not it ran. */
function markingPlugin(marker: string): string {
  const buf = join(root, 'node_modules', '.bin', 'buf')
  return `#!/bin/sh\necho "$(pwd) $*" >> '${marker}'\ncase "$1" in\n  list-rules|list-categories|check) cat >/dev/null; exit 0 ;;\nesac\nexec '${buf}' beta buf-plugin-v2 "$@"\n`
}

/** commitTools commits a check plugin at tools/x declared in buf.yaml, and
 * any more files, on top of the branch checked out. */
function commitTools(message: string, plugin: string, more: Record<string, string> = {}): string {
  mkdirSync(join(repo, 'tools'), { recursive: true })
  for (const [file, text] of Object.entries({ 'tools/x': plugin, ...more })) {
    mkdirSync(dirname(join(repo, file)), { recursive: true })
    writeFileSync(join(repo, file), text, { mode: 0o755 })
  }
  const bufYaml = join(repo, 'buf.yaml')
  writeFileSync(bufYaml, `${readFileSync(join(root, 'buf.yaml'), 'utf8').trimEnd()}\nplugins:\n  - plugin: ./tools/x\n`)
  git('add', '-A')
  git('commit', '-qm', message)
  return git('rev-parse', 'HEAD')
}

test('the gate runs nothing the pull request wrote: not its node_modules/.bin/buf, not a check plugin its buf.yaml adds; lint still runs with the real buf and the report says what was left out', async () => {
  const marks = scratch('wiregate-e2e-marks-')
  const prBuf = join(marks, 'pr-buf'), prPlugin = join(marks, 'pr-plugin')
  headWith('pr-tools', p => p.replace('int32 quantity = 3;', 'int32 Quantity = 3;'))
  // A buf that says it is the pinned one, and would then find nothing.
  const fakeBuf = `#!/bin/sh\necho "$*" >> '${prBuf}'\n[ "$1" = --version ] && echo ${'1.75.0'}\nexit 0\n`
  const head = commitTools('pr-tools', markingPlugin(prPlugin), { 'node_modules/.bin/buf': fakeBuf })
  const run = await runAction(head)
  assert.equal(existsSync(prBuf), false, `the pull request's buf ran: ${existsSync(prBuf) ? readFileSync(prBuf, 'utf8') : ''}`)
  assert.equal(existsSync(prPlugin), false, `the pull request's plugin ran: ${existsSync(prPlugin) ? readFileSync(prPlugin, 'utf8') : ''}`)
  const report = run.report as unknown as { findings?: Array<{ kind: string; rule: string }>; warnings?: string[]; stages: Array<{ name: string; error?: string }> }
  assert.ok(report.stages.some(s => s.name === 'buf lint' && !s.error), run.stdout)
  assert.ok(report.findings?.some(f => f.kind === 'lint' && f.rule === 'FIELD_LOWER_SNAKE_CASE'), `the real buf linted head: ${JSON.stringify(report.findings)}`)
  const said = (report.warnings ?? []).filter(w => w.includes('./tools/x'))
  assert.equal(said.length, 1, JSON.stringify(report.warnings))
  assert.match(said[0]!, /without .*\.\/tools\/x.*the base's buf\.yaml does not declare it/)
  assert.match(api.comments.at(-1)!.body, /\.\/tools\/x/, 'the comment says so too')
})

test('a check plugin the base declares, unchanged by the pull request, runs', async () => {
  const marks = scratch('wiregate-e2e-marks-')
  const mark = join(marks, 'plugin')
  git('checkout', '-q', '-B', 'plugin-base', baseSha)
  const base = commitTools('plugin-base', markingPlugin(mark))
  git('checkout', '-q', '-B', 'plugin-head', base)
  const path = join(repo, ORDER)
  writeFileSync(path, readFileSync(path, 'utf8').replace('// Order is', '// An Order is'))
  git('commit', '-qam', 'plugin-head')
  const head = git('rev-parse', 'HEAD')
  const run = await runAction(head, [], {}, { base: { sha: base, ref: 'main' } })
  assert.equal(run.code, 0, run.stdout)
  assert.ok(existsSync(mark), `the base's plugin did not run:\n${run.stdout}`)
  assert.match(readFileSync(mark, 'utf8'), new RegExp(`^${repo.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `, 'm'), 'it ran on head, in the checkout')
  assert.deepEqual((run.report as unknown as { warnings?: string[] }).warnings?.filter(w => w.includes('tools/x')) ?? [], [])
})

/** commitFiles commits, on branch made from sha, files written (text) or
 * removed (null), and returns the commit. */
function commitFiles(branch: string, sha: string, files: Record<string, string | null>): string {
  git('checkout', '-q', '-B', branch, sha)
  for (const [file, text] of Object.entries(files)) {
    const path = join(repo, file)
    if (text === null) {
      rmSync(path, { force: true })
      continue
    }
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, text, { mode: file.startsWith('tools/') ? 0o755 : 0o644 })
  }
  git('add', '-A')
  git('commit', '-qm', branch)
  return git('rev-parse', 'HEAD')
}

const V1_MODULE = 'version: v1\nlint:\n  use: [DEFAULT]\nbreaking:\n  use: [FILE]\n'

// buf finds its config itself unless told: on a buf-input holding a v1
// buf.yaml it walks up to a v2 buf.yaml whose modules name it and runs
// that file's plugins. The gate resolves the config first and passes it.
const LAYOUTS: Array<{ name: string; base: Record<string, string | null>; from: string }> = [
  { name: 'a v1 module', base: { 'buf.yaml': null, 'schemas/buf.yaml': V1_MODULE }, from: "the base's schemas/buf.yaml (v1), as `buf config migrate` translates it" },
  {
    name: 'a v1 buf.work.yaml workspace',
    base: { 'buf.yaml': null, 'buf.work.yaml': 'version: v1\ndirectories:\n  - schemas\n', 'schemas/buf.yaml': V1_MODULE },
    from: "the base's buf.work.yaml (v1), as `buf config migrate` translates it"
  }
]
for (const layout of LAYOUTS) {
  test(`a v2 buf.yaml the pull request adds above ${layout.name} at buf-input runs no plugin: lint still finds the planted violation, and the report says the plugin was left out`, async () => {
    const marks = scratch('wiregate-e2e-marks-')
    const mark = join(marks, 'plugin')
    const base = commitFiles(`layout-base-${layout.name.length}`, baseSha, layout.base)
    const proto = readFileSync(join(repo, ORDER), 'utf8').replace('int32 quantity = 3;', 'int32 Quantity = 3;')
    const head = commitFiles(`layout-head-${layout.name.length}`, base, {
      'buf.work.yaml': null,
      'buf.yaml': 'version: v2\nmodules:\n  - path: schemas\nplugins:\n  - plugin: ./tools/lint-plugin\n',
      'tools/lint-plugin': markingPlugin(mark),
      [ORDER]: proto
    })
    const run = await runAction(head, [], { 'INPUT_BUF-INPUT': 'schemas' }, { base: { sha: base, ref: 'main' } })
    assert.equal(existsSync(mark), false, `the pull request's plugin ran: ${existsSync(mark) ? readFileSync(mark, 'utf8') : ''}`)
    const report = run.report as unknown as { findings?: Array<{ kind: string; rule: string; file: string }>; warnings?: string[]; buf_rules?: { from: string[] } }
    assert.ok(report.findings?.some(f => f.kind === 'lint' && f.rule === 'FIELD_LOWER_SNAKE_CASE' && f.file === ORDER), `${JSON.stringify(report.findings)}\n${run.stdout}`)
    const said = (report.warnings ?? []).filter(w => w.includes('./tools/lint-plugin'))
    assert.equal(said.length, 1, JSON.stringify(report.warnings))
    assert.match(said[0]!, /ran without check plugin \.\/tools\/lint-plugin \(the base's buf\.yaml does not declare it\)/)
    assert.deepEqual(report.buf_rules?.from, [layout.from])
  })
}

test('a pull request that deletes a field and excepts FIELD_NO_DELETE fails on the deletion, and the comment names the loosened rule; an A/A shows no rules line', async () => {
  const loosened = readFileSync(join(root, 'buf.yaml'), 'utf8').replace('breaking:\n  use:\n    - FILE\n', 'breaking:\n  use:\n    - FILE\n  except:\n    - FIELD_NO_DELETE\n')
  const proto = readFileSync(join(root, ORDER), 'utf8').replace('  int32 quantity = 3;\n', '')
  const head = commitFiles('loosened', baseSha, { 'buf.yaml': loosened, [ORDER]: proto })
  const run = await runAction(head)
  assert.equal(run.code, 1, run.stdout)
  assert.ok(run.report?.violations.some(v => v.kind === 'breaking' && !v.allowed), JSON.stringify(run.report?.violations))
  const line = "> ⚖️ buf.yaml loosens breaking: `except: FIELD_NO_DELETE` (judged by the base's rules; applies once merged)"
  assert.ok(api.comments.at(-1)!.body.split('\n').includes(line), api.comments.at(-1)!.body)

  const aa = commitFiles('loosened-aa', commitFiles('loosened-aa-base', baseSha, { 'buf.yaml': loosened }), { [ORDER]: readFileSync(join(root, ORDER), 'utf8').replace('// Order is', '// An Order is') })
  const same = await runAction(aa, [], {}, { base: { sha: git('rev-parse', 'loosened-aa-base'), ref: 'main' } })
  assert.equal(same.code, 0, same.stdout)
  assert.doesNotMatch(api.comments.at(-1)!.body, /⚖️/)
})
