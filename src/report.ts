// The shape of report.json, mirrored from harness/report/report.go. The Go
// harness writes it; the action only reads and renders it.

export const REPORT_VERSION = 1

export type ViolationKind = 'lint' | 'breaking' | 'avro' | 'size' | 'time' | 'throughput' | 'error'

export interface Rev {
  ref: string
  sha: string
}

export interface Violation {
  kind: ViolationKind
  subject: string
  /** prose; the numbers are the fields below, formatted by the renderer */
  detail: string
  /** of base and head: B/msg, sec/op, allocs/op, records/s */
  unit?: string
  base?: number
  head?: number
  delta_pct?: number
  threshold_pct?: number
  p?: number
  base_n?: number
  head_n?: number
  allowed: boolean
  /** the release a breaking or avro violation breaks; absent: the base */
  against?: string
  file?: string
  line?: number
  column?: number
}

export interface Finding {
  kind: 'lint' | 'breaking' | 'avro'
  file: string
  line?: number
  column?: number
  rule?: string
  message: string
  /** the release this finding was checked against; absent: the base */
  against?: string
}

export interface Summary {
  center: number
  lo: number
  hi: number
  n: number
}

export interface Size {
  base: number
  head: number
  delta_pct: number | null
  vs_json?: number
}

export interface Metric {
  name: string
  unit: string
  base: Summary | null
  head: Summary | null
  delta_pct: number | null
  p: number | null
  significant: boolean
  delta?: string
  noise_floor_pct?: number
}

export interface Format {
  format: string
  size: Size | null
  metrics: Metric[]
  aliasing?: boolean
}

export interface Message {
  name: string
  formats: Format[]
}

export interface Pipeline {
  message: string
  format: string
  broker: string
  broker_reason?: string
  base: Summary | null
  head: Summary | null
  delta_pct: number | null
  p: number | null
  significant?: boolean
  base_ns_per_msg?: number
  head_ns_per_msg?: number
  raw_ns_per_msg?: number
  noise_floor_pct?: number
}

export interface Ignored {
  subject: string
  reason: string
}

export interface Env {
  go_version?: string
  os?: string
  cpu?: string
  cores?: number
  count?: number
  alpha?: number
  broker?: string
  broker_reason?: string
  consumer_cap?: string
  bench_pin?: string
  pipeline_n?: number
  runner?: string
}

export interface Stage {
  name: string
  seconds: number
  error?: string
}

/** The release the schema checks also ran against (input breaking-against). */
export interface Against {
  input: string
  ref: string
  sha: string
  /** the release is the base commit: its checks were the base's */
  same_as_base?: boolean
}

export interface HistoryCommit {
  sha: string
  /** the branch it was pushed to */
  ref?: string
  date?: string
  /** the PR's head, the last commit */
  head?: boolean
}

/** One exact figure over the commits: values[i] belongs to commits[i]. */
export interface HistorySeries {
  format: string
  metric: string
  unit: string
  values: Array<number | null>
}

export interface HistoryMessage {
  name: string
  commits: HistoryCommit[]
  series: HistorySeries[]
}

/** Main's exact figures for the messages this change moves (or what a push recorded). */
export interface History {
  branch: string
  points: number
  recorded?: string
  attempts?: number
  note?: string
  messages: HistoryMessage[]
}

export interface Report {
  version: number
  result: 'pass' | 'fail'
  base: Rev
  head: Rev
  violations: Violation[]
  messages: Message[]
  pipeline: Pipeline[]
  findings: Finding[]
  ignored?: Ignored[]
  env: Env
  stages: Stage[]
  benchstat?: string
  errors?: string[]
  warnings?: string[]
  breaking_against?: Against
  history?: History
}

/** errorReport is the report of a run that stopped before the harness could
 * write one, so the summary and the comment still render. */
export function errorReport(base: Rev, head: Rev, message: string, findings: Finding[] = [], stages: Stage[] = []): Report {
  const subject = findings.find(f => f.file)?.file ?? 'wiregate'
  return {
    version: REPORT_VERSION,
    result: 'fail',
    base,
    head,
    violations: [{ kind: 'error', subject, detail: message, allowed: false }],
    messages: [],
    pipeline: [],
    findings,
    env: {},
    stages,
    errors: [message]
  }
}

/** parseReport checks the few fields the action relies on and fills empty
 * lists, so an older or partial report still renders. */
export function parseReport(text: string): Report {
  const raw = JSON.parse(text) as Partial<Report>
  if (raw.version !== REPORT_VERSION) {
    throw new Error(`report.json has version ${String(raw.version)}, this action reads version ${REPORT_VERSION}`)
  }
  if (raw.result !== 'pass' && raw.result !== 'fail') {
    throw new Error(`report.json has result ${JSON.stringify(raw.result)}, want "pass" or "fail"`)
  }
  return {
    version: raw.version,
    result: raw.result,
    base: raw.base ?? { ref: '', sha: '' },
    head: raw.head ?? { ref: '', sha: '' },
    violations: raw.violations ?? [],
    messages: raw.messages ?? [],
    pipeline: raw.pipeline ?? [],
    findings: raw.findings ?? [],
    ignored: raw.ignored ?? [],
    env: raw.env ?? {},
    stages: raw.stages ?? [],
    benchstat: raw.benchstat,
    errors: raw.errors ?? [],
    warnings: raw.warnings ?? [],
    breaking_against: raw.breaking_against,
    history: raw.history ? { ...raw.history, messages: raw.history.messages ?? [] } : undefined
  }
}
