import type { Report } from '../report.js'
import { cell, pct, pValue } from './numbers.js'

/** violationsTable lists every violation, allowed ones marked as such. */
export function violationsTable(report: Report): string {
  if (report.violations.length === 0) return ''
  const rows = ['| | kind | subject | detail |', '|---|---|---|---|']
  for (const v of report.violations) {
    const mark = v.allowed ? '⚠️ allowed' : '❌'
    const numbers = [
      v.delta_pct !== undefined ? pct(v.delta_pct) : '',
      v.threshold_pct !== undefined ? `limit ${pct(v.threshold_pct, false)}` : '',
      pValue(v.p)
    ].filter(s => s !== '')
    const detail = numbers.length > 0 ? `${v.detail} (${numbers.join(', ')})` : v.detail
    rows.push(`| ${mark} | ${v.kind} | \`${cell(v.subject)}\` | ${cell(detail)} |`)
  }
  return rows.join('\n')
}
