import assert from 'node:assert/strict'
import { test } from 'node:test'
import { askAbout, gatherFacts, type ApprovalsApi, type ListedComment } from '../src/approvals.js'
import { loadFixture } from './fixtures.js'

const at = '2026-11-24T12:00:00Z'
const listed = (id: number, author: string, type: string, body: string): ListedComment => ({ id, url: `https://github.com/o/r/pull/1#issuecomment-${id}`, author, author_type: type, body, created_at: at, updated_at: at })

/** api answers with these comments and label events, and records whom it is asked about. */
function stand(comments: ListedComment[], asked: string[] = []): ApprovalsApi {
  return {
    comments: () => Promise.resolve(comments),
    labelEvents: () => Promise.resolve([{ label: 'wiregate allow breaking', by: 'labeler', byType: 'Bot' }, { label: 'wiregate allow breaking', by: 'author', byType: 'User' }]),
    permission: login => {
      asked.push(login)
      return Promise.resolve('write')
    },
    memberOf: (org, team, login) => Promise.resolve(`${org}/${team}` === 'acme/owners' && login === 'reader')
  }
}

test('every comment is gathered, whatever it says (Go reads the command words: an upper-case revoke, an edit that dropped its command); GitHub\'s word that an account is a bot comes with them; nobody is asked about yet', async () => {
  const asked: string[] = []
  const comments = [listed(1, 'release-robot', 'Bot', '/wiregate approve wg-0000000000000001'), listed(2, 'writer', 'User', '/WireGate REVOKE wg-0000000000000001'), listed(3, 'other', 'User', 'lgtm')]
  const a = await gatherFacts(stand(comments, asked), 'author', [])
  assert.deepEqual(a.comments.map(c => c.id), [1, 2, 3])
  assert.deepEqual(a.comments.map(c => Object.keys(c).sort()), Array(3).fill(['author', 'body', 'created_at', 'id', 'updated_at', 'url']))
  assert.deepEqual(a.authors, [{ login: 'release-robot', permission: '', bot: true }])
  assert.equal(a.labeled, undefined, 'no label: the timeline is not read')
  assert.deepEqual(asked, [])
  const labeled = await gatherFacts(stand(comments), 'author', ['wiregate allow breaking'])
  assert.deepEqual(labeled.labeled, [{ label: 'wiregate allow breaking', by: 'labeler' }, { label: 'wiregate allow breaking', by: 'author' }])
  assert.deepEqual(labeled.authors.map(x => x.login), ['labeler', 'release-robot'])
})

test('askAbout asks GitHub only about the people whose commands or labels the verdict refused and whom the facts say nothing of, with the approver teams of the decided rules', async () => {
  const asked: string[] = []
  const api = stand([], asked)
  const facts = { comments: [], authors: [{ login: 'release-robot', permission: '', bot: true }], pr_author: 'author' }
  const decided = loadFixture('pass')
  decided.rules = { ...decided.rules!, config: { ...decided.rules!.config, approvers: ['acme/owners', 'someone'] } }
  decided.approvals = [
    { by: 'reader', url: '', action: 'approve', id: 'wg-0000000000000001', status: 'refused', why: 'no facts' },
    { by: 'Reader', url: '', action: 'revoke', id: 'wg-0000000000000001', status: 'refused', why: 'no facts' },
    { by: 'release-robot', url: '', action: 'approve', id: 'wg-0000000000000001', status: 'refused', why: 'a bot' },
    { by: 'writer', url: '', action: 'approve', id: 'wg-0000000000000002', status: 'counted' },
    { by: '', url: '', action: 'label', id: 'wiregate allow breaking', status: 'refused', why: 'not known' }
  ]
  const more = await askAbout(facts, api, decided)
  assert.deepEqual(asked, ['reader'], 'once per person, whatever the case of their login; not the bot, not the counted writer')
  assert.deepEqual(more?.authors, [...facts.authors, { login: 'reader', permission: 'write', teams: ['acme/owners'] }])
  decided.approvals = decided.approvals.filter(n => n.by === 'release-robot' || n.status === 'counted')
  assert.equal(await askAbout(facts, api, decided), undefined, 'nobody to ask about: the decision stands')
})
