import { isBlocking, type Report, type Violation } from '../report.js'
import type { Part } from './budget.js'
import { code, commentLink, EMPTY, join, md, table, type Md } from './markdown.js'
import { measure, pct, pValue } from './numbers.js'
import { MEASURED } from './verdict.js'

/** violationsTable lists every violation, allowed ones marked as such.
 * Each measured one (size, cpu, time, throughput) is also in its
 * message's verdict line, so when the budget is short the table keeps the
 * others only: schema checks and errors, which have no other place. */
export function violationsTable(report: Report): Part {
  const unmeasured = report.violations.filter(v => !MEASURED.has(v.kind))
  const all = { md: rows(report, report.violations), cut: 'violation rows' as const, compact: { md: rows(report, unmeasured) } }
  return unmeasured.length === report.violations.length ? { md: all.md } : all
}

function rows(report: Report, violations: Violation[]): Md {
  if (violations.length === 0) return EMPTY
  const rows = violations.map(v => {
    const numbers = [
      v.unit && v.base !== undefined && v.head !== undefined ? md`${measure(v.base, v.unit)} → ${measure(v.head, v.unit)}` : EMPTY,
      v.delta_pct !== undefined ? pct(v.delta_pct) : EMPTY,
      v.threshold_pct !== undefined ? md`limit ${pct(v.threshold_pct, false)}` : EMPTY,
      pValue(v.p) ?? EMPTY,
      v.base_n && v.head_n ? md`n=${v.base_n}+${v.head_n}` : EMPTY
    ]
    const figures = join(numbers, md`, `)
    const detail = join([figures.empty ? md`${v.detail}` : md`${v.detail} (${figures})`, approvalLine(v)].filter(x => !x.empty), md`<br>`)
    const mark = v.approved ? md`✅ approved` : v.allowed ? md`⚠️ allowed` : md`❌`
    return [mark, kindCell(v, report), v.id ? md`${code(v.subject)}<br>${code(v.id)}` : code(v.subject), detail]
  })
  return table([EMPTY, md`kind`, md`subject`, md`detail`], rows)
}

/** approvalLine says who approved a violation, when, up to what and why,
 * linking their comment; or, for one that fails, the line that approves it. */
function approvalLine(v: Violation): Md {
  const a = v.approved
  if (a) {
    const upTo = a.up_to_pct !== undefined ? md` up to ${pct(a.up_to_pct)}` : EMPTY
    const reason = a.reason ? md`: ${a.reason}` : EMPTY
    return md`<sub>approved by ${commentLink(md`@${a.by}`, a.url)} on ${a.at.slice(0, 10)}${upTo}${reason}</sub>`
  }
  if (isBlocking(v) && v.approve_with) return md`<sub>to approve it: ${code(v.approve_with)}</sub>`
  return EMPTY
}

/** kindCell says what a schema violation breaks when a release was checked too. */
function kindCell(v: Violation, report: Report): Md {
  if (v.against) return md`${v.kind}: breaks release ${code(v.against)}`
  if (report.breaking_against && (v.kind === 'breaking' || v.kind === 'avro')) return md`${v.kind}: breaks the base`
  return md`${v.kind}`
}
