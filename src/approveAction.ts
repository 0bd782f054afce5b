// Approve mode: on a pull request comment (issue_comment), decide the PR
// head's latest gate report again with the PR's approvals and update its
// sticky comment and commit status, in seconds and without running PR
// code: the report comes from the gating run's artifact, posted as
// publish mode posts it (publish.ts), the verdict from `wiregate approve`
// by the base's rules (judge.ts). A comment that cannot change a verdict
// costs at most the one call that says whether its author may approve.
import * as github from '@actions/github'
import type { ActionInputs } from './actionInputs.js'
import type { Approvals } from './approvals.js'
import { budgeted } from './budget.js'
import { errorMessage, EXIT_ERROR, EXIT_PASS, WiregateError } from './errors.js'
import { fileAt, headRuns, memberOf, permission, pullFacts } from './github.js'
import type { Log } from './log.js'
import { publishReports } from './publish.js'
import { reportApi, type Repository } from './publishAction.js'
import { runCommands, type Held, type RunEnv } from './run.js'

/** The fields of an issue_comment event approve mode reads. */
interface CommentEvent {
  action?: string
  issue?: { number?: number; pull_request?: unknown; user?: { login?: string } }
  comment?: { id?: number; body?: string; user?: { login?: string; type?: string } }
  /** an edit's: the body before it */
  changes?: { body?: { from?: string } }
}

/** runApproveMode is the action in mode: approve. Its result is the exit
 * code: 0 when the comment could change no verdict or the reports were
 * decided again, 2 when that could not be done. */
export async function runApproveMode(inputs: ActionInputs, eventName: string, payload: unknown, config: string, env: RunEnv, log: Log): Promise<number> {
  try {
    if (eventName !== 'issue_comment') {
      throw new WiregateError(`mode: approve runs on issue_comment events, this run is a ${eventName || 'unknown'} event: trigger the approve workflow with 'on: issue_comment' (docs/action.md)`)
    }
    const event = payload as CommentEvent
    const pull = event.issue?.number
    if (!event.issue?.pull_request || typeof pull !== 'number') {
      log.info('the comment is on an issue, not a pull request: nothing to decide')
      return EXIT_PASS
    }
    const [owner, repo] = (process.env.GITHUB_REPOSITORY ?? '').split('/')
    if (!owner || !repo) throw new WiregateError('GITHUB_REPOSITORY is not set: run approve mode in a GitHub Actions job')
    const r: Repository = { octokit: budgeted(github.getOctokit(inputs.githubToken)), token: inputs.githubToken, owner, repo }
    const why = await whyNothingChanges(event, r, config, env)
    if (why) {
      log.info(`${why}: nothing to decide`)
      return EXIT_PASS
    }
    const pr = await pullFacts(r.octokit, owner, repo, pull)
    for (const run of await headRuns(r.octokit, owner, repo, pr.headSha)) {
      const api = reportApi(r, { ...run, headSha: pr.headSha }, config, env)
      const artifacts = await api.reportArtifacts()
      if (artifacts.length === 0) continue
      log.info(`PR #${pull}: deciding ${artifacts.map(a => a.name).join(', ')} of run ${run.id} again`)
      return await publishReports({ ...run, headSha: pr.headSha }, { number: pull, baseRef: pr.baseRef }, artifacts, api, log, { comment: inputs.comment })
    }
    log.warning(`no gate run of head ${pr.headSha} uploaded a report (wiregate-report-<job>): nothing to decide again`)
    return EXIT_PASS
  } catch (err) {
    log.error(`wiregate approve: ${errorMessage(err)}`, { title: 'wiregate could not decide the approvals' })
    return EXIT_ERROR
  }
}

/** whyNothingChanges says why the triggering comment cannot change a
 * verdict, or undefined when it can: it holds a command (as it reads now,
 * or before its edit or deletion: a withdrawn command changes a verdict
 * too) whose author may approve. wiregate reads the command words and
 * decides who may give them; GitHub is asked the cheapest question first,
 * and each answer only when the ones before did not decide: the author's
 * permission, judged by the default rules (which refuse everyone a
 * wiregate.yaml can); then, when they refuse, the base's wiregate.yaml;
 * then its approver teams, one at a time, and only when membership could
 * change the answer (wiregate asks itself first, as if the author were in
 * every team). */
async function whyNothingChanges(event: CommentEvent, r: Repository, config: string, env: RunEnv): Promise<string | undefined> {
  const author = event.comment?.user?.login ?? ''
  const bodies = [event.comment?.body, event.changes?.body?.from].filter((b): b is string => typeof b === 'string')
  const bot = event.comment?.user?.type === 'Bot'
  const facts: Approvals = {
    comments: bodies.map(body => ({ id: event.comment?.id ?? 0, url: '', author, body, created_at: '', updated_at: '' })),
    authors: bot ? [{ login: author, permission: '', bot: true }] : [],
    pr_author: event.issue?.user?.login ?? ''
  }
  let held = await runCommands(facts, env)
  if (!held.comments.some(c => c.commands > 0)) return `the comment holds no /wiregate command${bodies.length > 1 ? ', before or after its edit' : ''}`
  if (!bot) facts.authors = [{ login: author, permission: await permission(r.octokit, r.owner, r.repo, author) }]
  held = await runCommands(facts, env)
  if (mayApprove(held)) return undefined
  const pr = await pullFacts(r.octokit, r.owner, r.repo, event.issue!.number!)
  const baseConfig = (await fileAt(r.octokit, r.owner, r.repo, config, pr.baseSha)) ?? ''
  held = await runCommands(facts, env, baseConfig)
  const teams = held.approver_teams ?? []
  const inTeams = (ts: string[]): Approvals => ({ ...facts, authors: facts.authors.map(a => ({ ...a, teams: ts })) })
  if (!mayApprove(held) && !bot && teams.length > 0 && mayApprove(await runCommands(inTeams(teams), env, baseConfig))) {
    for (const team of teams) {
      const [org, slug] = team.split('/') as [string, string]
      if (!(await memberOf(r.octokit, org, slug, author))) continue
      held = await runCommands(inTeams([team]), env, baseConfig)
      if (mayApprove(held)) return undefined
    }
  }
  if (mayApprove(held)) return undefined
  return `the comment's /wiregate command is @${author}'s, who may not give it (${held.comments.find(c => c.refused)?.refused ?? 'refused'})`
}

/** mayApprove is whether a comment held holds a command its author may give. */
function mayApprove(held: Held): boolean {
  return held.comments.some(c => c.commands > 0 && !c.refused)
}
