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
  /** a lint finding the base already has: debt the pull request did not add */
  existing?: boolean
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
  /** how many of head's bytes/msg come from what head's records hold that
   * the base's did not (Records' new and regenerated fields) */
  new_content?: number
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

/** How a message's schema differs between base and head (harness/report). */
export type MessageStatus = 'changed' | 'new' | 'unchanged' | 'removed' | (string & {})

export interface Message {
  name: string
  formats: Format[]
  /** the schema is byte-identical on both sides: timings are not gated */
  unchanged_schema?: boolean
  /** changed, new, or unchanged (the last only with measure: all); absent
   * in a report from before the change set: see messageStatus */
  status?: MessageStatus
  /** how both sides got the same logical records; absent for a message
   * measured on one side only */
  records?: Records
}

/** One field of a paired message (harness/report FieldNote). */
export interface FieldNote {
  /** head's path of names from the message ("lines.notes"; the base's for removed) */
  field: string
  /** the same path in field numbers: "3.5" */
  number: string
  /** regenerated: the base's kind; renamed: the base's name */
  from?: string
  /** regenerated: head's kind; renamed: head's name */
  to?: string
  /** mean protobuf bytes per record the field adds on head (new,
   * regenerated), or would add where a record holds it (new oneof members) */
  protobuf_bytes?: number
}

/** The records both sides measured and what of them is new on head. */
export interface Records {
  source: string
  new_fields: FieldNote[]
  regenerated: FieldNote[]
  new_oneof_members: FieldNote[]
  renamed: FieldNote[]
  removed: FieldNote[]
}

/** The change set: head's messages (and the base's head no longer
 * declares) by status, each list sorted. */
export interface Change {
  /** changed | all (input measure) */
  measure: string
  changed: string[]
  new: string[]
  removed: string[]
  unchanged: string[]
  /** nothing changed, was added or removed: the schema checks ran, nothing was measured */
  no_schema_changed?: boolean
}

/** messageStatus is a message's status, read from an older report's
 * unchanged_schema where it has none. */
export function messageStatus(m: Message): MessageStatus {
  return m.status ?? (m.unchanged_schema ? 'unchanged' : 'changed')
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
  /** the largest resident memory of the gate and any one of its children */
  peak_rss_bytes?: number
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
  /** messages a push carried forward from the last point (same fingerprint, wiregate and Go) */
  carried?: string[]
  /** messages a push could neither carry nor measure within the time budget */
  unreached?: string[]
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
  /** messages whose instructions the budget left uncounted, or counted over one rotation of the pool */
  cpu?: { uncounted?: string[]; one_rotation?: string[]; note?: string }
  /** messages the exact stage (correctness and sizes) had no time left for */
  exact?: { unmeasured?: string[]; note?: string }
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
  /** what the pull request changed, by message; absent when the run stopped
   * before both sides' schemas were loaded, or from an older gate */
  change?: Change
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
export function parseReport(text: string, source = 'report.json', read?: Set<string>): Report {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (err) {
    // The parser's message quotes the input; say where instead.
    const at = /position (\d+)/.exec(err instanceof Error ? err.message : '')?.[1]
    throw new WiregateError(`${source} is not valid JSON${at ? ` (at byte ${at})` : ''}`)
  }
  const r = Fields.of(source, '', raw, read)
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
    messages: r.list('messages', message),
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
    cpu_cost: r.has('cpu_cost') ? cpuCost(r.object('cpu_cost')) : undefined,
    change: r.has('change') ? change(r.object('change')) : undefined
  })
}

function message(m: Fields): Message {
  return defined({
    name: m.string('name'),
    formats: m.list('formats', format),
    unchanged_schema: m.optional('unchanged_schema', 'bool'),
    status: m.has('status') ? word(m, 'status') : undefined,
    records: m.has('records') ? records(m.object('records')) : undefined
  })
}

function records(f: Fields): Records {
  const note = (n: Fields): FieldNote =>
    defined({
      field: n.string('field'),
      number: n.string('number'),
      from: n.optional('from', 'string'),
      to: n.optional('to', 'string'),
      protobuf_bytes: n.optional('protobuf_bytes', 'number')
    })
  return {
    source: f.string('source'),
    new_fields: f.list('new_fields', note),
    regenerated: f.list('regenerated', note),
    new_oneof_members: f.list('new_oneof_members', note),
    renamed: f.list('renamed', note),
    removed: f.list('removed', note)
  }
}

function change(f: Fields): Change {
  return defined({
    measure: word(f, 'measure'),
    changed: f.strings('changed'),
    new: f.strings('new'),
    removed: f.strings('removed'),
    unchanged: f.strings('unchanged'),
    no_schema_changed: f.optional('no_schema_changed', 'bool')
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
      ? (c => defined({ uncounted: c.strings('uncounted'), one_rotation: c.strings('one_rotation'), note: c.optional('note', 'string') }))(f.object('cpu'))
      : undefined,
    exact: f.has('exact') ? (e => defined({ unmeasured: e.strings('unmeasured'), note: e.optional('note', 'string') }))(f.object('exact')) : undefined
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
    carried: f.strings('carried'),
    unreached: f.strings('unreached'),
    messages: f.list('messages', m => ({
      name: m.string('name'),
      commits: m.list('commits', c =>
        defined({ sha: c.string('sha'), ref: c.optional('ref', 'string'), date: c.optional('date', 'string'), head: c.optional('head', 'bool') })
      ),
      series: m.list('series', s => ({ format: s.string('format'), metric: s.string('metric'), unit: s.string('unit'), values: s.numbersOrNull('values') }))
    }))
  })
}

/** A kind (a status, a measure mode) is a word: it is shown, and looked up
 * in the renderer's tables; a word a newer gate adds renders by its name. */
function word(f: Fields, key: string): string {
  const k = f.string(key)
  if (!/^[a-z][a-z0-9_-]{0,31}$/.test(k)) throw new WiregateError(`${f.where(key)} is not a ${key} (a lower-case word)`)
  return k
}

function violation(f: Fields): Violation {
  return defined({
    kind: word(f, 'kind'),
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
    kind: word(f, 'kind'),
    file: f.string('file'),
    line: f.optional('line', 'int'),
    column: f.optional('column', 'int'),
    rule: f.optional('rule', 'string'),
    message: f.string('message'),
    against: f.optional('against', 'string'),
    existing: f.optional('existing', 'bool')
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
  return defined({
    base: s.number('base'),
    head: s.number('head'),
    delta_pct: s.nullable('delta_pct', 'number'),
    vs_json: s.optional('vs_json', 'number'),
    new_content: s.optional('new_content', 'number')
  })
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
    runner: f.optional('runner', 'string'),
    peak_rss_bytes: f.optional('peak_rss_bytes', 'int')
  })
}
