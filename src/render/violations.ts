import { isBlocking, type Element, type ElementChange, type Report, type Violation } from '../report.js'
import type { Part } from './fit.js'
import { code, commentLink, EMPTY, join, md, table, text, type Md } from './markdown.js'
import { measure, pct, pValue } from './numbers.js'
import { MEASURED } from './verdict.js'

/** violationsTable lists what fails, allowed ones marked as such: one row
 * per schema element (its findings, however many of buf's rules they
 * trip, with one id), then one per other violation. Each measured one
 * (size, cpu, time, throughput) is also in its message's verdict line, so
 * when the budget is short the table keeps the others only: schema checks
 * and errors, which have no other place. */
export function violationsTable(report: Report): Part {
  const unmeasured = report.violations.filter(v => !MEASURED.has(v.kind))
  const all = { md: rows(report, report.violations), cut: 'violation rows' as const, compact: { md: rows(report, unmeasured) } }
  return unmeasured.length === report.violations.length ? { md: all.md } : all
}

function rows(report: Report, violations: Violation[]): Md {
  if (violations.length === 0) return EMPTY
  const byId = new Map(report.violations.map(v => [v.id, v]))
  const elements = (report.elements ?? []).filter(e => e.violations.some(id => byId.has(id)))
  const grouped = new Set(elements.flatMap(e => e.violations))
  const elementRows = elements.map(e => elementRow(report, e, e.violations.flatMap(id => byId.get(id) ?? [])))
  const rest = violations.filter(v => !v.id || !grouped.has(v.id)).map(v => violationRow(report, v))
  return table([EMPTY, md`kind`, md`subject`, md`detail`], [...elementRows, ...rest])
}

function violationRow(report: Report, v: Violation): Md[] {
  const numbers = [
    v.unit && v.base !== undefined && v.head !== undefined ? md`${measure(v.base, v.unit)} → ${measure(v.head, v.unit)}` : EMPTY,
    v.delta_pct !== undefined ? pct(v.delta_pct) : EMPTY,
    v.threshold_pct !== undefined ? md`limit ${pct(v.threshold_pct, false)}` : EMPTY,
    pValue(v.p) ?? EMPTY,
    v.base_n && v.head_n ? md`n=${v.base_n}+${v.head_n}` : EMPTY
  ]
  const figures = join(numbers, md`, `)
  const detail = join([figures.empty ? md`${v.detail}` : md`${v.detail} (${figures})`, approvalLine(v)].filter(x => !x.empty), md`<br>`)
  return [mark([v]), kindCell(v, report), v.id ? md`${code(v.subject)}<br>${code(v.id)}` : code(v.subject), detail]
}

/** elementRow is one schema element: where it is, what changed in words,
 * the rules in small print, and the one id and line that approve it. */
function elementRow(report: Report, e: Element, vs: Violation[]): Md[] {
  const changes = join([...e.changes].sort((a, b) => rank(a) - rank(b)).map(changeWords), md`, `)
  // The rules, each with its finding's own id: what an approval note or
  // an earlier approval names.
  const ids = vs.map(v => v.id ?? '')
  const rules = e.rules.length > 0 || ids.length > 1 ? md`<sub>${join(e.rules.map(r => text(r)), md` · `)}${ids.length > 1 ? md` (${join(ids.map(code), md` `)})` : EMPTY}</sub>` : EMPTY
  const blocking = vs.some(isBlocking)
  const approvals = [...new Map(vs.flatMap(v => (v.approved ? [[v.approved.url, v] as const] : []))).values()].map(approvalLine)
  const approve = blocking && e.approve_with ? md`<sub>to approve it: ${code(e.approve_with)}</sub>` : EMPTY
  const detail = join([changes, rules, ...approvals, approve].filter(x => !x.empty), md`<br>`)
  return [mark(vs), kindCell(vs[0]!, report), md`${code(e.file)}<br>${where(e)}<br>${code(e.id)}`, detail]
}

/** where names the element: "field 7 `profile_id` of message `Sample`". */
function where(e: Element): Md {
  const container = e.container ? md`${text(e.container_kind ?? '')} ${code(e.container)}` : EMPTY
  if (!e.member) return container.empty ? md`the file` : container
  const name = e.name ? md` ${code(e.name)}` : EMPTY
  return md`${text(e.member)} ${text(e.number ?? '')}${name} of ${container}`
}

/** The order a change is said in: what a reader knows the field by first. */
const RANKS = ['name', 'json_name', 'type', 'cardinality']

function rank(c: ElementChange): number {
  const i = RANKS.indexOf(c.what)
  return i < 0 ? RANKS.length : i
}

/** changeWords says one change: "renamed `a` → `b`", "JSON name `a` →
 * `b`", "type int32 → bytes", "deleted"; buf's own words otherwise. */
export function changeWords(c: ElementChange): Md {
  switch (c.what) {
    case 'name':
      return md`renamed ${code(c.from ?? '')} → ${code(c.to ?? '')}`
    case 'json_name':
      return md`JSON name ${code(c.from ?? '')} → ${code(c.to ?? '')}`
    case 'deleted':
      return md`deleted`
    case 'other':
      return text(c.text ?? '')
    default:
      if (c.from !== undefined || c.to !== undefined) return md`${text(c.what)} ${text(c.from ?? '')} → ${text(c.to ?? '')}`
      return c.text ? md`${text(c.what)}: ${c.text}` : text(c.what)
  }
}

/** mark is a row's state: ❌ while any of its violations blocks. */
function mark(vs: Violation[]): Md {
  if (vs.some(isBlocking)) return md`❌`
  if (vs.every(v => v.approved)) return md`✅ approved`
  return md`⚠️ allowed`
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
