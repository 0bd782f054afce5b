// report.json as the action reads it. Its contract is declared once, by the
// Go types in harness/parent/report: they generate report.schema.json, which
// generates the types below (report.gen.ts, `npm run schema`) and validates
// every report before anything of it is rendered.
import { Ajv2020 } from 'ajv/dist/2020.js'
import schema from '../harness/parent/report/report.schema.json' with { type: 'json' }
import { breach, notJSON } from './contract.js'
import { WiregateError } from './errors.js'
import type { Finding, Report, Rev, Stage, Violation } from './report.gen.js'

export type * from './report.gen.js'

export const REPORT_VERSION = 1

/** isBlocking is whether a violation fails the gate (report.Violation.Blocking
 * in Go, which decides it): Go decided it was
 * neither allowed by a label nor approved by a comment. */
export function isBlocking(v: Violation): boolean {
  return !v.allowed && !v.approved
}

/** errorReport is the report of a run that stopped before the harness could
 * write one, so the summary and the comment still render. */
export function errorReport(base: Rev, head: Rev, message: string, findings: Finding[] = [], stages: Stage[] = []): Report {
  const subject = findings.find(f => f.file)?.file ?? 'wiregate'
  return {
    version: REPORT_VERSION,
    result: 'fail',
    exit_code: 2,
    exit_reason: `wiregate could not run: ${message}`,
    base,
    head,
    violations: [{ kind: 'error', subject, detail: message, allowed: false }],
    messages: [],
    pipeline: [],
    findings,
    env: {},
    stages,
    errors: [message],
    plan: { budget_seconds: 0 }
  }
}

const validate = new Ajv2020({ allErrors: false, strict: true }).compile<Report>(schema)

/** parseReport reads report.json and checks it against the contract
 * (report.schema.json): every field's type, every word (a kind, a stage,
 * a status) against its list, and no field the contract lacks, so nothing
 * unchecked reaches the comment. report.json is the gate's own output in
 * gate mode and an artifact written by a PR's code in publish mode: both
 * are read the same strict way. source names the file in the one-line
 * error, which names the field's path and never its value. */
export function parseReport(text: string, source = 'report.json'): Report {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (err) {
    throw new WiregateError(notJSON(source, err))
  }
  const version = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as { version?: unknown }).version : undefined
  if (version !== REPORT_VERSION) {
    const seen = typeof version === 'number' ? String(version) : version === undefined ? 'none' : `a ${typeof version}`
    throw new WiregateError(`${source} has version ${seen}, this action reads version ${REPORT_VERSION}`)
  }
  if (!validate(raw)) throw new WiregateError(`${source}: ${breach(validate.errors?.[0])}`)
  return raw
}
