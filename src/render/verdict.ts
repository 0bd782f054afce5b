import type { Report, Violation } from '../report.js'
import { pct } from './numbers.js'
import { code, text } from './safe.js'

const KIND_WORDS: Record<string, [string, string]> = {
  lint: ['lint finding', 'lint findings'],
  breaking: ['breaking change', 'breaking changes'],
  avro: ['Avro incompatibility', 'Avro incompatibilities'],
  size: ['size regression', 'size regressions'],
  cpu: ['CPU regression', 'CPU regressions'],
  time: ['time regression', 'time regressions'],
  throughput: ['throughput regression', 'throughput regressions'],
  error: ['error', 'errors']
}

/** verdictLine is the report's first line: the result and, in a few words, why. */
export function verdictLine(report: Report): string {
  const blocking = report.violations.filter(v => !v.allowed)
  const allowed = report.violations.filter(v => v.allowed)
  const error = blocking.find(v => v.kind === 'error')
  let line: string
  if (error) {
    line = `## ⛔ wiregate could not run: ${text(error.detail)}`
  } else if (report.result === 'pass') {
    line = '## ✅ wiregate: pass'
    line += allowed.length > 0 ? ` — ${reasons(allowed)} allowed by label` : ' — no schema or wire-cost regressions'
  } else {
    line = `## ❌ wiregate: fail — ${reasons(blocking) || 'see below'}`
    if (allowed.length > 0) line += `; allowed by label: ${reasons(allowed)}`
  }
  return line
}

/** reasons summarises violations: "1 breaking change, size +12.0% on a.B/protobuf (limit 5%)". */
function reasons(violations: Violation[]): string {
  const parts: string[] = []
  // Grouped by kind and by what they break: "1 breaking change, 2
  // breaking changes vs release v1.4.0".
  const byKind = new Map<string, Violation[]>()
  for (const v of violations) {
    const k = v.against ? `${v.kind} ${v.against}` : v.kind
    byKind.set(k, [...(byKind.get(k) ?? []), v])
  }
  for (const vs of byKind.values()) {
    const kind = vs[0]!.kind
    const release = vs[0]!.against ? ` vs release ${code(vs[0]!.against)}` : ''
    if (kind === 'size' || kind === 'cpu' || kind === 'time' || kind === 'throughput') {
      const shown = vs.slice(0, 2).map(v => `${kind} ${pct(v.delta_pct)} on ${text(v.subject)}${limit(v)}`)
      if (vs.length > 2) shown.push(`${vs.length - 2} more ${KIND_WORDS[kind]![1]}`)
      parts.push(...shown)
    } else {
      // hasOwn: a kind is report.json's text, and "constructor" is on every object.
      const [one, many] = Object.hasOwn(KIND_WORDS, kind) ? KIND_WORDS[kind]! : [code(kind), code(kind)]
      parts.push(`${vs.length} ${vs.length === 1 ? one : many}${release}`)
    }
  }
  return parts.join(', ')
}

function limit(v: Violation): string {
  return v.threshold_pct === undefined ? '' : ` (limit ${pct(v.threshold_pct, false)})`
}
