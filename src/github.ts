import * as github from '@actions/github'
import type { CommentApi, IssueComment } from './comment.js'

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
}

/** openPullsWithHead lists the open pull requests whose head is
 * headOwner:branch: how publish mode finds a fork PR, whose workflow_run
 * event lists no pull request. */
export async function openPullsWithHead(octokit: Octokit, owner: string, repo: string, headOwner: string, branch: string): Promise<OpenPull[]> {
  const pulls = await octokit.paginate(octokit.rest.pulls.list, { owner, repo, head: `${headOwner}:${branch}`, state: 'open', per_page: 100 })
  return pulls.map(p => ({ number: p.number, headSha: p.head.sha }))
}

export interface CommitStatus {
  state: 'success' | 'failure' | 'error'
  context: string
  description: string
  targetUrl?: string
}

/** GitHub cuts nothing: a longer description is a 422. */
const DESCRIPTION_LIMIT = 140

export async function setCommitStatus(octokit: Octokit, owner: string, repo: string, sha: string, s: CommitStatus): Promise<void> {
  const description = s.description.length > DESCRIPTION_LIMIT ? `${s.description.slice(0, DESCRIPTION_LIMIT - 1)}…` : s.description
  await octokit.rest.repos.createCommitStatus({ owner, repo, sha, state: s.state, context: s.context, description, target_url: s.targetUrl })
}
