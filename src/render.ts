// The report's markdown and its workflow commands are wiregate's (`wiregate
// render`, Go, which escapes every string of the report): the action only
// hands them to GitHub.
import { WiregateError } from './errors.js'
import { firstLine, run } from './proc.js'

/** What a comment is rendered from. */
export interface CommentRequest {
  /** the gating workflow's name and job's id: the sticky marker */
  workflow: string
  job: string
  /** the gating run's page, linked from the comment */
  runUrl?: string
  /** report.json's text */
  report?: string
  /** why publish cannot vouch for the report: the comment leads with it */
  untrusted?: { why: string; files?: string[]; unread?: string }
  /** why the report was refused: the comment says so instead */
  refused?: { reason: string; runId: number }
}

/** Renderer is `wiregate render`. */
export interface Renderer {
  /** a pull request comment: its sticky marker is the first line */
  comment(c: CommentRequest): Promise<string>
  /** the report within a job summary's size */
  summary(report: string, runUrl?: string): Promise<string>
  /** GitHub workflow commands: annotations on files, warnings, the verdict */
  github(report: string): Promise<string>
}

/** wiregateRenderer renders with the wiregate binary at bin. */
export function wiregateRenderer(bin: string): Renderer {
  const render = async (args: string[], input?: string): Promise<string> => {
    const r = await run(bin, ['render', ...args], { input })
    if (r.code !== 0) throw new WiregateError(`wiregate render: ${firstLine(r.stderr) || `exit code ${r.code}`}`)
    return r.stdout
  }
  const url = (runUrl?: string): string[] => (runUrl ? [`--run-url=${runUrl}`] : [])
  return {
    comment: c => {
      const args = ['--as=comment', `--workflow=${c.workflow}`, `--job=${c.job}`, ...url(c.runUrl)]
      if (c.refused) return render([...args, `--refused=${c.refused.reason}`, `--run-id=${c.refused.runId}`])
      if (c.untrusted) args.push(`--untrusted=${JSON.stringify(c.untrusted)}`)
      return render([...args, '--report=-'], c.report ?? '')
    },
    summary: (report, runUrl) => render(['--as=summary', ...url(runUrl), '--report=-'], report),
    github: report => render(['--as=github', '--report=-'], report)
  }
}

/** markerOf is a rendered comment's sticky marker: its first line. */
export function markerOf(body: string): string {
  return body.slice(0, body.indexOf('\n'))
}

/** NO_RENDERER is the job summary when wiregate itself could not be
 * built: no text of the run in it, the step's log has why. */
export const NO_RENDERER = "## ⛔ wiregate could not run\n\nThe step's log says why.\n"
