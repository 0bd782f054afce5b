import type { Report } from '../report.js'
import type { Part } from './fit.js'
import { details, EMPTY, join, md, code } from './markdown.js'

/** Up to this many skipped messages are listed as they are; more are folded. */
const LISTED = 5

/** skippedList names the messages wiregate could not measure, one line
 * each: the message, the file declaring it and why. Every other message
 * was measured. */
export function skippedList(report: Report): Part {
  const skipped = report.skipped ?? []
  if (skipped.length === 0) return { md: EMPTY }
  const lines = join(
    skipped.map(s => {
      const side = s.side === 'base' ? md` (the base only: head is measured, with nothing to compare against)` : EMPTY
      return md`- ${code(s.message)} in ${code(s.file)}${side}: ${s.reason}`
    }),
    md`\n`
  )
  const title = md`Not measured (${skipped.length})`
  if (skipped.length <= LISTED) return { md: md`#### ${title}\n${lines}` }
  const line = md`${skipped.length} messages wiregate cannot measure`
  return { md: details(line, lines), cut: 'names', compact: { md: line } }
}
