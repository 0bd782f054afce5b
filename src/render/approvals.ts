// What the pull request's /wiregate comments did that did not approve: a
// refused approval (its author may not), an id no violation has, a
// regression grown past its approved amount, a measured one approved
// without an amount. Counted approvals show on their violations.
import type { Report } from '../report.js'
import type { Part } from './budget.js'
import { code, commentLink, EMPTY, join, md, type Md } from './markdown.js'

const STATUS_WORDS: Record<string, string> = {
  refused: 'did not count',
  unknown: 'matched nothing',
  exceeded: 'no longer covers it',
  amount: 'needs an amount'
}

export function approvalNotes(report: Report): Part {
  const notes = (report.approvals ?? []).filter(a => a.status !== 'counted')
  if (notes.length === 0) return { md: EMPTY }
  const lines: Md[] = notes.map(
    a => md`- ${commentLink(md`@${a.by}`, a.url)}: ${code(`/wiregate ${a.action} ${a.id}`)} ${STATUS_WORDS[a.status] ?? a.status}${a.why ? md`: ${a.why}` : EMPTY}`
  )
  return { md: md`#### Approvals\n\n${join(lines, md`\n`)}` }
}
