import { isBlocking, type Report, type Violation } from './report.js'

/** blocking are the violations that fail the gate: neither allowed by a
 * label nor approved. */
function blocking(report: Report): Violation[] {
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
