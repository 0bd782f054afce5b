import * as github from '@actions/github'
import type { CommentApi, IssueComment } from './comment.js'

/** issueCommentApi backs the sticky comment with Octokit (GITHUB_API_URL aware). */
export function issueCommentApi(token: string, owner: string, repo: string, issueNumber: number): CommentApi {
  const octokit = github.getOctokit(token)
  const issue = { owner, repo, issue_number: issueNumber }
  const slim = (c: { id: number; body?: string | null }): IssueComment => ({ id: c.id, body: c.body })
  return {
    list: async () => (await octokit.paginate(octokit.rest.issues.listComments, { ...issue, per_page: 100 })).map(slim),
    create: async body => slim((await octokit.rest.issues.createComment({ ...issue, body })).data),
    update: async (id, body) => slim((await octokit.rest.issues.updateComment({ owner, repo, comment_id: id, body })).data)
  }
}
