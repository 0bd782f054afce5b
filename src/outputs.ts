import type { Annotation } from './log.js'
import { isBlocking, type Report, type Violation } from './report.js'

/** blocking are the violations that fail the gate: neither allowed by a
 * label nor approved. */
export function blocking(report: Report): Violation[] {
  return report.violations.filter(isBlocking)
}

export interface GateOutputs {
  result: Report['result']
  violations: number
  breaking: boolean
}

/** gateOutputs are the action's outputs, read off report.json. */
export function gateOutputs(report: Report): GateOutputs {
  return {
    result: report.result,
    violations: blocking(report).length,
    breaking: report.violations.some(v => v.kind === 'breaking')
  }
}

/** failureMessage is what setFailed says: one line per reason. */
export function failureMessage(report: Report): string {
  const reasons = blocking(report).map(v => (v.kind === 'error' ? v.detail : `${v.kind}: ${v.subject}: ${v.detail}`))
  if (reasons.length === 0) reasons.push(...(report.errors ?? []))
  if (reasons.length === 0) reasons.push('report.json says fail')
  return `wiregate failed:\n${reasons.join('\n')}`
}

const TITLES: Record<string, string> = { lint: 'buf lint', breaking: 'buf breaking', avro: 'Avro compatibility' }

export interface FileAnnotation {
  severity: 'error' | 'warning'
  message: string
  annotation: Annotation
}

/** annotations puts every violation that names a file on its line: an
 * error, or a warning when a label allowed it. */
export function annotations(report: Report): FileAnnotation[] {
  return report.violations
    .filter(v => v.file)
    .map(v => ({
      severity: isBlocking(v) ? 'error' : 'warning',
      message: v.detail,
      annotation: {
        title: (Object.hasOwn(TITLES, v.kind) ? TITLES[v.kind]! : `wiregate ${v.kind}`) + (v.against ? ` vs release ${v.against}` : ''),
        file: v.file,
        startLine: v.line,
        startColumn: v.column
      }
    }))
}

export interface StatusOfReport {
  state: 'success' | 'failure' | 'error'
  description: string
}

/** statusOf is report.json's answer as a commit status: its exit code
 * and the one line that says why (report.Decide in Go decides both). */
export function statusOf(report: Report): StatusOfReport {
  const state = report.exit_code === 0 ? 'success' : report.exit_code === 1 ? 'failure' : 'error'
  return { state, description: report.exit_reason }
}
