// Reports built in tests from the contract (harness/parent/report/report.go):
// the fixtures are real gate output from before this round's fields, and
// only scripts/fixtures.sh writes them; these builders add the new fields
// to a fixture, or make reports of a size no fixture has.
import { parseReport, type Finding, type Format, type FunctionCost, type HistoryCommit, type HistoryMessage, type Message, type Metric, type Pipeline, type Report, type Stage, type Summary, type Violation } from '../src/report.js'
import { loadFixture } from './fixtures.js'

/** reparse is r as the action reads it: through JSON and the strict parser. */
export function reparse(r: Report): Report {
  return parseReport(JSON.stringify(r))
}

/** A message name as long as a real API's: "org.example.api.v2.resources.Resource0042Request". */
const messageName = (i: number): string => `org.example.api.v2.resources.Resource${String(i).padStart(4, '0')}Request`

const FORMATS = ['json', 'protobuf', 'avro']
const SCHEMA_STAGES: Stage[] = [
  { name: 'buf lint', seconds: 0.4 },
  { name: 'buf breaking', seconds: 0.5 },
  { name: 'avro-compatibility', seconds: 0.01 }
]

/** aaReport is an identical base and head of n messages: no schema changed,
 * nothing measured (the default measure: changed). */
export function aaReport(n: number): Report {
  return {
    version: 1,
    result: 'pass',
    exit_code: 0,
    exit_reason: 'pass',
    base: { ref: 'main', sha: 'a'.repeat(40) },
    head: { ref: 'feature', sha: 'b'.repeat(40) },
    violations: [],
    messages: [],
    pipeline: [],
    findings: [],
    env: { go_version: 'go1.26.8', os: 'linux/amd64', cores: 2, peak_rss_bytes: 180 * 2 ** 20 },
    stages: [...SCHEMA_STAGES, { name: 'schemas', seconds: 0.3 }],
    plan: { budget_seconds: 600 },
    change: { measure: 'changed', changed: [], new: [], removed: [], unchanged: Array.from({ length: n }, (_, i) => messageName(i)), no_schema_changed: true }
  }
}

const summary = (center: number, n: number): Summary => ({ center, lo: center * 0.99, hi: center * 1.01, n })

function compared(name: string, unit: string, base: number, head: number, n: number): Metric {
  const delta = ((head - base) / base) * 100
  return { name, unit, base: summary(base, n), head: summary(head, n), delta_pct: delta, p: n > 1 ? 0.008 : null, significant: Math.abs(delta) > 1, delta: `${delta.toFixed(2)}%`, noise_floor_pct: 1.2 }
}

/** measured is message i with every figure the gate writes, head grown by grow (0: the same). */
function measured(i: number, grow: number, status: Message['status']): Message {
  const formats: Format[] = FORMATS.map((format, f) => {
    const b = 100 + i + f * 50
    const metrics = ['encode', 'decode'].flatMap(op => [
      compared(op, 'sec/op', 4e-7 + f * 1e-7, (4e-7 + f * 1e-7) * (1 + grow), 10),
      compared(op, 'B/op', 200 + f, (200 + f) * (1 + grow), 10),
      compared(op, 'allocs/op', 3 + f, (3 + f) * (1 + grow), 10),
      compared(op, 'instr/op', 3000 + 100 * f + i, (3000 + 100 * f + i) * (1 + grow), 1)
    ])
    return { format, size: { base: b, head: b * (1 + grow), delta_pct: grow * 100, vs_json: 1 }, metrics, aliasing: format === 'avro' }
  })
  return { name: messageName(i), formats, status }
}

function pipelineRows(i: number, grow: number): Pipeline[] {
  return FORMATS.map(format => ({
    message: messageName(i),
    format,
    broker: 'embedded',
    base: summary(1e6, 5),
    head: summary(1e6 / (1 + grow), 5),
    delta_pct: -grow * 100,
    p: 0.008,
    significant: grow > 0,
    noise_floor_pct: 9.4,
    backlog: { n: 20000, mean_bytes: 250, format: 'json' }
  }))
}

function historyOf(i: number, points: number): HistoryMessage {
  const commits: HistoryCommit[] = Array.from({ length: points }, (_, c) => ({ sha: c.toString(16).padStart(40, 'c'), ref: 'main', date: '2026-11-23T14:03:01+00:00' }))
  commits.push({ sha: 'b'.repeat(40), head: true })
  const line = (v: number): number[] => [...Array.from({ length: points }, () => v), v * 1.2]
  return {
    name: messageName(i),
    commits,
    series: FORMATS.flatMap(format => [
      { format, metric: 'size', unit: 'B/msg', values: line(100 + i) },
      { format, metric: 'decode', unit: 'allocs/op', values: line(4) },
      { format, metric: 'decode', unit: 'instr/op', values: line(3000 + i) }
    ])
  }
}

/** benchstatText is benchstat's table for these messages: a line per case and unit. */
function benchstatText(names: string[]): string {
  const lines = ['goos: linux', 'goarch: amd64', 'pkg: wiregate']
  for (const unit of ['sec/op', 'B/op', 'allocs/op', 'instr/op']) {
    lines.push(`                                        │    base     │            head            │`, `                                        │  ${unit}   │  ${unit}    vs base       │`)
    for (const n of names) for (const op of ['Encode', 'Decode']) for (const f of FORMATS) lines.push(`${op}/${n}/${f}   10.02k ± 0%   12.47k ± 0%  +24.41% (p=0.008 n=10)`)
  }
  return lines.join('\n')
}

/** changedReport is n messages of which the first changed have a changed
 * schema, every one measured (measure: all when the rest are measured
 * too), with history, pipeline rows, violations for every fourth changed
 * message and benchstat's text: the biggest comment a real run makes. */
export function changedReport(n: number, changed: number, opts: { measureAll?: boolean; points?: number } = {}): Report {
  const names = Array.from({ length: n }, (_, i) => messageName(i))
  const measuredCount = opts.measureAll ? n : changed
  const messages = Array.from({ length: measuredCount }, (_, i) => (i < changed ? measured(i, 0.08, 'changed') : measured(i, 0, 'unchanged')))
  const violations = messages
    .filter((_, i) => i < changed && i % 4 === 0)
    .map(m => ({ kind: 'size' as const, subject: `${m.name}/protobuf/size`, detail: 'protobuf messages grew by more than the size threshold', unit: 'B/msg', base: 100, head: 108, delta_pct: 8, threshold_pct: 5, allowed: false }))
  return {
    ...aaReport(0),
    result: violations.length > 0 ? 'fail' : 'pass',
    exit_code: violations.length > 0 ? 1 : 0,
    exit_reason: violations.length > 0 ? `fail: ${violations.length} violations` : 'pass',
    violations,
    messages,
    pipeline: messages.flatMap((m, i) => pipelineRows(i, i < changed ? 0.08 : 0)),
    history: { branch: 'wiregate-data', points: 20, messages: messages.slice(0, changed).map((_, i) => historyOf(i, opts.points ?? 20)) },
    benchstat: benchstatText(messages.map(m => m.name)),
    env: { ...aaReport(0).env, count: 10, alpha: 0.05, broker: 'embedded', consumer_cap: 'GOMAXPROCS=1' },
    stages: [...SCHEMA_STAGES, ...(['prepare', 'records', 'sizes', 'cpu', 'bench', 'compare', 'pipeline'] as const).map(name => ({ name, seconds: 12.5, note: 'head built in 1.1 s' }))],
    change: { measure: opts.measureAll ? 'all' : 'changed', changed: names.slice(0, changed), new: [], removed: [], unchanged: names.slice(changed) }
  }
}

/** profileOf is what a decode that grew by delta instr/op names: a
 * function that explains most of it, allocation and a generated method,
 * as the gate reports them (largest change first). */
function profileOf(delta: number): FunctionCost[] {
  const fn = (name: string, kind: FunctionCost['kind'], base: number, grew: number, extra: number): FunctionCost => ({
    name, kind, self_base: base, self_head: base + grew, self_delta: grew, inclusive_base: base + extra, inclusive_head: base + extra + grew, inclusive_delta: grew
  })
  return [
    { ...fn('protowire.ConsumeVarint', 'function', 120, Math.round(delta * 0.55), 0), explains_most: true },
    fn('allocation', 'group', 300, Math.round(delta * 0.3), 0),
    fn('v1.(*TelemetryEvent).ProtoReflect', 'generated', 40, Math.round(delta * 0.1), 12)
  ]
}

/** withCPURegressions is r with a cpu violation on the json decode count of
 * each of its first k messages, the count grown 6% and the functions the
 * gate names for it. */
export function withCPURegressions(r: Report, k: number): Report {
  for (const m of r.messages.slice(0, k)) {
    const metric = m.formats.find(f => f.format === 'json')!.metrics.find(x => x.name === 'decode' && x.unit === 'instr/op')!
    const base = metric.base!.center!
    metric.head = { ...metric.head!, center: base * 1.06 }
    metric.delta_pct = 6
    metric.significant = true
    metric.functions = profileOf(base * 0.06)
    r.violations.push({
      kind: 'cpu', subject: `${m.name}/json/decode/instr`, detail: 'decode executes more instructions per operation, by more than the cpu threshold', unit: 'instr/op',
      base, head: base * 1.06, delta_pct: 6, threshold_pct: 2, noise_floor_pct: 1, allowed: false
    })
  }
  r.result = 'fail'
  r.exit_code = 1
  return r
}

/** metadataChange is n messages all changed through one shared message
 * (the shape of a field added to resource metadata every message embeds),
 * with changedReport's violations on every fourth. */
export function metadataChange(n: number): Report {
  const r = changedReport(n, n)
  r.change!.groups = [{ cause: ['org.example.api.v2.Metadata'], messages: r.change!.changed }]
  return r
}

/** lintDebt is n lint findings the base already has. */
export function lintDebt(n: number): Finding[] {
  return Array.from({ length: n }, (_, i) => ({
    kind: 'lint',
    file: `proto/api/v2/resource${i}.proto`,
    line: 10 + i,
    column: 1,
    rule: 'FIELD_LOWER_SNAKE_CASE',
    message: `Field name "fooBar${i}" should be lower_snake_case, such as "foo_bar${i}".`,
    existing: true
  }))
}

/** completeReport is the fail fixture with every field of the contract
 * this round added, each set, so a test that walks it reaches every field
 * the parser reads. */
export function completeReport(): Report {
  const r = loadFixture('fail')
  const [order, telemetry] = r.messages as [Message, Message]
  telemetry.status = 'changed'
  telemetry.records = {
    source: "paired: the base's 256 generated records carried to head by field number",
    from_samples: false,
    // Every FieldNote field in every list: one struct in Go, one reader here.
    new_fields: [
      { field: 'notes', number: '12', protobuf_bytes: 12, from: '', to: 'string', was: '' },
      { field: 'lines.tag', number: '3.5', protobuf_bytes: 3, to: 'repeated string', entries: 2.5 },
      { field: 'region', number: '14', protobuf_bytes: 9, to: 'required string', required: true }
    ],
    regenerated: [{ field: 'amount', number: '4', from: 'string', to: 'int64', protobuf_bytes: 2, was: 'sum', entries: 1, required: false }],
    new_oneof_members: [{ field: 'voucher', number: '13', protobuf_bytes: 14, from: '', to: 'Voucher', was: '', entries: 1, required: false }],
    renamed: [{ field: 'currency_code', number: '10', from: 'currency', to: 'currency_code', protobuf_bytes: 0, was: '', entries: 1, required: false }],
    removed: [{ field: 'legacy', number: '9', from: 'legacy', to: '', protobuf_bytes: 4, was: '', entries: 1, required: false }],
    only_added: false
  }
  telemetry.unchanged_schema = false
  // What head adds, filled, and why a format grew on the same content.
  telemetry.added_content = {
    formats: telemetry.formats.map(f => ({
      format: f.format,
      figures: [
        { metric: 'size', unit: 'B/msg', without: 100, with: 117, delta_pct: 17, threshold_pct: 20 },
        { metric: 'compressed-size', codec: 'zstd', unit: 'B/record', without: 50, with: 55, delta_pct: 10 },
        { metric: 'encode', unit: 'instr/op', without: 3000, with: 3150, delta_pct: 5 }
      ]
    }))
  }
  for (const f of telemetry.formats) if (f.format === 'avro') f.size!.unset = 'avro writes every field: +1.0 B a record even when `notes` is empty'
  // The pipeline drains it in protobuf only (pipeline-formats: auto).
  for (const f of telemetry.formats) if (f.format === 'protobuf') f.piped = true
  // Compressed size says in words when raw and compressed disagree.
  telemetry.formats[0]!.size!.compressed![0]!.reading = 'the growth is mostly repeated bytes (keys, repeated values), which batch compression removes'
  telemetry.formats[0]!.size!.compressed![0]!.ungated = 'on generated records; give samples to gate it'
  // A timing's minimum detectable effect (or why none), a count's ops,
  // and the timings that could not fail.
  const [timed, untimed] = telemetry.formats.flatMap(f => f.metrics).filter(m => m.unit === 'sec/op') as [Metric, Metric]
  timed.mde_pct = 6.5
  timed.stopped_no_slowdown = 4 // timed no further with no slowdown: its MDE is the planned rounds'
  untimed.mde_reason = 'n=5 samples per side can never reach alpha=0.001'
  const counted = telemetry.formats.flatMap(f => f.metrics).find(m => m.unit === 'instr/op')
  if (counted) {
    counted.ops = 256
    // Why it grew: a function, a generated one and a group.
    counted.functions = profileOf(counted.head!.center! - counted.base!.center!)
  }
  // A timing the base's noise said could not reach its threshold.
  untimed.not_timed = true
  r.costs = [...(r.costs ?? []), { message: telemetry.name, count_seconds: 2, noise: { 'json/decode': [0.98, 1, 1.03] } }]
  r.unable_to_fail = [`${telemetry.name}/json/decode`]
  order.status = 'new'
  // A new message's sizes have no base, so no reading of raw against compressed.
  for (const f of order.formats) for (const c of f.size?.compressed ?? []) delete c.reading
  // Every pipeline summary with both bounds.
  for (const p of r.pipeline) for (const s of [p.base, p.head]) if (s && s.center !== null && s.hi === undefined) s.hi = s.center
  r.findings.push({ ...lintDebt(1)[0]!, against: 'v2' }, lintDebt(2)[1]!)
  r.env.peak_rss_bytes = 512 * 2 ** 20
  r.env.unchanged_rounds = 3
  r.env.cpu = 'AMD EPYC'
  r.env.runner = 'GitHub Actions 2'
  r.plan = {
    budget_seconds: 600,
    bench: { count: 7, benchtime: '10ms', untimed: ['a.Untimed'], note: 'to fit 21s: rounds 10 → 7' },
    pipeline: { untimed: ['a.Untimed/json'], note: 'to fit the time budget: 1 of 6 rows not timed' },
    cpu: { uncounted: ['a.Uncounted'], fewer_processes: ['a.OneProcess'], note: 'to fit the time budget: 1 counted in fewer processes' },
    exact: { unmeasured: ['a.Unmeasured'], note: 'to fit the time budget: 1 message not measured' },
    shards_needed: 3
  }
  r.coverage = { ...r.coverage!, cut: { timed: ['a.Untimed'] }, added: 1, same_content_only: 'timed and drained on the same content only; what the added content costs is its bytes and instruction counts' }
  r.rules = {
    ...r.rules!,
    labels: ['a label'],
    lint_all: true,
    coverage_required: false,
    comments: [{ id: 7, url: 'https://github.com/o/r/pull/1#issuecomment-7', author: 'writer', body: '/wiregate approve wg-0000000000000001 planned', created_at: '2026-11-24T10:00:00Z', updated_at: '2026-11-24T10:05:00Z' }],
    labeled: [{ label: 'a label', by: 'writer' }],
    authors: [{ login: 'writer', permission: 'write', teams: ['o/schema-owners'], bot: false }],
    pr_author: 'author',
    config: {
      ...r.rules!.config,
      approvers: ['o/schema-owners', 'alice'],
      self_approve: false,
      source: 'wiregate.yaml',
      thresholds: { ...r.rules!.config.thresholds, added: { size_pct: 20, compressed_size_pct: 20, cpu_pct: 10 } },
      overrides: [{ message: 'a.*', format: 'json', size_pct: 8, compressed_size_pct: 6, time_pct: 12, throughput_pct: 15, cpu_pct: 3, added: { size_pct: 30, compressed_size_pct: 30, cpu_pct: -1 } }],
      ignore: [{ subject: 'a.B/json/decode', reason: 'flaky on shared runners' }]
    }
  }
  r.shard = { index: 2, count: 3, name: '2/3', artifact: 'wiregate-part-2-of-3', parts: [['a.One'], [telemetry.name], ['a.Three']], split: 'split', change: 'change', inputs: 'inputs', harness: 'harness' }
  r.merged = { count: 3, parts: [1, 3], missing: [2], missing_names: ['2/3'] }
  r.history = { ...r.history!, recorded: 'd'.repeat(40), attempts: 2, note: 'recorded', carried: ['a.Carried'], unreached: ['a.Unreached'] }
  r.change = {
    measure: 'changed',
    changed: [telemetry.name, 'a.Unmeasured'],
    new: [order.name],
    removed: ['a.Removed'],
    unchanged: ['a.Unchanged'],
    no_schema_changed: false,
    groups: [{ cause: [telemetry.name], messages: [telemetry.name] }]
  }
  r.skipped = [{ message: 'a.Skipped', file: 'a/skipped.proto', reason: 'a MessageSet', side: 'base' }]
  r.cpu_cost = { mode: 'auto', tool: 'callgrind', installed: 'installed valgrind in 14 s', unavailable: 'not on this runner' }
  r.warnings = ['a warning']
  r.buf_rules = {
    from: ["the base's buf.yaml"],
    change: "buf.yaml loosens breaking: `except: FIELD_NO_DELETE` (judged by the base's rules; applies once merged)",
    head_only: [{ kind: 'lint', file: 'a/head.proto', line: 3, column: 2, rule: 'A_RULE', message: 'only head\'s rules say so', against: 'v2', existing: false }]
  }
  r.errors = ['an error line']
  r.ignored = [{ subject: 'a.B/json/decode', reason: 'flaky on shared runners' }]
  r.stages.push({ name: 'sizes', seconds: 1, error: 'a stage error', shard: '1/3' })
  r.pipeline[0]!.backlog!.budget_bytes = 128 * 2 ** 20
  r.pipeline[1]!.backlog!.drain_seconds = 0.25
  r.pipeline[1]!.mde_reason = 'n=4 samples per side can never reach alpha=0.001'
  delete r.pipeline[1]!.mde_pct
  r.pipeline[0]!.stopped_no_fall = 4 // drained no further with no fall: its MDE is the planned rounds'
  r.pipeline[0]!.mde_pct = 7.5
  delete r.pipeline[0]!.mde_reason
  r.pipeline[0]!.base!.lo = r.pipeline[0]!.base!.center! * 0.99
  r.pipeline[0]!.head!.lo = r.pipeline[0]!.head!.center! * 0.99
  r.breaking_against!.same_as_base = false
  r.violations.push({ kind: 'lint', subject: 'a/lint.proto', detail: 'a lint violation', allowed: true, against: 'v2', file: 'a/lint.proto', line: 3, column: 2, p: 0.01, base_n: 5, head_n: 5 })
  r.violations.push({
    kind: 'cpu', subject: 'a.B/json/encode/instr', detail: 'an approved regression', allowed: true, unit: 'instr/op', base: 100, head: 107, delta_pct: 7, threshold_pct: 2,
    noise_floor_pct: 1, id: 'wg-0000000000000001',
    approved: { by: 'writer', at: '2026-11-24T10:05:00Z', url: 'https://github.com/o/r/pull/1#issuecomment-7', reason: 'planned', up_to_pct: 7.4 }
  })
  telemetry.formats[0]!.metrics.find(m => m.unit === 'sec/op')!.layout_noise = true
  const [first, second] = r.violations as [Violation, Violation]
  r.elements = [
    {
      id: 'wg-e000000000000001', kind: 'breaking', against: 'v2', file: first.file!, container: 'Order', container_kind: 'message', member: 'field', number: '2', name: 'price',
      changes: [{ what: 'deleted' }, { what: 'type', from: 'double', to: 'int64' }, { what: 'other', text: 'buf said more' }],
      rules: ['FIELD_NO_DELETE', 'FIELD_SAME_TYPE'], violations: [first.id!, second.id!], approve_with: '/wiregate approve wg-e000000000000001'
    }
  ]
  r.approve_all = ['/wiregate approve wg-e000000000000001', '/wiregate approve wg-e000000000000002 up to 3.0%']
  r.approve_files = [
    { file: first.file!, line: '/wiregate approve wg-e000000000000001' },
    { file: 'a/other.proto', line: '/wiregate approve wg-e000000000000003' }
  ]
  r.approvals = [
    { by: 'writer', url: 'https://github.com/o/r/pull/1#issuecomment-7', action: 'approve', id: 'wg-0000000000000001', status: 'counted' },
    { by: 'reader', url: 'https://github.com/o/r/pull/1#issuecomment-8', action: 'approve', id: 'wg-0000000000000001', status: 'refused', why: 'reader has read permission' }
  ]
  return reparse(r)
}
