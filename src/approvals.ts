// The facts the verdict needs to apply a pull request's approvals and
// labels (`wiregate approve --approvals`): every comment as it reads now,
// who applied each label (the timeline's labeled events), what GitHub
// says of the people whose command or label the verdict refused for want
// of facts, and the pull request's author. Gathering them is glue: which
// comments hold a command, and what commands and labels allow, Go
// decides; no command word is read here.
import type { Author, Comment, Labeled, Report } from './report.js'

/** approvals.json as `wiregate approve` and `wiregate gate` read it
 * (harness/parent/report Approvals). */
export interface Approvals {
  comments: Comment[]
  labeled?: Labeled[]
  authors: Author[]
  pr_author: string
}

/** A comment as GitHub lists it: with its author's user type (User, Bot, Organization). */
export type ListedComment = Comment & { author_type?: string }

/** A labeled event: who applied a label, with their user type. */
export interface ListedLabel {
  label: string
  by: string
  byType?: string
}

/** What gathering asks GitHub. */
export interface ApprovalsApi {
  comments(): Promise<ListedComment[]>
  labelEvents(): Promise<ListedLabel[]>
  permission(login: string): Promise<string>
  memberOf(org: string, team: string, login: string): Promise<boolean>
}

/** gatherFacts are the pull request's comments, and who applied its
 * labels when it has any; GitHub's word that an account is a bot comes
 * with them. Nobody's permission is asked yet (askAbout). */
export async function gatherFacts(api: ApprovalsApi, prAuthor: string, labels: string[]): Promise<Approvals> {
  const comments = await api.comments()
  const events = labels.length > 0 ? await api.labelEvents() : []
  const bots = [...new Set([...comments.filter(c => c.author_type === 'Bot').map(c => c.author), ...events.filter(e => e.byType === 'Bot').map(e => e.by)])].sort()
  return {
    comments: comments.map(({ author_type: _, ...c }) => c),
    ...(events.length > 0 ? { labeled: events.map(e => ({ label: e.label, by: e.by })) } : {}),
    authors: bots.map(login => ({ login, permission: '', bot: true })),
    pr_author: prAuthor
  }
}

/** askAbout adds what GitHub says of each person whose command or label
 * decided refused and whom facts say nothing of: their permission, and
 * the first of the decided rules' approver teams they are in (one makes
 * them an approver), asked one at a time. Undefined when
 * nobody needs asking: decided stands. */
export async function askAbout(facts: Approvals, api: ApprovalsApi, decided: Report): Promise<Approvals | undefined> {
  // GitHub's logins are case-insensitive, as the verdict matches them.
  const known = new Set(facts.authors.map(a => a.login.toLowerCase()))
  const logins: string[] = []
  for (const n of decided.approvals ?? []) {
    if (n.status !== 'refused' || n.by === '' || known.has(n.by.toLowerCase())) continue
    known.add(n.by.toLowerCase())
    logins.push(n.by)
  }
  if (logins.length === 0) return undefined
  const teams = (decided.rules?.config.approvers ?? []).filter(a => a.includes('/'))
  const asked = []
  for (const login of logins) {
    // One approver team is enough: the first they are in ends the asking.
    let member: string | undefined
    for (const t of teams) {
      if (await api.memberOf(t.split('/')[0]!, t.split('/')[1]!, login)) {
        member = t
        break
      }
    }
    asked.push({ login, permission: await api.permission(login), teams: member ? [member] : [] })
  }
  return { ...facts, authors: [...facts.authors, ...asked] }
}
