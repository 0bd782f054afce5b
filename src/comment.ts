import { COMMENT_LIMIT, fit, type Part } from './render/fit.js'
import { EMPTY, link, md, type Md } from './render/markdown.js'

/** stickyMarker identifies the one comment a workflow's job owns on a PR.
 * Gate mode and publish mode make the same marker for the same gating job,
 * so both edit one comment. A workflow's name is the PR's to choose (a
 * pull_request run uses the PR's workflow file): characters that could end
 * the HTML comment become _. */
export function stickyMarker(workflow: string, job: string): string {
  const plain = (s: string): string => s.replace(/[^\w .()/+-]/g, '_').replace(/-{2,}/g, '-')
  return `<!-- wiregate:${plain(workflow)}/${plain(job)} -->`
}

export interface IssueComment {
  id: number
  body?: string | null
  /** the author's login and type ("Bot", "User"), when the API says */
  author?: string
  authorType?: string
}

/** findSticky returns the job's comment: the oldest (so a race that made two
 * never makes a third) that starts with the marker and was written by
 * wiregate's token: by self when the token can say who it is (a personal
 * token), else by a bot (the job's token comments as github-actions[bot]).
 * Anyone can paste the marker into a comment of their own; wiregate must
 * not edit theirs. */
export function findSticky(comments: IssueComment[], marker: string, self?: string): IssueComment | undefined {
  const ours = (c: IssueComment): boolean =>
    self !== undefined ? c.author === self : c.authorType === undefined || c.authorType === 'Bot'
  return comments.find(c => (c.body ?? '').startsWith(marker) && ours(c))
}

/** commentBody is the comment: the report's parts within GitHub's limit
 * (fit cuts detail first, never what changed), then the marker,
 * written last and first in the body. Nothing else in it can be a marker:
 * report text reaches it escaped (render/markdown.ts). */
export function commentBody(marker: string, body: Part[] | Md, summaryUrl?: string): string {
  const whole = md`the job summary${summaryUrl ? md` of ${link(md`this run`, summaryUrl)}` : EMPTY}`
  const parts = Array.isArray(body) ? body : [{ md: body }]
  return `${marker}\n${fit(parts, { limit: COMMENT_LIMIT - marker.length - 1, unit: 'characters', whole })}`
}

/** The three REST calls the sticky comment needs; main.ts backs it with Octokit. */
export interface CommentApi {
  list(): Promise<IssueComment[]>
  create(body: string): Promise<IssueComment>
  update(id: number, body: string): Promise<IssueComment>
  /** the token's own login, when it can tell */
  self?(): Promise<string | undefined>
}

export type CommentOutcome = { action: 'created' | 'updated'; id: number }

/** upsertSticky edits the job's comment in place, or creates it the first time. */
export async function upsertSticky(api: CommentApi, marker: string, body: string): Promise<CommentOutcome> {
  const existing = findSticky(await api.list(), marker, await api.self?.())
  if (existing) {
    await api.update(existing.id, body)
    return { action: 'updated', id: existing.id }
  }
  const created = await api.create(body)
  return { action: 'created', id: created.id }
}

/** cannotComment is true for the errors a read-only token gets (fork PRs,
 * missing pull-requests: write): the gate goes on with a warning. */
export function cannotComment(err: unknown): boolean {
  const status = (err as { status?: number } | null)?.status
  return status === 403 || status === 404 || status === 401
}
