import type { Report } from '../report.js'
import { measure, pct, pValue } from './numbers.js'
import { cell, code, text } from './safe.js'

/** violationsTable lists every violation, allowed ones marked as such. */
export function violationsTable(report: Report): string {
  if (report.violations.length === 0) return ''
  const rows = ['| | kind | subject | detail |', '|---|---|---|---|']
  for (const v of report.violations) {
    const mark = v.allowed ? '⚠️ allowed' : '❌'
    const numbers = [
      v.unit && v.base !== undefined && v.head !== undefined ? `${measure(v.base, v.unit)} → ${measure(v.head, v.unit)}` : '',
      v.delta_pct !== undefined ? pct(v.delta_pct) : '',
      v.threshold_pct !== undefined ? `limit ${pct(v.threshold_pct, false)}` : '',
      pValue(v.p),
      v.base_n && v.head_n ? `n=${v.base_n}+${v.head_n}` : ''
    ].filter(s => s !== '')
    const detail = numbers.length > 0 ? `${text(v.detail)} (${numbers.join(', ')})` : text(v.detail)
    rows.push(`| ${mark} | ${text(v.kind)} | ${cell(code(v.subject))} | ${cell(detail)} |`)
  }
  return rows.join('\n')
}
