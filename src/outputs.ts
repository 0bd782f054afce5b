import type { Annotation } from './log.js'
import type { Report, Violation } from './report.js'

export function blocking(report: Report): Violation[] {
  return report.violations.filter(v => !v.allowed)
}

export interface GateOutputs {
  result: 'pass' | 'fail'
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
      severity: v.allowed ? 'warning' : 'error',
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

/** statusOf is report.json's answer as a commit status, the way
 * report.ExitCode reads it: an error not allowed means wiregate could not
 * run, else the result. */
export function statusOf(report: Report): StatusOfReport {
  const blockingViolations = blocking(report)
  if (blockingViolations.some(v => v.kind === 'error')) return { state: 'error', description: 'wiregate could not run' }
  if (report.result === 'pass') return { state: 'success', description: 'pass' }
  const n = blockingViolations.length
  return { state: 'failure', description: `fail: ${n} violation${n === 1 ? '' : 's'}` }
}
