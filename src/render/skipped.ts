import type { Report } from '../report.js'
import { code, text } from './safe.js'

/** skippedList names the messages wiregate could not measure, one line
 * each: the message, the file declaring it and why. Every other message
 * was measured. */
export function skippedList(report: Report): string {
  const skipped = report.skipped ?? []
  if (skipped.length === 0) return ''
  const lines = skipped.map(s => {
    const side = s.side === 'base' ? ' (the base only: head is measured, with nothing to compare against)' : ''
    return `- ${code(s.message)} in ${code(s.file)}${side}: ${text(s.reason)}`
  })
  return [`#### Not measured (${skipped.length})`, ...lines].join('\n')
}
