import * as github from '@actions/github'
import type { ApprovalsApi, ListedComment } from './approvals.js'
import type { CommentApi, IssueComment } from './comment.js'
import { WiregateError } from './errors.js'

type Octokit = ReturnType<typeof github.getOctokit>

interface RestComment {
  id: number
  body?: string | null
  user?: { login?: string; type?: string } | null
}

/** issueCommentApi backs the sticky comment with Octokit (GITHUB_API_URL aware). */
export function issueCommentApi(token: string, owner: string, repo: string, issueNumber: number, octokit: Octokit = github.getOctokit(token)): CommentApi {
  const issue = { owner, repo, issue_number: issueNumber }
  const slim = (c: RestComment): IssueComment => ({ id: c.id, body: c.body, author: c.user?.login, authorType: c.user?.type })
  return {
    list: async () => (await octokit.paginate(octokit.rest.issues.listComments, { ...issue, per_page: 100 })).map(slim),
    create: async body => slim((await octokit.rest.issues.createComment({ ...issue, body })).data),
    update: async (id, body) => slim((await octokit.rest.issues.updateComment({ owner, repo, comment_id: id, body })).data),
    self: async () => {
      // A personal token answers with its user; the job's token (an
      // installation token) cannot ask, and comments as a bot.
      try {
        return (await octokit.rest.users.getAuthenticated()).data.login
      } catch {
        return undefined
      }
    }
  }
}

export interface OpenPull {
  number: number
  headSha: string
  baseSha: string
  /** the base branch: a status is judged against it and names it */
  baseRef: string
}

/** openPullsWithHead lists the open pull requests whose head is
 * headOwner:branch: how publish mode finds a fork PR, whose workflow_run
 * event lists no pull request. */
export async function openPullsWithHead(octokit: Octokit, owner: string, repo: string, headOwner: string, branch: string): Promise<OpenPull[]> {
  const pulls = await octokit.paginate(octokit.rest.pulls.list, { owner, repo, head: `${headOwner}:${branch}`, state: 'open', per_page: 100 })
  return pulls.map(p => ({ number: p.number, headSha: p.head.sha, baseSha: p.base.sha, baseRef: p.base.ref }))
}

export interface CommitStatus {
  state: 'success' | 'failure' | 'error'
  context: string
  description: string
  targetUrl?: string
}

/** GitHub cuts nothing: a longer description is a 422. */
const DESCRIPTION_LIMIT = 140

/** statusContexts are the contexts of every status on the commit sha. */
export async function statusContexts(octokit: Octokit, owner: string, repo: string, sha: string): Promise<string[]> {
  const statuses = await octokit.paginate(octokit.rest.repos.listCommitStatusesForRef, { owner, repo, ref: sha, per_page: 100 })
  return [...new Set(statuses.map(s => s.context))]
}

export async function setCommitStatus(octokit: Octokit, owner: string, repo: string, sha: string, s: CommitStatus): Promise<void> {
  const description = s.description.length > DESCRIPTION_LIMIT ? `${s.description.slice(0, DESCRIPTION_LIMIT - 1)}…` : s.description
  await octokit.rest.repos.createCommitStatus({ owner, repo, sha, state: s.state, context: s.context, description, target_url: s.targetUrl })
}

/** pullComments lists every comment on the pull request, as it reads now. */
export async function pullComments(octokit: Octokit, owner: string, repo: string, pull: number): Promise<ListedComment[]> {
  const all = await octokit.paginate(octokit.rest.issues.listComments, { owner, repo, issue_number: pull, per_page: 100 })
  return all.map(c => ({ id: c.id, url: c.html_url, author: c.user?.login ?? '', author_type: c.user?.type, body: c.body ?? '', created_at: c.created_at, updated_at: c.updated_at }))
}

/** permission is the user's permission on the repository as GitHub says
 * it (admin, write, read, none); none for someone GitHub does not know as
 * a collaborator. */
export async function permission(octokit: Octokit, owner: string, repo: string, username: string): Promise<string> {
  try {
    return (await octokit.rest.repos.getCollaboratorPermissionLevel({ owner, repo, username })).data.permission
  } catch (err) {
    if ((err as { status?: number }).status === 404) return 'none'
    throw err
  }
}

/** memberOf is whether the user is an active member of org/team. */
export async function memberOf(octokit: Octokit, org: string, team: string, username: string): Promise<boolean> {
  try {
    return (await octokit.rest.teams.getMembershipForUserInOrg({ org, team_slug: team, username })).data.state === 'active'
  } catch (err) {
    if ((err as { status?: number }).status === 404) return false
    throw err
  }
}

/** A pull request as GitHub says it is now: what publish and approve
 * modes take from the API, never from a report. */
export interface PullFacts {
  number: number
  headSha: string
  baseSha: string
  /** the base branch */
  baseRef: string
  author: string
  labels: string[]
  /** the head is in another repository than the base: a fork's */
  fork: boolean
  /** how many files it changes, as GitHub counts them (changed_files) */
  changedFiles: number
}

export async function pullFacts(octokit: Octokit, owner: string, repo: string, pull: number): Promise<PullFacts> {
  const p = (await octokit.rest.pulls.get({ owner, repo, pull_number: pull })).data
  return {
    number: p.number,
    headSha: p.head.sha,
    baseSha: p.base.sha,
    baseRef: p.base.ref,
    author: p.user?.login ?? '',
    labels: p.labels.map(l => l.name ?? '').filter(Boolean),
    // A head repository GitHub no longer knows (a deleted fork) is not this one.
    fork: p.head.repo?.full_name !== p.base.repo.full_name,
    changedFiles: p.changed_files
  }
}

/** The files of a pull request as GitHub lists them. */
export interface ChangedFiles {
  /** each file, a renamed one under both its names */
  files: string[]
  /** how many entries GitHub listed: at most 3,000, however many it changes */
  listed: number
}

/** changedFiles lists the files the pull request changes. */
export async function changedFiles(octokit: Octokit, owner: string, repo: string, pull: number): Promise<ChangedFiles> {
  const files = await octokit.paginate(octokit.rest.pulls.listFiles, { owner, repo, pull_number: pull, per_page: 100 })
  return { files: files.flatMap(f => (f.previous_filename ? [f.filename, f.previous_filename] : [f.filename])), listed: files.length }
}

/** A commit's files, as the git trees API lists them. */
export interface Tree {
  paths: string[]
  /** GitHub cut the list (over 100,000 entries or 7 MB) */
  truncated: boolean
}

/** treeAt lists the files of the commit ref, recursively. */
export async function treeAt(octokit: Octokit, owner: string, repo: string, ref: string): Promise<Tree> {
  const t = (await octokit.rest.git.getTree({ owner, repo, tree_sha: ref, recursive: 'true' })).data
  return { paths: t.tree.flatMap(e => (e.type === 'blob' && e.path ? [e.path] : [])), truncated: t.truncated }
}

/** A labeled event of a pull request's timeline: who applied a label. */
export interface LabelEvent {
  label: string
  by: string
  /** GitHub's user type of who applied it (User, Bot) */
  byType?: string
}

/** labelEvents are the labeled events of the pull request's timeline, oldest first. */
export async function labelEvents(octokit: Octokit, owner: string, repo: string, pull: number): Promise<LabelEvent[]> {
  const events = await octokit.paginate(octokit.rest.issues.listEventsForTimeline, { owner, repo, issue_number: pull, per_page: 100 })
  return events.flatMap(e => {
    const x = e as { event?: string; label?: { name?: string }; actor?: { login?: string; type?: string } | null }
    return x.event === 'labeled' && x.label?.name && x.actor?.login ? [{ label: x.label.name, by: x.actor.login, byType: x.actor.type }] : []
  })
}

/** Unread is a file GitHub would not give whole: publish fails closed on it. */
export class Unread extends WiregateError {}

/** fileAt is a file's text at a commit, undefined when the commit has no
 * such file. The contents API answers a file over 1 MB with encoding
 * "none" and no content: such a file, or one whose content is not its
 * size, is read through the git blobs API; one that cannot be read whole
 * there either is Unread. */
export async function fileAt(octokit: Octokit, owner: string, repo: string, path: string, ref: string): Promise<string | undefined> {
  let data
  try {
    data = (await octokit.rest.repos.getContent({ owner, repo, path, ref })).data
  } catch (err) {
    if ((err as { status?: number }).status === 404) return undefined
    throw err
  }
  if (Array.isArray(data) || data.type !== 'file') return undefined
  const whole = (content: string | undefined, encoding: string | undefined, size: number): Buffer | undefined => {
    if (encoding !== 'base64' || content === undefined) return undefined
    const bytes = Buffer.from(content, 'base64')
    return bytes.length === size ? bytes : undefined
  }
  const inline = whole('content' in data ? data.content : undefined, 'encoding' in data ? data.encoding : undefined, data.size)
  if (inline) return inline.toString('utf8')
  const blob = (await octokit.rest.git.getBlob({ owner, repo, file_sha: data.sha })).data
  const bytes = whole(blob.content, blob.encoding, blob.size ?? -1)
  if (!bytes) throw new Unread(`GitHub gave ${path} at ${ref.slice(0, 12)} (${data.size} bytes) whole neither by the contents API nor by the git blobs API`)
  return bytes.toString('utf8')
}

/** A workflow run of the pull request's head, newest first. */
export interface HeadRun {
  id: number
  name: string
  /** the workflow file the run ran (.github/workflows/…) */
  path?: string
  htmlUrl?: string
}

/** headRuns lists the repository's workflow runs of one head commit, newest first. */
export async function headRuns(octokit: Octokit, owner: string, repo: string, headSha: string): Promise<HeadRun[]> {
  const runs = (await octokit.rest.actions.listWorkflowRunsForRepo({ owner, repo, head_sha: headSha, per_page: 50 })).data.workflow_runs
  return runs.map(r => ({ id: r.id, name: r.name ?? '', path: r.path, htmlUrl: r.html_url }))
}

/** approvalsApi is what gathering approvals asks GitHub about one pull
 * request (approvals.ts). */
export function approvalsApi(octokit: Octokit, owner: string, repo: string, pull: number): ApprovalsApi {
  return {
    comments: () => pullComments(octokit, owner, repo, pull),
    labelEvents: () => labelEvents(octokit, owner, repo, pull),
    permission: login => permission(octokit, owner, repo, login),
    memberOf: (org, team, login) => memberOf(octokit, org, team, login)
  }
}
