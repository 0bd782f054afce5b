import { COMMENT_LIMIT, truncate } from './render/truncate.js'

/** stickyMarker identifies the one comment a workflow's job owns on a PR. */
export function stickyMarker(workflow: string, job: string): string {
  return `<!-- wiregate:${workflow}/${job} -->`
}

export interface IssueComment {
  id: number
  body?: string | null
}

/** findSticky returns the comment carrying the marker, if any (the oldest, so
 * a race that made two never makes a third). */
export function findSticky(comments: IssueComment[], marker: string): IssueComment | undefined {
  return comments.find(c => (c.body ?? '').includes(marker))
}

/** commentBody puts the marker first and keeps the body under GitHub's limit. */
export function commentBody(marker: string, markdown: string, summaryUrl?: string): string {
  const where = summaryUrl ? `the job summary of [this run](${summaryUrl})` : 'the job summary'
  const note = `Report cut to fit a comment; the full report is in ${where}.`
  return truncate(`${marker}\n${markdown}`, COMMENT_LIMIT, note)
}

/** The three REST calls the sticky comment needs; main.ts backs it with Octokit. */
export interface CommentApi {
  list(): Promise<IssueComment[]>
  create(body: string): Promise<IssueComment>
  update(id: number, body: string): Promise<IssueComment>
}

export type CommentOutcome = { action: 'created' | 'updated'; id: number }

/** upsertSticky edits the job's comment in place, or creates it the first time. */
export async function upsertSticky(api: CommentApi, marker: string, body: string): Promise<CommentOutcome> {
  const existing = findSticky(await api.list(), marker)
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
