import { EXIT_ERROR, EXIT_FAIL, EXIT_PASS } from './errors.js'
import type { Report, Violation } from './report.js'

export const ALLOW_BREAKING_LABEL = 'wiregate allow breaking'
export const ALLOW_REGRESSION_LABEL = 'wiregate allow regression'

/** allowFlags maps PR labels to the harness's --allow list. */
export function allowFlags(labels: string[]): string[] {
  const have = new Set(labels.map(l => l.trim().toLowerCase()))
  const allow: string[] = []
  if (have.has(ALLOW_BREAKING_LABEL)) allow.push('breaking')
  if (have.has(ALLOW_REGRESSION_LABEL)) allow.push('regression')
  return allow
}

export function blocking(report: Report): Violation[] {
  return report.violations.filter(v => !v.allowed)
}

/** couldNotRun is true when the report says wiregate itself failed. */
export function couldNotRun(report: Report): boolean {
  return report.violations.some(v => v.kind === 'error' && !v.allowed)
}

/** exitCode follows report.json: 0 pass, 1 the gate failed, 2 wiregate could not run. */
export function exitCode(report: Report): number {
  if (couldNotRun(report)) return EXIT_ERROR
  return report.result === 'pass' ? EXIT_PASS : EXIT_FAIL
}

export interface GateOutputs {
  result: 'pass' | 'fail'
  violations: number
  breaking: boolean
}

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
