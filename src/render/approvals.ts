// Approving from the comment: the lines that approve everything that
// fails, and what the pull request's /wiregate comments did that did not
// approve: a refused approval (its author may not), an id no violation
// has, a regression grown past its approved amount, a measured one
// approved without an amount; and an allow label whoever applied it may
// not give. Counted approvals show on their violations.
import type { Report } from '../report.js'
import type { Part } from './fit.js'
import { code, codeBlock, commentLink, EMPTY, join, md, type Md } from './markdown.js'
import { count } from './numbers.js'

const STATUS_WORDS: Record<string, string> = {
  refused: 'did not count',
  unknown: 'matched nothing',
  exceeded: 'no longer covers it',
  amount: 'needs an amount'
}

export function approvalNotes(report: Report): Part {
  const notes = (report.approvals ?? []).filter(a => a.status !== 'counted')
  if (notes.length === 0) return { md: EMPTY }
  const lines: Md[] = notes.map(a => {
    const what = a.action === 'label' ? md`label ${code(a.id)}` : code(`/wiregate ${a.action} ${a.id}`)
    const who = a.by ? commentLink(md`@${a.by}`, a.url) : md`nobody known`
    return md`- ${who}: ${what} ${STATUS_WORDS[a.status] ?? a.status}${a.why ? md`: ${a.why}` : EMPTY}`
  })
  return { md: md`#### Approvals\n\n${join(lines, md`\n`)}` }
}

/** approveAllParts are the lines that approve every blocking violation,
 * as the gate wrote them: one block to post as one comment (schema
 * findings by element on its first line, each measured regression on its
 * own, with its amount), then a line per file where the findings span
 * several. When the comment is full, the measured regressions' lines go
 * (the job summary keeps them); the schema line stays. */
export function approveAllParts(report: Report): Part[] {
  const all = report.approve_all ?? []
  if (all.length === 0) return []
  const schema = all.filter(l => !/ up to /.test(l))
  const block = (lines: string[]): Md => md`**To approve everything that fails**, post as one comment:\n\n${codeBlock('text', lines.join('\n'))}`
  const files = report.approve_files ?? []
  const perFile = files.length > 0 ? md`<sub>Or by file:</sub>\n\n${join(
    files.map(f => md`- ${code(f.file)}: ${code(f.line)}`),
    md`\n`
  )}` : EMPTY
  const measured = all.length - schema.length
  return [
    schema.length === all.length || schema.length === 0
      ? { md: block(all) }
      : { md: block(all), cut: 'approve lines' as const, compact: { md: md`${block(schema)}\n\n<sub>and ${count(measured, 'measured regression', 'measured regressions')}, whose lines the job summary has.</sub>` } },
    { md: perFile }
  ].filter(p => !p.md.empty)
}
