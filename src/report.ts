// The shape of report.json, mirrored from harness/report/report.go. The Go
// harness writes it; the action only reads and renders it.
import { WiregateError } from './errors.js'
import { defined, Fields } from './jsonShape.js'

export const REPORT_VERSION = 1

/** The kinds the gate writes today (the contract lists lint, breaking, avro,
 * size, cpu, time, throughput, error). The parser accepts any lower-case word,
 * so a kind a newer gate adds renders by its name instead of failing. */
export type ViolationKind = 'lint' | 'breaking' | 'avro' | 'size' | 'cpu' | 'time' | 'throughput' | 'error' | (string & {})

export interface Rev {
  ref: string
  sha: string
}

export interface Violation {
  kind: ViolationKind
  subject: string
  /** prose; the numbers are the fields below, formatted by the renderer */
  detail: string
  /** of base and head: B/msg, sec/op, allocs/op, instr/op, records/s */
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
  /** lint | breaking | avro */
  kind: string
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
  /** absent when benchmath could not bound the center (too few samples) */
  lo?: number
  hi?: number
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
  /** the schema is byte-identical on both sides: timings are not gated */
  unchanged_schema?: boolean
}

/** How many records each side's backlog of a pipeline row held, and why. */
export interface Backlog {
  n: number
  /** the byte budget when it decided n (n = budget / mean_bytes); absent: n is the count asked for */
  budget_bytes?: number
  /** the message's mean record in its biggest format */
  mean_bytes: number
  format: string
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
  backlog?: Backlog
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
  /** timing rounds of the unchanged-schema messages, when fewer than count */
  unchanged_rounds?: number
  alpha?: number
  broker?: string
  broker_reason?: string
  consumer_cap?: string
  bench_pin?: string
  pipeline_n?: number
  pipeline_bytes?: number
  broker_peak_rss_bytes?: number
  consumer_peak_rss_bytes?: number
  runner?: string
}

export interface Stage {
  name: string
  seconds: number
  error?: string
  /** what the stage did where that varies: restored or built, reused or rebuilt */
  note?: string
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

/** A message wiregate cannot measure (a MessageSet, a weak field, a message holding one). */
export interface Skipped {
  message: string
  file: string
  reason: string
  /** head: head cannot measure it; base: only the base could not */
  side: string
}

/** How CPU cost was measured (input cpu-cost): instructions counted, or why not. */
export interface CPUCost {
  mode: string
  tool?: string
  installed?: string
  unavailable?: string
}

/** What the gate cut to fit its time budget. */
export interface Plan {
  budget_seconds: number
  bench?: { count: number; benchtime: string; untimed?: string[]; note?: string }
  pipeline?: { untimed?: string[]; note?: string }
  /** unchanged-schema messages whose instructions the budget left uncounted */
  cpu?: { uncounted?: string[]; note?: string }
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
  plan?: Plan
  breaking_against?: Against
  history?: History
  skipped?: Skipped[]
  cpu_cost?: CPUCost
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

/** parseReport reads report.json against the contract of REPORT_VERSION:
 * every field the renderer uses is checked for its type, and only those
 * fields are kept, so nothing unchecked reaches the comment. report.json is
 * the gate's own output in gate mode and an artifact written by a PR's code
 * in publish mode: both are read the same strict way. Absent lists are
 * empty, so an older or partial report still renders. source names the file
 * in the one-line error. */
export function parseReport(text: string, source = 'report.json'): Report {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (err) {
    // The parser's message quotes the input; say where instead.
    const at = /position (\d+)/.exec(err instanceof Error ? err.message : '')?.[1]
    throw new WiregateError(`${source} is not valid JSON${at ? ` (at byte ${at})` : ''}`)
  }
  const r = Fields.of(source, '', raw)
  const version = r.has('version') ? r.number('version') : undefined
  if (version !== REPORT_VERSION) {
    throw new WiregateError(`${source} has version ${version ?? 'none'}, this action reads version ${REPORT_VERSION}`)
  }
  const result = r.string('result')
  if (result !== 'pass' && result !== 'fail') throw new WiregateError(`${source}: result is not "pass" or "fail"`)
  const rev = (f: Fields): Rev => ({ ref: f.string('ref'), sha: f.string('sha') })
  return defined({
    version,
    result,
    base: r.has('base') ? rev(r.object('base')) : { ref: '', sha: '' },
    head: r.has('head') ? rev(r.object('head')) : { ref: '', sha: '' },
    violations: r.list('violations', violation),
    messages: r.list('messages', m =>
      defined({ name: m.string('name'), formats: m.list('formats', format), unchanged_schema: m.optional('unchanged_schema', 'bool') })
    ),
    pipeline: r.list('pipeline', pipeline),
    findings: r.list('findings', finding),
    ignored: r.list('ignored', i => ({ subject: i.string('subject'), reason: i.string('reason') })),
    env: r.has('env') ? env(r.object('env')) : {},
    stages: r.list('stages', s =>
      defined({ name: s.string('name'), seconds: s.number('seconds'), error: s.optional('error', 'string'), note: s.optional('note', 'string') })
    ),
    benchstat: r.optional('benchstat', 'string'),
    errors: r.strings('errors'),
    warnings: r.strings('warnings'),
    plan: r.has('plan') ? plan(r.object('plan')) : undefined,
    breaking_against: r.has('breaking_against') ? against(r.object('breaking_against')) : undefined,
    history: r.has('history') ? history(r.object('history')) : undefined,
    skipped: r.list('skipped', s => ({ message: s.string('message'), file: s.string('file'), reason: s.string('reason'), side: s.string('side') })),
    cpu_cost: r.has('cpu_cost') ? cpuCost(r.object('cpu_cost')) : undefined
  })
}

function cpuCost(f: Fields): CPUCost {
  return defined({
    mode: f.string('mode'),
    tool: f.optional('tool', 'string'),
    installed: f.optional('installed', 'string'),
    unavailable: f.optional('unavailable', 'string')
  })
}

function plan(f: Fields): Plan {
  return defined({
    budget_seconds: f.number('budget_seconds'),
    bench: f.has('bench')
      ? (b => defined({ count: b.int('count'), benchtime: b.string('benchtime'), untimed: b.strings('untimed'), note: b.optional('note', 'string') }))(f.object('bench'))
      : undefined,
    pipeline: f.has('pipeline')
      ? (p => defined({ untimed: p.strings('untimed'), note: p.optional('note', 'string') }))(f.object('pipeline'))
      : undefined,
    cpu: f.has('cpu')
      ? (c => defined({ uncounted: c.strings('uncounted'), note: c.optional('note', 'string') }))(f.object('cpu'))
      : undefined
  })
}

function against(f: Fields): Against {
  return defined({ input: f.string('input'), ref: f.string('ref'), sha: f.string('sha'), same_as_base: f.optional('same_as_base', 'bool') })
}

function history(f: Fields): History {
  return defined({
    branch: f.string('branch'),
    points: f.int('points'),
    recorded: f.optional('recorded', 'string'),
    attempts: f.optional('attempts', 'int'),
    note: f.optional('note', 'string'),
    messages: f.list('messages', m => ({
      name: m.string('name'),
      commits: m.list('commits', c =>
        defined({ sha: c.string('sha'), ref: c.optional('ref', 'string'), date: c.optional('date', 'string'), head: c.optional('head', 'bool') })
      ),
      series: m.list('series', s => ({ format: s.string('format'), metric: s.string('metric'), unit: s.string('unit'), values: s.numbersOrNull('values') }))
    }))
  })
}

/** A kind is a word: it is shown, and looked up in the renderer's tables. */
function kind(f: Fields): string {
  const k = f.string('kind')
  if (!/^[a-z][a-z0-9_-]{0,31}$/.test(k)) throw new WiregateError(`${f.where('kind')} is not a kind (a lower-case word)`)
  return k
}

function violation(f: Fields): Violation {
  return defined({
    kind: kind(f),
    subject: f.string('subject'),
    detail: f.string('detail'),
    unit: f.optional('unit', 'string'),
    base: f.optional('base', 'number'),
    head: f.optional('head', 'number'),
    delta_pct: f.optional('delta_pct', 'number'),
    threshold_pct: f.optional('threshold_pct', 'number'),
    p: f.optional('p', 'number'),
    base_n: f.optional('base_n', 'int'),
    head_n: f.optional('head_n', 'int'),
    allowed: f.bool('allowed'),
    against: f.optional('against', 'string'),
    file: f.optional('file', 'string'),
    line: f.optional('line', 'int'),
    column: f.optional('column', 'int')
  })
}

function finding(f: Fields): Finding {
  return defined({
    kind: kind(f),
    file: f.string('file'),
    line: f.optional('line', 'int'),
    column: f.optional('column', 'int'),
    rule: f.optional('rule', 'string'),
    message: f.string('message'),
    against: f.optional('against', 'string')
  })
}

/** summary reads one side's benchmath summary; one without a center (Go
 * writes a non-finite center as null) is no summary. */
function summary(f: Fields, key: string): Summary | null {
  if (!f.has(key)) return null
  const s = f.object(key)
  if (!s.has('center')) return null
  return defined({ center: s.number('center'), lo: s.optional('lo', 'number'), hi: s.optional('hi', 'number'), n: s.int('n') })
}

function size(s: Fields): Size {
  return defined({ base: s.number('base'), head: s.number('head'), delta_pct: s.nullable('delta_pct', 'number'), vs_json: s.optional('vs_json', 'number') })
}

function format(f: Fields): Format {
  return defined({
    format: f.string('format'),
    size: f.has('size') ? size(f.object('size')) : null,
    metrics: f.list('metrics', m =>
      defined({
        name: m.string('name'),
        unit: m.string('unit'),
        base: summary(m, 'base'),
        head: summary(m, 'head'),
        delta_pct: m.nullable('delta_pct', 'number'),
        p: m.nullable('p', 'number'),
        significant: m.bool('significant'),
        delta: m.optional('delta', 'string'),
        noise_floor_pct: m.optional('noise_floor_pct', 'number')
      })
    ),
    aliasing: f.optional('aliasing', 'bool')
  })
}

function pipeline(f: Fields): Pipeline {
  return defined({
    message: f.string('message'),
    format: f.string('format'),
    broker: f.string('broker'),
    broker_reason: f.optional('broker_reason', 'string'),
    base: summary(f, 'base'),
    head: summary(f, 'head'),
    delta_pct: f.nullable('delta_pct', 'number'),
    p: f.nullable('p', 'number'),
    significant: f.optional('significant', 'bool'),
    base_ns_per_msg: f.optional('base_ns_per_msg', 'number'),
    head_ns_per_msg: f.optional('head_ns_per_msg', 'number'),
    raw_ns_per_msg: f.optional('raw_ns_per_msg', 'number'),
    noise_floor_pct: f.optional('noise_floor_pct', 'number'),
    backlog: f.has('backlog') ? backlog(f.object('backlog')) : undefined
  })
}

function backlog(f: Fields): Backlog {
  return defined({ n: f.int('n'), budget_bytes: f.optional('budget_bytes', 'int'), mean_bytes: f.number('mean_bytes'), format: f.string('format') })
}

function env(f: Fields): Env {
  return defined({
    go_version: f.optional('go_version', 'string'),
    os: f.optional('os', 'string'),
    cpu: f.optional('cpu', 'string'),
    cores: f.optional('cores', 'int'),
    count: f.optional('count', 'int'),
    unchanged_rounds: f.optional('unchanged_rounds', 'int'),
    alpha: f.optional('alpha', 'number'),
    broker: f.optional('broker', 'string'),
    broker_reason: f.optional('broker_reason', 'string'),
    consumer_cap: f.optional('consumer_cap', 'string'),
    bench_pin: f.optional('bench_pin', 'string'),
    pipeline_n: f.optional('pipeline_n', 'int'),
    pipeline_bytes: f.optional('pipeline_bytes', 'int'),
    broker_peak_rss_bytes: f.optional('broker_peak_rss_bytes', 'int'),
    consumer_peak_rss_bytes: f.optional('consumer_peak_rss_bytes', 'int'),
    runner: f.optional('runner', 'string')
  })
}
