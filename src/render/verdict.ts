import { isBlocking, type Element, type Report, type Violation } from '../report.js'
import { code, EMPTY, join, md, text, type Md } from './markdown.js'
import { count, pct } from './numbers.js'

const KIND_WORDS: Record<string, [string, string]> = {
  lint: ['lint finding', 'lint findings'],
  breaking: ['breaking change', 'breaking changes'],
  avro: ['Avro incompatibility', 'Avro incompatibilities'],
  'avro-mismatch': ['.avsc disagreeing with its proto message', '.avsc files disagreeing with their proto messages'],
  size: ['size regression', 'size regressions'],
  'compressed-size': ['compressed size regression', 'compressed size regressions'],
  cpu: ['CPU regression', 'CPU regressions'],
  time: ['time regression', 'time regressions'],
  throughput: ['throughput regression', 'throughput regressions'],
  coverage: ['cut figure', 'cut figures'],
  error: ['error', 'errors']
}

/** The kinds of violation a message's figures make. */
export const MEASURED = new Set(['size', 'compressed-size', 'cpu', 'time', 'throughput'])

/** verdictLine is the report's first line: the result and, in a few words,
 * why; and, whenever the budget or a missing shard cut a changed message's
 * figure, what was judged. */
export function verdictLine(report: Report): Md {
  const blocking = report.violations.filter(isBlocking)
  const allowed = report.violations.filter(v => v.allowed && !v.approved)
  const approved = report.violations.filter(v => v.approved)
  const error = blocking.find(v => v.kind === 'error')
  if (error) return md`## ⛔ wiregate could not run: ${error.detail}`
  const judged = coverageWords(report)
  // A pass rests on what was measured when figures were cut; a failure
  // stands whatever the cut figures would have said.
  const on = judged.empty || report.result !== 'pass' ? EMPTY : md` on what was measured`
  const tail = judged.empty ? EMPTY : md` · ${judged}`
  const byWhom = join(
    [approved.length > 0 ? md`${reasonsOf(approved)} approved` : EMPTY, allowed.length > 0 ? md`${reasonsOf(allowed)} allowed by label` : EMPTY].filter(x => !x.empty),
    md`; `
  )
  if (report.result === 'pass') {
    if (!byWhom.empty) return md`## ✅ wiregate: pass${on} — ${byWhom}${tail}`
    if (report.change?.no_schema_changed) return md`## ✅ wiregate: pass — no schema changed`
    return md`## ✅ wiregate: pass${on} — no schema or wire-cost regressions${tail}`
  }
  const why = reasonsOf(blocking, undefined, report.elements ?? [])
  const label = byWhom.empty ? EMPTY : md`; ${byWhom}`
  return md`## ❌ wiregate: fail — ${why.empty ? md`see below` : why}${label}${tail}`
}

const FIGURE_WORDS: Record<string, string> = { sized: 'sized', counted: 'counted', timed: 'timed', piped: 'drained' }

/** coverageWords says what was judged when anything was cut: "353 changed:
 * 353 sized, 10 counted, 0 timed, 12 drained; `max-shards: 12` measures
 * all"; empty when every expected figure of every changed message is there. */
export function coverageWords(report: Report): Md {
  const c = report.coverage
  if (!c || !c.cut || Object.keys(c.cut).length === 0) return EMPTY
  const figures = join(
    c.expected.map(f => md`${c[f]} ${FIGURE_WORDS[f]!}`),
    md`, `
  )
  // The missing shards' names are Go's (merged.missing_names): the action builds none.
  const missing = report.merged?.missing_names ?? []
  const shards = missing.length > 0 ? md`; ${count(missing.length, 'shard', 'shards')} missing (${join(missing.map(name => md`${name}`), md`, `)})` : EMPTY
  const needed = report.plan.shards_needed ?? 0
  const more = needed > (report.merged?.count ?? report.shard?.count ?? 1) ? md`; ${code(`max-shards: ${needed}`)} measures all` : EMPTY
  return md`${c.changed} changed: ${figures}${shards}${more}`
}

/** ofMessage is the violations whose subject is the message or one of its
 * figures ("a.B/protobuf/size"). */
export function ofMessage(report: Report, name: string): Violation[] {
  return report.violations.filter(v => v.subject === name || v.subject.startsWith(`${name}/`))
}

/** messageVerdict is a measured message's verdict in one line: what fails
 * it, what a label allowed, or that nothing crossed a threshold. */
export function messageVerdict(violations: Violation[], name: string): Md {
  const blocking = violations.filter(isBlocking)
  const approved = violations.filter(v => v.approved)
  const allowed = violations.filter(v => v.allowed && !v.approved)
  const within = (v: Violation): string => (v.subject.startsWith(`${name}/`) ? v.subject.slice(name.length + 1) : v.subject)
  const parts: Md[] = []
  if (blocking.length > 0) parts.push(md`❌ ${reasonsOf(blocking, within)}`)
  if (approved.length > 0) parts.push(md`✅ approved: ${reasonsOf(approved, within)}`)
  if (allowed.length > 0) parts.push(md`⚠️ allowed by label: ${reasonsOf(allowed, within)}`)
  if (parts.length === 0) parts.push(md`✅ within every threshold`)
  return join(parts, md` · `)
}

/** reasonsOf summarises violations: "1 breaking change, size +12.0% on
 * a.B/protobuf (limit 5%)". subject says how a subject reads (within a
 * message's section, without the message's name). */
export function reasonsOf(violations: Violation[], subject: (v: Violation) => string = v => v.subject, elements: Element[] = []): Md {
  const parts: Md[] = []
  // Grouped by kind and by what they break: "1 breaking change, 2
  // breaking changes vs release v1.4.0".
  const byKind = new Map<string, Violation[]>()
  for (const v of violations) {
    const k = v.against ? `${v.kind} ${v.against}` : v.kind
    byKind.set(k, [...(byKind.get(k) ?? []), v])
  }
  for (const vs of byKind.values()) {
    const kind = vs[0]!.kind
    const release = vs[0]!.against ? md` vs release ${code(vs[0]!.against)}` : EMPTY
    if (MEASURED.has(kind)) {
      parts.push(...vs.slice(0, 2).map(v => md`${kind} ${pct(v.delta_pct)} on ${subject(v)}${limit(v)}`))
      const more = vs.length - 2
      if (more > 0) parts.push(md`${more} more ${KIND_WORDS[kind]![more === 1 ? 0 : 1]}`)
    } else {
      // hasOwn: a kind is report.json's text, and "constructor" is on every object.
      const [one, many] = Object.hasOwn(KIND_WORDS, kind) ? KIND_WORDS[kind]!.map(w => text(w)) : [code(kind), code(kind)]
      // Schema findings count by the elements they are on: a field renamed
      // and retyped is one change, whatever number of buf's rules it trips.
      const changed = new Set(vs.map(v => elements.find(e => v.id && e.violations.includes(v.id))?.id ?? v.id ?? v.detail)).size
      const findings = changed < vs.length ? md` (${count(vs.length, 'finding', 'findings')})` : EMPTY
      parts.push(md`${changed} ${changed === 1 ? one! : many!}${release}${findings}`)
    }
  }
  return join(parts, md`, `)
}

/** countsOf is violations counted by kind, without figures: "2 CPU
 * regressions, 3 size regressions" — a compact row's verdict when the
 * figures do not fit. */
export function countsOf(violations: Violation[]): Md {
  const byKind = new Map<string, number>()
  for (const v of violations) byKind.set(v.kind, (byKind.get(v.kind) ?? 0) + 1)
  return join(
    [...byKind].map(([kind, n]) => {
      const words = Object.hasOwn(KIND_WORDS, kind) ? text(KIND_WORDS[kind]![n === 1 ? 0 : 1]) : code(kind)
      return md`${n} ${words}`
    }),
    md`, `
  )
}

function limit(v: Violation): Md {
  return v.threshold_pct === undefined ? EMPTY : md` (limit ${pct(v.threshold_pct, false)})`
}
