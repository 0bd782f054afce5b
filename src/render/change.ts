// The comment leads with the change: changed and new messages in full,
// the rest (unchanged, removed) one counted line each with the names
// folded. An older report without a change set reads its messages'
// unchanged_schema instead (messageStatus).
import { isBlocking, messageStatus, type Message, type Report } from '../report.js'
import type { Part } from './fit.js'
import { folded } from './details.js'
import { blocks, code, details, EMPTY, join, md, type Md } from './markdown.js'
import { CELLS_LEGEND, formatsTable, messageParts, unmeasuredPart } from './messages.js'
import { count } from './numbers.js'
import { grouped, groupParts } from './groups.js'
import { ofMessage } from './verdict.js'

/** The schema checks, by the gate's stage names, as "what ran" names them. */
const CHECK_STAGES: Array<[string, Md]> = [
  ['buf lint', md`lint`],
  ['buf breaking', md`breaking`],
  ['avro-compatibility', md`Avro compatibility`]
]

/** noSchemaChanged says, when the pull request changed no message, so and
 * what ran instead of measuring. */
export function noSchemaChanged(report: Report): Md {
  if (!report.change?.no_schema_changed) return EMPTY
  const ran = CHECK_STAGES.filter(([stage]) => report.stages.some(s => s.name === stage && !s.error)).map(([, name]) => name)
  const checks = ran.length > 0 ? md`ran ${join(ran, md`, `)}` : md`ran no schema check`
  return md`**No schema changed**: ${checks}; nothing to measure (no message changed, was added or was removed).`
}

/** changedParts are the groups of messages that changed for one cause
 * (groups.ts), then the other changed messages (those failing first), then
 * the new ones: in full, each with its verdict. A message the change set
 * names that has no figures gets its heading and why. */
export function changedParts(report: Report): Part[] {
  const groups = grouped(report)
  const inGroup = new Set(groups.flatMap(g => g.messages))
  const measured = new Map(report.messages.map(m => [m.name, m]))
  const byStatus = (want: (m: Message) => boolean): Message[] => report.messages.filter(m => !inGroup.has(m.name) && want(m))
  const changed = byStatus(m => !['new', 'unchanged'].includes(messageStatus(m)))
  const added = byStatus(m => messageStatus(m) === 'new')
  const fails = (m: Message): number => (ofMessage(report, m.name).some(isBlocking) ? 0 : 1)
  changed.sort((a, b) => fails(a) - fails(b))
  const missing = (names: string[] | undefined, isNew: boolean): Part[] =>
    (names ?? []).filter(n => !measured.has(n) && !inGroup.has(n)).map(n => unmeasuredPart(report, n, isNew))
  const parts = [
    ...groups.flatMap(g => groupParts(report, g)),
    ...changed.flatMap(m => messageParts(report, m)),
    ...missing(report.change?.changed, false),
    ...added.flatMap(m => messageParts(report, m)),
    ...missing(report.change?.new, true)
  ]
  if (changed.length + added.length + groups.length > 0) parts.push({ md: CELLS_LEGEND, cut: 'message tables' })
  return parts
}

/** unchangedParts are one line for the unchanged messages not measured
 * (the default), one for those measured anyway (measure: all, or an older
 * gate), with their tables folded, and one for the removed messages. */
export function unchangedParts(report: Report): Part[] {
  const measured = new Set(report.messages.map(m => m.name))
  const notMeasured = (report.change?.unchanged ?? []).filter(n => !measured.has(n))
  const unchanged = report.messages.filter(m => messageStatus(m) === 'unchanged')
  const removed = report.change?.removed ?? []
  const parts: Part[] = [folded(md`${count(notMeasured.length, 'message', 'messages')} unchanged (schema identical): not re-measured`, notMeasured)]
  if (unchanged.length > 0) {
    const all = report.change?.measure === 'all' ? md` (measure: all)` : EMPTY
    const line = md`${count(unchanged.length, 'message', 'messages')} unchanged (schema identical): measured${all}; their exact figures cannot differ and their timings cannot fail the gate`
    const tables = unchanged.map(m => md`#### ${code(m.name)}\n\n${formatsTable(report, m)}`)
    parts.push({
      md: details(line, blocks(...tables)),
      cut: 'unchanged tables',
      compact: folded(
        line,
        unchanged.map(m => m.name)
      )
    })
  }
  parts.push(folded(md`${count(removed.length, 'message', 'messages')} removed (only the base declares ${removed.length === 1 ? md`it` : md`them`})`, removed))
  return parts
}
