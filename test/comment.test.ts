import assert from 'node:assert/strict'
import { test } from 'node:test'
import { cannotComment, findSticky, upsertSticky, type CommentApi, type IssueComment } from '../src/comment.js'

/** stickyMarker is the marker `wiregate render --as comment` makes for a workflow and job. */
const stickyMarker = (workflow: string, job: string): string => `<!-- wiregate:${workflow}/${job} -->`

function fakeApi(comments: IssueComment[]): CommentApi & { calls: string[] } {
  const calls: string[] = []
  let next = 100
  return {
    calls,
    list: () => {
      calls.push('list')
      return Promise.resolve(comments)
    },
    create: body => {
      calls.push('create')
      const c = { id: next++, body }
      comments.push(c)
      return Promise.resolve(c)
    },
    update: (id, body) => {
      calls.push(`update ${id}`)
      const c = comments.find(x => x.id === id)!
      c.body = body
      return Promise.resolve(c)
    }
  }
}

test('findSticky finds only this job\'s comment', () => {
  const m = stickyMarker('CI', 'a')
  const comments = [
    { id: 1, body: 'hello' },
    { id: 2, body: `${stickyMarker('CI', 'b')}\nother job` },
    { id: 3, body: `${m}\nmine` },
    { id: 4, body: null }
  ]
  assert.equal(findSticky(comments, m)?.id, 3)
  assert.equal(findSticky(comments, stickyMarker('CI', 'c')), undefined)
})

test('first run creates, later runs update the same comment', async () => {
  const m = stickyMarker('CI', 'a')
  const api = fakeApi([{ id: 1, body: 'unrelated' }])
  assert.deepEqual(await upsertSticky(api, m, `${m}\nrun 1`), { action: 'created', id: 100 })
  assert.deepEqual(await upsertSticky(api, m, `${m}\nrun 2`), { action: 'updated', id: 100 })
  assert.deepEqual(api.calls, ['list', 'create', 'list', 'update 100'])
  const list = await api.list()
  assert.equal(list.length, 2)
  assert.match(list[1]!.body!, /run 2/)
})

test('403 and 404 mean the token cannot comment; 500 does not', () => {
  assert.equal(cannotComment({ status: 403 }), true)
  assert.equal(cannotComment({ status: 404 }), true)
  assert.equal(cannotComment({ status: 500 }), false)
  assert.equal(cannotComment(new Error('x')), false)
})

test('a person\'s comment that carries the marker is not the sticky one; nor is one where the marker is not first', () => {
  const m = stickyMarker('CI', 'a')
  const comments: IssueComment[] = [
    { id: 1, body: `${m}\nplanted`, author: 'mallory', authorType: 'User' },
    { id: 2, body: `quote:\n${m}`, author: 'github-actions[bot]', authorType: 'Bot' },
    { id: 3, body: `${m}\nmine`, author: 'github-actions[bot]', authorType: 'Bot' }
  ]
  assert.equal(findSticky(comments, m)?.id, 3)
  // A personal token can say who it is: then only its own comments count.
  assert.equal(findSticky(comments, m, 'mallory')?.id, 1)
  assert.equal(findSticky(comments, m, 'alice'), undefined)
})
