import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { isPartName, uploadPart, type ReportArtifact } from '../src/artifact.js'
import { WiregateError } from '../src/errors.js'
import type { CommentApi, IssueComment } from '../src/comment.js'
import type { CommitStatus, OpenPull } from '../src/github.js'
import type { Log } from '../src/log.js'
import { statusOf } from '../src/outputs.js'
import { publishRun, workflowRunOf, type PublishApi, type WorkflowRun } from '../src/publish.js'
import { CHANGED_WORKFLOW, type Untrusted } from '../src/trust.js'
import { loadFixture } from './fixtures.js'
import { renderer } from './wiregateBin.js'

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'fixtures')
const HEAD = 'c'.repeat(40)
/** the fixtures' base commit */
const BASE = 'a'.repeat(40)
const RUN: WorkflowRun = { id: 9, name: 'CI', event: 'pull_request', conclusion: 'failure', headSha: HEAD, headBranch: 'feature', headOwner: 'fork', htmlUrl: 'https://github.com/o/r/actions/runs/9' }

interface Recorded {
  api: PublishApi
  comments: Array<{ pull: number; body: string }>
  statuses: CommitStatus[]
  log: Log & { lines: string[] }
}

function stand(pulls: OpenPull[], artifacts: Array<[string, string]>, untrusted?: Untrusted): Recorded {
  const comments: Array<{ pull: number; body: string }> = []
  const statuses: CommitStatus[] = []
  const lines: string[] = []
  const commentsOf = (pull: number): CommentApi => ({
    list: () => Promise.resolve(comments.filter(c => c.pull === pull).map((c, i): IssueComment => ({ id: i, body: c.body }))),
    create: body => {
      comments.push({ pull, body })
      return Promise.resolve({ id: comments.length })
    },
    update: (id, body) => {
      comments.filter(c => c.pull === pull)[id]!.body = body
      return Promise.resolve({ id })
    }
  })
  const listed: ReportArtifact[] = artifacts.map(([job], i) => ({ id: i + 1, name: `wiregate-report-${job}`, job, size: 100 }))
  return {
    comments,
    statuses,
    log: { lines, info: m => lines.push(`info ${m}`), warning: m => lines.push(`warning ${m}`), error: m => lines.push(`error ${m}`) },
    api: {
      openPullsWithHead: (owner, branch) => Promise.resolve(owner === 'fork' && branch === 'feature' ? pulls : []),
      statusContexts: () => Promise.resolve(statuses.map(x => x.context)),
      comments: commentsOf,
      setStatus: (sha, s) => {
        assert.equal(sha, HEAD)
        statuses.push(s)
        return Promise.resolve()
      },
      reportArtifacts: () => Promise.resolve(listed),
      download: a => Promise.resolve(artifacts[a.id - 1]![1]),
      // Go decides again in the action (judge.ts, test/trust.e2e.test.ts);
      // here the report stands as checked, unless untrusted names files.
      judge: (_pull, text, report) => Promise.resolve(untrusted ? { report, text, untrusted } : { report, text }),
      comment: async c => (await renderer()).comment(c)
    }
  }
}

const report = (name: string): string => readFileSync(join(fixtures, `${name}.json`), 'utf8')

test('each gating job\'s report gets its own comment and status; a refused one does not stop the other', async () => {
  const s = stand([{ number: 5, headSha: HEAD, baseSha: BASE, baseRef: 'main' }], [['schemas', report('pass')], ['wire', '{"version": 3}']])
  assert.equal(await publishRun(RUN, s.api, s.log, { comment: true }), 2)
  assert.deepEqual(s.statuses.map(x => [x.context, x.state]), [['wiregate: CI/schemas (main)', 'success'], ['wiregate: CI/wire (main)', 'error']])
  assert.deepEqual(s.comments.map(c => [c.pull, c.body.split('\n')[0]]), [[5, '<!-- wiregate:CI/schemas -->'], [5, '<!-- wiregate:CI/wire -->']])
  assert.match(s.comments[1]!.body, /## ⛔ wiregate refused the report of \[run 9\]/)
  assert.deepEqual(s.log.lines.filter(l => l.startsWith('error')), ['error refused the report of run 9: report.json of artifact wiregate-report-wire has version 3, this action reads version 1'])
})

test('comment: false sets the status only', async () => {
  const s = stand([{ number: 5, headSha: HEAD, baseSha: BASE, baseRef: 'main' }], [['wiregate', report('fail')]])
  assert.equal(await publishRun(RUN, s.api, s.log, { comment: false }), 0)
  assert.deepEqual(s.comments, [])
  assert.deepEqual(s.statuses.map(x => x.state), ['failure'])
})

test('two open PRs with the run\'s head and the report\'s base: which one was gated cannot be told, that base\'s status is an error', async () => {
  const s = stand([{ number: 5, headSha: HEAD, baseSha: BASE, baseRef: 'main' }, { number: 6, headSha: HEAD, baseSha: BASE, baseRef: 'main' }], [['wiregate', report('pass')]])
  assert.equal(await publishRun(RUN, s.api, s.log, { comment: true }), 2)
  assert.deepEqual(s.statuses.map(x => [x.context, x.state]), [['wiregate: CI/wiregate (main)', 'error']])
  assert.match(s.statuses[0]!.description, /^open pull requests #5, #6 all have head c{40} and base main: publish cannot tell which one run 9 gated/)
  assert.deepEqual(s.comments, [])
  assert.equal(s.log.lines.filter(l => l.startsWith('error')).length, 1)
})

test('two open PRs with the run\'s head into two bases: the report goes to the one of its base, under that base\'s context only', async () => {
  const s = stand([{ number: 5, headSha: HEAD, baseSha: BASE, baseRef: 'main' }, { number: 6, headSha: HEAD, baseSha: 'b'.repeat(40), baseRef: 'release' }], [['wiregate', report('pass')]])
  assert.equal(await publishRun(RUN, s.api, s.log, { comment: true }), 0)
  assert.deepEqual(s.statuses.map(x => [x.context, x.state]), [['wiregate: CI/wiregate (main)', 'success']])
  assert.deepEqual(s.comments.map(c => c.pull), [5])
})

test('a PR whose head moved on is not the run\'s: nothing posted', async () => {
  const s = stand([{ number: 5, headSha: 'd'.repeat(40), baseSha: BASE, baseRef: 'main' }], [['wiregate', report('pass')]])
  assert.equal(await publishRun(RUN, s.api, s.log, { comment: true }), 0)
  assert.deepEqual([s.comments, s.statuses], [[], []])
  assert.match(s.log.lines[0]!, /^warning no open pull request has head fork:feature at c{40}/)
})

test('no report artifact: an earlier status of the workflow for that base becomes an error; a cancelled run exits 0, one that ran exits 2', async () => {
  const s = stand([{ number: 5, headSha: HEAD, baseSha: BASE, baseRef: 'main' }], [])
  assert.equal(await publishRun({ ...RUN, conclusion: 'cancelled' }, s.api, s.log, { comment: true }), 0)
  assert.equal(s.statuses.length, 0, 'nothing stood: nothing to set')
  s.statuses.push({ state: 'success', context: 'wiregate: CI/wiregate (main)', description: 'pass' }, { state: 'success', context: 'wiregate: CI/wiregate (release)', description: 'pass' })
  await assert.rejects(publishRun(RUN, s.api, s.log, { comment: true }), /run 9 has no wiregate-report-<job> artifact: .*nothing published; 1 earlier status of this workflow set to error/)
  assert.deepEqual(s.statuses.slice(2).map(x => [x.context, x.state, x.description]), [['wiregate: CI/wiregate (main)', 'error', 'run 9 has no wiregate-report-<job> artifact: nothing was judged for this head']])
  assert.deepEqual(s.comments, [])
})

test('workflowRunOf reads the event, and names what is missing or malformed', () => {
  const event = (over: Record<string, unknown>): unknown => ({
    workflow_run: { id: 9, name: 'CI', event: 'pull_request', conclusion: null, head_sha: HEAD, head_branch: 'feature', head_repository: { owner: { login: 'fork' } }, html_url: 'https://github.com/o/r/actions/runs/9', ...over }
  })
  assert.deepEqual(workflowRunOf('workflow_run', event({})), { ...RUN, conclusion: '', path: undefined })
  assert.equal(workflowRunOf('workflow_run', event({ path: '.github/workflows/ci.yml' })).path, '.github/workflows/ci.yml')
  assert.throws(() => workflowRunOf('workflow_run', event({ head_sha: 'HEAD' })), /^WiregateError: the workflow_run event: workflow_run\.head_sha is not a commit sha$/)
  assert.throws(() => workflowRunOf('workflow_run', event({ head_repository: null })), /workflow_run\.head_repository is not an object/)
  assert.equal(workflowRunOf('workflow_run', event({ html_url: 'https://x/(y)' })).htmlUrl, undefined, 'a URL that would break a link is dropped')
})

test("the commit status is report.json's exit code and reason, derived from nothing else", () => {
  assert.deepEqual(statusOf(loadFixture('pass')), { state: 'success', description: 'pass' })
  const allowed = loadFixture('allowed')
  assert.deepEqual(statusOf(allowed), { state: 'success', description: `pass: ${allowed.violations.length} violations allowed or approved` })
  assert.deepEqual(statusOf(loadFixture('fail')), { state: 'failure', description: `fail: ${loadFixture('fail').violations.length} violations` })
  // The exit code decides, not the violations: a report whose Go said 2 is an error.
  assert.equal(statusOf({ ...loadFixture('pass'), exit_code: 2, exit_reason: 'wiregate could not run: x' }).state, 'error')
})

test('a report whose producer the fork changes: a failing status with the sentence, and the comment says so first, the report after it', async () => {
  const s = stand([{ number: 5, headSha: HEAD, baseSha: BASE, baseRef: 'main' }], [['wiregate', report('pass')]], { files: ['.github/workflows/ci.yml'] })
  assert.equal(await publishRun(RUN, s.api, s.log, { comment: true }), 0)
  assert.deepEqual(s.statuses.map(x => [x.state, x.description]), [['failure', CHANGED_WORKFLOW]])
  const body = s.comments[0]!.body
  assert.ok(body.startsWith(`<!-- wiregate:CI/wiregate -->\n## ⛔ wiregate: ${CHANGED_WORKFLOW}\n`), body.slice(0, 300))
  assert.ok(body.indexOf('`.github/workflows/ci.yml`') < body.indexOf('## ✅ wiregate: pass'), 'the changed file is named before the unverified report')
})

test('a part uploads under the name the gate wrote in report.json; the action builds none and refuses one that is not a part\'s', async () => {
  // The names Go's shard.PartName writes are parts; anything else is not.
  assert.ok(isPartName('wiregate-part-2-of-8'))
  for (const name of ['wiregate-part-0-of-8', 'wiregate-part-2/8', 'wiregate-report-gate', '../wiregate-part-1-of-2', 'wiregate-part-1-of-2\n']) {
    assert.equal(isPartName(name), false, name)
    await assert.rejects(uploadPart('/tmp/report.json', name), (err: unknown) => err instanceof WiregateError && /shard\.artifact/.test(err.message))
  }
})
