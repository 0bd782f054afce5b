import assert from 'node:assert/strict'
import { test } from 'node:test'
import { comparisonOf, type EventContext } from '../src/comparison.js'

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
  const cmp = comparisonOf({ baseRef: '' }, pr)
  assert.equal(cmp.baseRef, BASE)
  assert.equal(cmp.baseLabel, 'main')
  assert.equal(cmp.headSha, HEAD)
  assert.equal(cmp.headLabel, 'feature')
  assert.equal(cmp.pullNumber, 7)
  assert.deepEqual(cmp.labels, ['wiregate allow breaking'])
})

test('pull_request: base-ref overrides the base', () => {
  const cmp = comparisonOf({ baseRef: 'v1.2.0' }, pr)
  assert.equal(cmp.baseRef, 'v1.2.0')
  assert.equal(cmp.baseLabel, 'v1.2.0')
  assert.equal(cmp.headSha, HEAD)
})

test('push: base is before, head is after', () => {
  const cmp = comparisonOf({ baseRef: '' }, { eventName: 'push', sha: HEAD, refName: 'main', payload: { before: BASE, after: HEAD } })
  assert.equal(cmp.baseRef, BASE)
  assert.equal(cmp.headSha, HEAD)
  assert.equal(cmp.headLabel, 'main')
  assert.equal(cmp.pullNumber, undefined)
  assert.deepEqual(cmp.labels, [])
})

test('only a push to the default branch records history', () => {
  const push = (ref: string, defaultBranch?: string): EventContext => ({
    eventName: 'push',
    sha: HEAD,
    refName: ref.replace('refs/heads/', ''),
    payload: { ref, before: BASE, after: HEAD, repository: defaultBranch === undefined ? undefined : { default_branch: defaultBranch } }
  })
  assert.equal(comparisonOf({ baseRef: '' }, push('refs/heads/main', 'main')).recordHistory, true)
  assert.equal(comparisonOf({ baseRef: '' }, push('refs/heads/trunk', 'trunk')).recordHistory, true)
  assert.equal(comparisonOf({ baseRef: '' }, push('refs/heads/feature', 'main')).recordHistory, false)
  assert.equal(comparisonOf({ baseRef: '' }, push('refs/tags/main', 'main')).recordHistory, false)
  assert.equal(comparisonOf({ baseRef: '' }, push('refs/heads/main')).recordHistory, false)
  assert.ok(!comparisonOf({ baseRef: '' }, pr).recordHistory)
})

test('push of a new branch needs base-ref', () => {
  const ctx: EventContext = { eventName: 'push', sha: HEAD, refName: 'x', payload: { before: '0'.repeat(40), after: HEAD } }
  assert.throws(() => comparisonOf({ baseRef: '' }, ctx), /'base-ref'/)
  assert.equal(comparisonOf({ baseRef: 'main' }, ctx).baseRef, 'main')
})

test('workflow_dispatch uses base-ref and GITHUB_SHA', () => {
  const ctx: EventContext = { eventName: 'workflow_dispatch', sha: HEAD, refName: 'main', payload: {} }
  assert.throws(() => comparisonOf({ baseRef: '' }, ctx), /'base-ref'/)
  const cmp = comparisonOf({ baseRef: 'v1' }, ctx)
  assert.equal(cmp.baseRef, 'v1')
  assert.equal(cmp.headSha, HEAD)
})
