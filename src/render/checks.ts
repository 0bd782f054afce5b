import { isBlocking, type Finding, type Report } from '../report.js'
import type { Part } from './fit.js'
import { code, details, EMPTY, join, md, table, type Md } from './markdown.js'
import { count } from './numbers.js'

const CHECKS: Array<{ kind: 'lint' | 'breaking' | 'avro' | 'avro-mismatch'; title: Md; stage: string }> = [
  { kind: 'lint', title: md`buf lint`, stage: 'buf lint' },
  { kind: 'breaking', title: md`buf breaking`, stage: 'buf breaking' },
  { kind: 'avro', title: md`Avro compatibility`, stage: 'avro-compatibility' },
  { kind: 'avro-mismatch', title: md`.avsc against its proto message`, stage: 'schemas' }
]

/** The gate's stage names for the checks against a release. */
const RELEASE_STAGES: Record<string, string> = {
  breaking: 'buf breaking (release)',
  avro: 'avro-compatibility (release)'
}

const SHOWN_PER_CHECK = 5

/** checksTable is one row per schema check: its status and its first
 * findings the pull request brings (a lint finding the base already has is
 * debt, listed apart: existingDebt). With a release (breaking-against), buf
 * breaking and Avro compatibility have a row each for "breaks the base"
 * and "breaks release X". */
export function checksTable(report: Report): Md {
  const rows: Md[][] = []
  const release = report.breaking_against
  for (const { kind, title, stage } of CHECKS) {
    if (!release || kind === 'lint' || kind === 'avro-mismatch') {
      rows.push(checkRow(report, kind, title, stage, undefined))
      continue
    }
    rows.push(checkRow(report, kind, md`${title} vs the base`, stage, undefined))
    const releaseTitle = md`${title} vs release ${code(release.ref)}`
    if (release.same_as_base) rows.push([releaseTitle, md`= the base (same commit)`, EMPTY])
    else rows.push(checkRow(report, kind, releaseTitle, RELEASE_STAGES[kind]!, release.ref))
  }
  return table([md`check`, md`result`, md`findings`], rows)
}

function checkRow(report: Report, kind: string, title: Md, stage: string, against: string | undefined): Md[] {
  const findings = report.findings.filter(f => f.kind === kind && f.against === against && !f.existing)
  const violations = report.violations.filter(v => v.kind === kind && v.against === against)
  const allowed = violations.length > 0 && violations.every(v => v.allowed && !v.approved)
  const approved = violations.length > 0 && violations.every(v => !isBlocking(v)) && violations.some(v => v.approved)
  const ran = report.stages.find(s => s.name === stage)
  const n = Math.max(findings.length, violations.length)
  let status: Md
  if (ran === undefined) status = md`— not run`
  else if (ran.error) status = md`⛔ could not run`
  else if (ran.note?.startsWith('skipped: ')) status = md`— ${ran.note}`
  else if (n === 0) status = md`✅ ok`
  else if (approved) status = md`✅ ${n} (approved)`
  else if (allowed) status = md`⚠️ ${n} (allowed)`
  else if (violations.length > 0) status = md`❌ ${n}`
  else status = md`ℹ️ ${findings.length} (not gating)`
  const shown = findings.slice(0, SHOWN_PER_CHECK).map(findingText)
  if (findings.length > SHOWN_PER_CHECK) shown.push(md`… ${findings.length - SHOWN_PER_CHECK} more`)
  return [title, status, join(shown, md`<br>`)]
}

/** existingDebt lists, collapsed, the lint findings the base already has:
 * debt the pull request did not add. Whether they fail is the gate's
 * verdict (input lint-findings), shown in the checks table. */
export function existingDebt(report: Report): Part {
  const debt = report.findings.filter(f => f.existing)
  if (debt.length === 0) return { md: EMPTY }
  const line = md`${count(debt.length, 'lint finding', 'lint findings')} the base already has (existing debt)`
  return {
    md: details(
      line,
      join(
        debt.map(f => md`- ${findingText(f)}`),
        md`\n`
      )
    ),
    cut: 'names',
    compact: { md: line }
  }
}

export function findingText(f: Finding): Md {
  const where = [f.file, f.line, f.column].filter(x => x !== undefined && x !== '' && x !== 0).join(':')
  const rule = f.rule ? md` ${f.rule}` : EMPTY
  return md`${code(where)}${rule}: ${f.message}`
}
