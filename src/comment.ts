// The sticky comment: wiregate renders it (`wiregate render --as comment`,
// its marker the first line); these find and update the job's own.

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
