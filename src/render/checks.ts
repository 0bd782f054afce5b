import type { Finding, Report } from '../report.js'
import { cell, code, text } from './safe.js'

const CHECKS: Array<{ kind: 'lint' | 'breaking' | 'avro'; title: string; stage: string }> = [
  { kind: 'lint', title: 'buf lint', stage: 'buf lint' },
  { kind: 'breaking', title: 'buf breaking', stage: 'buf breaking' },
  { kind: 'avro', title: 'Avro compatibility', stage: 'avro-compatibility' }
]

/** The gate's stage names for the checks against a release. */
const RELEASE_STAGES: Record<string, string> = {
  breaking: 'buf breaking (release)',
  avro: 'avro-compatibility (release)'
}

const SHOWN_PER_CHECK = 5

/** checksTable is one row per schema check: its status and its first
 * findings. With a release (breaking-against), buf breaking and Avro
 * compatibility have a row each for "breaks the base" and "breaks release
 * X". */
export function checksTable(report: Report): string {
  const rows = ['| check | result | findings |', '|---|---|---|']
  const release = report.breaking_against
  for (const { kind, title, stage } of CHECKS) {
    if (!release || kind === 'lint') {
      rows.push(checkRow(report, kind, title, stage, undefined))
      continue
    }
    rows.push(checkRow(report, kind, `${title} vs the base`, stage, undefined))
    const releaseTitle = `${title} vs release \`${cell(release.ref)}\``
    if (release.same_as_base) rows.push(`| ${releaseTitle} | = the base (same commit) | |`)
    else rows.push(checkRow(report, kind, releaseTitle, RELEASE_STAGES[kind]!, release.ref))
  }
  return rows.join('\n')
}

function checkRow(report: Report, kind: string, title: string, stage: string, against: string | undefined): string {
  const findings = report.findings.filter(f => f.kind === kind && f.against === against)
  const violations = report.violations.filter(v => v.kind === kind && v.against === against)
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
  return `| ${title} | ${status} | ${cell(shown.join('<br>'))} |`
}

function count(findings: Finding[], violations: unknown[]): number {
  return Math.max(findings.length, violations.length)
}

export function findingText(f: Finding): string {
  const where = [f.file, f.line, f.column].filter(x => x !== undefined && x !== '' && x !== 0).join(':')
  const rule = f.rule ? ` ${text(f.rule)}` : ''
  return `${code(where)}${rule}: ${text(f.message)}`
}
