import type { Report, Violation } from '../report.js'
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
    rows.push(`| ${mark} | ${kindCell(v, report)} | ${cell(code(v.subject))} | ${cell(detail)} |`)
  }
  return rows.join('\n')
}

/** kindCell says what a schema violation breaks when a release was checked too. */
function kindCell(v: Violation, report: Report): string {
  if (v.against) return `${text(v.kind)}: breaks release ${cell(code(v.against))}`
  if (report.breaking_against && (v.kind === 'breaking' || v.kind === 'avro')) return `${text(v.kind)}: breaks the base`
  return text(v.kind)
}
