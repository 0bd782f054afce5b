import assert from 'node:assert/strict'
import { test } from 'node:test'
import { gatherApprovals, type ApprovalsApi, type ListedComment } from '../src/approvals.js'

const at = '2026-11-24T12:00:00Z'
const listed = (id: number, author: string, type: string, body: string): ListedComment => ({ id, url: `https://github.com/o/r/pull/1#issuecomment-${id}`, author, author_type: type, body, created_at: at, updated_at: at })

test('a comment whose author GitHub calls a Bot is gathered with its author marked bot, whatever its permission; the comments keep only their contract fields', async () => {
  const api: ApprovalsApi = {
    comments: () => Promise.resolve([listed(1, 'release-robot', 'Bot', '/wiregate approve wg-000001'), listed(2, 'writer', 'User', '/wiregate approve wg-000001'), listed(3, 'other', 'User', 'lgtm')]),
    permission: () => Promise.resolve('write'),
    memberOf: () => Promise.resolve(false)
  }
  const a = await gatherApprovals(api, 'author', [])
  assert.deepEqual(a?.authors, [
    { login: 'release-robot', permission: 'write', teams: [], bot: true },
    { login: 'writer', permission: 'write', teams: [] }
  ])
  assert.deepEqual(a?.comments.map(c => Object.keys(c).sort()), [['author', 'body', 'created_at', 'id', 'updated_at', 'url'], ['author', 'body', 'created_at', 'id', 'updated_at', 'url']])
})
