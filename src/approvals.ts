// The facts the verdict needs to apply a pull request's approvals
// (`wiregate approve --approvals`): its comments that speak to wiregate, as
// they read now, what GitHub says of each author (their permission, the
// approver teams of wiregate.yaml they are in) and the pull request's
// author. Gathering them is glue; what they approve, Go decides.

/** A pull request comment as the approvals read it (harness/parent/report Comment). */
export interface PullComment {
  id: number
  url: string
  author: string
  body: string
  created_at: string
  updated_at: string
}

export interface Approvals {
  comments: PullComment[]
  authors: Array<{ login: string; permission: string; teams?: string[]; bot?: boolean }>
  pr_author: string
}

/** A comment as GitHub lists it: with its author's user type (User, Bot, Organization). */
export type ListedComment = PullComment & { author_type?: string }

/** What gathering asks GitHub. */
export interface ApprovalsApi {
  comments(): Promise<ListedComment[]>
  permission(login: string): Promise<string>
  memberOf(org: string, team: string, login: string): Promise<boolean>
}

/** gatherApprovals is the facts, or undefined when no comment speaks to
 * wiregate (then the verdict has nothing to apply). approvers are
 * wiregate.yaml's, as the report's rules say: only their teams are asked
 * about. */
export async function gatherApprovals(api: ApprovalsApi, prAuthor: string, approvers: string[]): Promise<Approvals | undefined> {
  const listed = (await api.comments()).filter(c => c.body.includes('/wiregate'))
  if (listed.length === 0) return undefined
  const teams = approvers.filter(a => a.includes('/'))
  const logins = [...new Set(listed.map(c => c.author))].sort()
  // What GitHub says the account is; the verdict refuses a bot's command.
  const bots = new Set(listed.filter(c => c.author_type === 'Bot').map(c => c.author))
  const authors = await Promise.all(
    logins.map(async login => {
      const member = await Promise.all(teams.map(t => api.memberOf(t.split('/')[0]!, t.split('/')[1]!, login)))
      return { login, permission: await api.permission(login), teams: teams.filter((_, i) => member[i]), ...(bots.has(login) ? { bot: true } : {}) }
    })
  )
  const comments = listed.map(({ author_type: _, ...c }) => c)
  return { comments, authors, pr_author: prAuthor }
}
