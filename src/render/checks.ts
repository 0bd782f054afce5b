import type { Finding, Report } from '../report.js'
import { cell, code, text } from './safe.js'

const CHECKS: Array<{ kind: 'lint' | 'breaking' | 'avro'; title: string; stage: string }> = [
  { kind: 'lint', title: 'buf lint', stage: 'buf lint' },
  { kind: 'breaking', title: 'buf breaking', stage: 'buf breaking' },
  { kind: 'avro', title: 'Avro compatibility', stage: 'avro-compatibility' }
]

const SHOWN_PER_CHECK = 5

/** checksTable is one row per schema check: its status and its first findings. */
export function checksTable(report: Report): string {
  const rows = ['| check | result | findings |', '|---|---|---|']
  for (const { kind, title, stage } of CHECKS) {
    const findings = report.findings.filter(f => f.kind === kind)
    const violations = report.violations.filter(v => v.kind === kind)
    const allowed = violations.length > 0 && violations.every(v => v.allowed)
    const ran = report.stages.find(s => s.name === stage)
    let status: string
    if (ran === undefined) status = '— not run'
    else if (ran.error) status = '⛔ could not run'
    else if (findings.length === 0 && violations.length === 0) status = '✅ ok'
    else if (allowed) status = `⚠️ ${count(findings, violations)} (allowed)`
    else if (violations.length > 0) status = `❌ ${count(findings, violations)}`
    else status = `ℹ️ ${findings.length} (not gating)`
    const shown = findings.slice(0, SHOWN_PER_CHECK).map(findingText)
    if (findings.length > SHOWN_PER_CHECK) shown.push(`… ${findings.length - SHOWN_PER_CHECK} more`)
    rows.push(`| ${title} | ${status} | ${cell(shown.join('<br>'))} |`)
  }
  return rows.join('\n')
}

function count(findings: Finding[], violations: unknown[]): number {
  return Math.max(findings.length, violations.length)
}

export function findingText(f: Finding): string {
  const where = [f.file, f.line, f.column].filter(x => x !== undefined && x !== '' && x !== 0).join(':')
  const rule = f.rule ? ` ${text(f.rule)}` : ''
  return `${code(where)}${rule}: ${text(f.message)}`
}
