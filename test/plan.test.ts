import assert from 'node:assert/strict'
import { test } from 'node:test'
import { planRun, type EventContext } from '../src/plan.js'

const BASE = 'a'.repeat(40)
const HEAD = 'b'.repeat(40)
const MERGE = 'c'.repeat(40)

const pr: EventContext = {
  eventName: 'pull_request',
  sha: MERGE,
  refName: '7/merge',
  payload: {
    number: 7,
    pull_request: {
      number: 7,
      base: { sha: BASE, ref: 'main' },
      head: { sha: HEAD, ref: 'feature' },
      labels: [{ name: 'wiregate allow breaking' }]
    }
  }
}

test('pull_request: base and head shas from the event, labels kept', () => {
  const plan = planRun({ baseRef: '' }, pr)
  assert.equal(plan.baseRef, BASE)
  assert.equal(plan.baseLabel, 'main')
  assert.equal(plan.headSha, HEAD)
  assert.equal(plan.headLabel, 'feature')
  assert.equal(plan.pullNumber, 7)
  assert.deepEqual(plan.labels, ['wiregate allow breaking'])
})

test('pull_request: base-ref overrides the base', () => {
  const plan = planRun({ baseRef: 'v1.2.0' }, pr)
  assert.equal(plan.baseRef, 'v1.2.0')
  assert.equal(plan.baseLabel, 'v1.2.0')
  assert.equal(plan.headSha, HEAD)
})

test('push: base is before, head is after', () => {
  const plan = planRun({ baseRef: '' }, { eventName: 'push', sha: HEAD, refName: 'main', payload: { before: BASE, after: HEAD } })
  assert.equal(plan.baseRef, BASE)
  assert.equal(plan.headSha, HEAD)
  assert.equal(plan.headLabel, 'main')
  assert.equal(plan.pullNumber, undefined)
  assert.deepEqual(plan.labels, [])
})

test('only a push to the default branch records history', () => {
  const push = (ref: string, defaultBranch?: string): EventContext => ({
    eventName: 'push',
    sha: HEAD,
    refName: ref.replace('refs/heads/', ''),
    payload: { ref, before: BASE, after: HEAD, repository: defaultBranch === undefined ? undefined : { default_branch: defaultBranch } }
  })
  assert.equal(planRun({ baseRef: '' }, push('refs/heads/main', 'main')).recordHistory, true)
  assert.equal(planRun({ baseRef: '' }, push('refs/heads/trunk', 'trunk')).recordHistory, true)
  assert.equal(planRun({ baseRef: '' }, push('refs/heads/feature', 'main')).recordHistory, false)
  assert.equal(planRun({ baseRef: '' }, push('refs/tags/main', 'main')).recordHistory, false)
  assert.equal(planRun({ baseRef: '' }, push('refs/heads/main')).recordHistory, false)
  assert.ok(!planRun({ baseRef: '' }, pr).recordHistory)
})

test('push of a new branch needs base-ref', () => {
  const ctx: EventContext = { eventName: 'push', sha: HEAD, refName: 'x', payload: { before: '0'.repeat(40), after: HEAD } }
  assert.throws(() => planRun({ baseRef: '' }, ctx), /'base-ref'/)
  assert.equal(planRun({ baseRef: 'main' }, ctx).baseRef, 'main')
})

test('workflow_dispatch uses base-ref and GITHUB_SHA', () => {
  const ctx: EventContext = { eventName: 'workflow_dispatch', sha: HEAD, refName: 'main', payload: {} }
  assert.throws(() => planRun({ baseRef: '' }, ctx), /'base-ref'/)
  const plan = planRun({ baseRef: 'v1' }, ctx)
  assert.equal(plan.baseRef, 'v1')
  assert.equal(plan.headSha, HEAD)
})
