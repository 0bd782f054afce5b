import { isBlocking, messageStatus, type Format, type Message, type Metric, type Pipeline, type Report, type Violation } from '../report.js'
import type { Part } from './fit.js'
import { historyCharts } from './history.js'
import { blocks, code, EMPTY, join, md, table, xyChart, type Md } from './markdown.js'
import { bytes, instructions, integer, mebibytes, pct, pValue, rate, seconds } from './numbers.js'
import { profileBlocks } from './profiles.js'
import { recordsNotes } from './records.js'
import { messageVerdict, ofMessage } from './verdict.js'

const INSTR = 'instr/op'

/** messageParts renders a changed or new message: its heading and verdict
 * and what its records add (never cut), then its table, why its cpu
 * violations' counts grew (profileBlocks), its bytes/msg
 * chart where base and head differ, and its history on the default branch
 * (each of which the budget may cut). A new message has no base: head's
 * figures only, nothing compared, no chart. */
export function messageParts(report: Report, message: Message): Part[] {
  const status = messageStatus(message)
  const isNew = status === 'new'
  const violations = ofMessage(report, message.name)
  const heading = isNew ? md`### ${code(message.name)} · new on head` : status === 'changed' ? md`### ${code(message.name)}` : md`### ${code(message.name)} · ${status}`
  const measuredAny = message.formats.some(f => f.size || f.metrics.length > 0)
  const verdict = isNew
    ? join([md`🆕 New on head: nothing to compare, head's figures only.`, violations.length > 0 ? messageVerdict(violations, message.name) : EMPTY], md` `)
    : !measuredAny && violations.length === 0
      ? md`— No figure was measured for it (see the stage timings and errors).`
      : messageVerdict(violations, message.name)
  const head: Md = join([heading, verdict, ...recordsNotes(message)], md`\n\n`)
  return [
    { md: head },
    { md: blocks(formatsTable(report, message), backlogNote(report, message.name), producerNote(report, message.name)), cut: 'message tables' },
    profileBlocks(report, message),
    { md: isNew ? EMPTY : bytesChart(message), cut: 'bytes charts' },
    { md: isNew ? EMPTY : historyCharts(report, message.name), cut: 'history charts' }
  ]
}

/** unmeasuredPart is a changed or new message the report has no figures
 * for: its heading and why, so every change has its line. */
export function unmeasuredPart(report: Report, name: string, isNew: boolean): Part {
  const cutByBudget = (report.plan?.exact?.unmeasured ?? []).includes(name)
  const skipped = report.skipped?.find(s => s.message === name)
  const why = cutByBudget
    ? md`⏱ Not measured: the time budget ran out before it (see what the budget cut).`
    : skipped
      ? md`Not measured: ${skipped.reason}.`
      : md`Not measured in this run (see errors and stage timings).`
  return { md: md`### ${code(name)}${isNew ? md` · new on head` : EMPTY}\n\n${why}` }
}

/** The line under the tables that says how to read a cell. */
export const CELLS_LEGEND = md`<sub>Cells: base → head (delta, p). "~" means the change is not significant at alpha (CPU: within its noise floor). "Layout noise" is a significant time delta where the format's bytes, instructions and allocations are the same on both sides: the same work, timed in two builds whose code sits at different addresses. CPU is instructions per operation counted under Valgrind, the median of the processes that counted each side: the code and the records are the same in each, so a count moves only by what the runtime leaves to chance — each process's hash seeds (map lookups) and background work; "±x%" marks a floor this message's own counts set above its format's. Size: bytes/msg; where it moved, each compression codec's bytes per record as a Kafka broker stores them (the same records in producer batches, compressed) beside it. Pipeline: records/s in the formats the pipeline drains the message in (input pipeline-formats; auto: the one it travels in), "—" in the others ("not drained": a format it drains whose row the budget cut or a failure lost). Chart bars: base first, head second. A new message shows head's figures only.</sub>`

/** formatsTable is one row per format: bytes/msg, encode and decode time,
 * instructions (when counted) and pipeline records/s. */
export function formatsTable(report: Report, message: Message): Md {
  const violations = ofMessage(report, message.name)
  // A new message's base side, if the report has one, is nothing to compare.
  const side = messageStatus(message) === 'new' ? headOnly : bothSides
  const pipeline = report.pipeline.filter(p => p.message === message.name)
  const counted = message.formats.some(f => f.metrics.some(m => m.unit === INSTR))
  const header = [md`format`, md`bytes/msg`, md`encode`, md`decode`, ...(counted ? [md`CPU instr/op (encode, decode)`] : []), md`pipeline records/s`]
  const rows = message.formats.map(f => [
    md`${f.format}${f.aliasing ? md` (aliasing)` : EMPTY}`,
    sizeCell(f, side, violations),
    timeCell(metric(f, 'encode'), side, f),
    timeCell(metric(f, 'decode'), side, f),
    ...(counted ? [cpuCell(f, side)] : []),
    pipelineCell(pipeline.find(x => x.format === f.format), side, f.piped ?? false)
  ])
  return table(header, rows)
}

/** backlogNote says which of the message's pipeline rows held fewer
 * records than pipeline-messages, each with its N and why: the byte budget
 * over the row's mean record, or the drain its precision needs. Each row
 * (format) has its own N; rows at the count asked for go unsaid. */
function backlogNote(report: Report, name: string): Md {
  const cut = report.pipeline.filter(p => p.message === name && p.backlog && (p.backlog.budget_bytes !== undefined || p.backlog.drain_seconds !== undefined))
  if (cut.length === 0) return EMPTY
  const asked = report.env.pipeline_n !== undefined ? md`, not the ${integer(report.env.pipeline_n)} records asked for` : EMPTY
  const rows = cut.map(p => {
    const b = p.backlog!
    const why = b.budget_bytes !== undefined
      ? md`byte budget ${mebibytes(b.budget_bytes)} / ${integer(b.mean_bytes)} B per record`
      : md`a ${integer(b.drain_seconds! * 1000)} ms drain`
    return md`${p.format} N = ${integer(b.n)} (${why})`
  })
  return md`<sub>Pipeline backlogs${asked}: ${join(rows, md`; `)}.</sub>`
}

/** producerNote says which codec the pipeline's producer compressed its
 * batches with (the first of the compression input), which the consumer's
 * records/s include decompressing. */
function producerNote(report: Report, name: string): Md {
  const codec = report.pipeline.find(p => p.message === name && p.compression)?.compression
  if (!codec) return EMPTY
  return md`<sub>Pipeline producer batches: ${code(codec)} (the first compression codec); records/s include decompressing them.</sub>`
}

function metric(f: Format, name: string, unit = 'sec/op'): Metric | undefined {
  return f.metrics.find(m => m.name === name && m.unit === unit)
}

/** sizeCell is raw bytes/msg and, where raw or compressed size moved,
 * each codec's stored bytes per record beside it, a failing compressed
 * size first (when raw size does not fail too), with the gate's words
 * (report data, escaped like all of it) where the two disagree and why a
 * growth past its threshold was not gated. */
function sizeCell(f: Format, side: Side, violations: Violation[]): Md {
  if (!f.size) return md`—`
  const { base, head, delta_pct } = f.size
  if (side === headOnly) return bytes(head)
  const raw = base === head ? md`${bytes(head)} (=)` : md`${bytes(base)} → ${bytes(head)} (${pct(delta_pct)})`
  const compressed = f.size.compressed ?? []
  const moved = base !== head || compressed.some(c => c.base !== c.head)
  if (!moved || compressed.length === 0) return raw
  const fails = (suffix: string): boolean => violations.some(v => isBlocking(v) && v.subject.endsWith(`/${f.format}/${suffix}`))
  const lines = compressed.map(c => {
    const figure =
      c.base === null || c.base === undefined ? md`— → ${bytes(c.head)}` : c.base === c.head ? md`${bytes(c.head)} (=)` : md`${bytes(c.base)} → ${bytes(c.head)} (${pct(c.delta_pct)})`
    const reading = c.reading ? md`<br><sub>${c.reading}</sub>` : EMPTY
    const ungated = c.ungated ? md`<br><sub>not gated: ${c.ungated}</sub>` : EMPTY
    return { first: fails(`compressed-size/${c.codec}`) && !fails('size'), md: md`${c.codec}: ${figure}${reading}${ungated}` }
  })
  return join([...lines.filter(l => l.first).map(l => l.md), md`raw: ${raw}`, ...lines.filter(l => !l.first).map(l => l.md)], md`<br>`)
}

/** change is "(+12.3%, p=0.002)" when significant, "(~, p=0.48)" when not. */
function change(deltaPct: number | null, p: number | null, significant: boolean): Md {
  const d = significant ? pct(deltaPct) : md`~`
  const pv = pValue(p)
  return pv ? md`(${d}, ${pv})` : md`(${d})`
}

/** Side is how a cell reads a figure's two sides. */
type Side = (base: number | undefined, head: number | undefined, format: (x: number) => Md, delta: () => Md) => Md

/** bothSides is "base → head (delta)", "— → head" when the base has no
 * figure, "—" when head has none. */
const bothSides: Side = (base, head, format, delta) => {
  if (head === undefined) return md`—`
  if (base === undefined) return md`— → ${format(head)}`
  return md`${format(base)} → ${format(head)} ${delta()}`
}

/** headOnly is head's figure: a message new on head compares nothing. */
const headOnly: Side = (_base, head, format) => (head === undefined ? md`—` : format(head))

function timeCell(m: Metric | undefined, side: Side, f: Format): Md {
  if (!m) return md`—`
  // Planned unable to fail from the base's history point: no round ran.
  if (m.not_timed) return md`<sub>not timed</sub>`
  if (m.layout_noise) {
    // The gate marks a significant delta where the format did the same
    // work on both sides: muted, with why, and no p-value to read as news.
    const cell = side(m.base?.center ?? undefined, m.head?.center ?? undefined, seconds, () => md`(${pct(m.delta_pct)})`)
    return md`<sub>${cell} layout noise: ${exactWords(f)} equal on both sides</sub>`
  }
  return side(m.base?.center ?? undefined, m.head?.center ?? undefined, seconds, () => change(m.delta_pct, m.p, m.significant))
}

/** exactWords names the exact figures a format has: "bytes, instructions
 * and allocations". */
function exactWords(f: Format): Md {
  return f.metrics.some(m => m.unit === INSTR) ? md`bytes, instructions and allocations` : md`bytes and allocations`
}

/** cpuCell is instructions per encode and decode, base → head: exact
 * counts, so no p-value; "~" when the change is within the count's noise
 * floor (what identical counts move). */
function cpuCell(f: Format, side: Side): Md {
  const parts = (['encode', 'decode'] as const).map(op => {
    const m = metric(f, op, INSTR)
    if (!m) return md`—`
    const own = m.noise_floor_from === 'counts' && m.noise_floor_pct !== undefined ? md` ±${pct(m.noise_floor_pct, false)}` : EMPTY
    const d = (): Md => (m.base!.center === m.head!.center ? md`(=${own})` : md`(${m.significant ? pct(m.delta_pct) : md`~`}${own})`)
    return side(m.base?.center ?? undefined, m.head?.center ?? undefined, instructions, d)
  })
  return parts.every(p => p.source === '—') ? md`—` : join(parts, md`<br>`)
}

/** pipelineCell is a format's records/s; a format the pipeline drains
 * this message in (pipeline-formats) that has no row says so, any other
 * is "—". */
function pipelineCell(p: Pipeline | undefined, side: Side, piped: boolean): Md {
  if (!p) return piped ? md`not drained` : md`—`
  const significant = p.significant ?? false
  return side(p.base?.center ?? undefined, p.head?.center ?? undefined, rate, () => change(p.delta_pct, p.p, significant))
}

/** bytesChart is a mermaid bar chart of bytes/msg per format, base bars
 * then head bars; none where no format's size differs. */
export function bytesChart(message: Message): Md {
  const sized = message.formats.filter(f => f.size)
  if (!sized.some(f => f.size!.base !== f.size!.head)) return EMPTY
  const base = sized.map(f => num(f.size!.base))
  const head = sized.map(f => num(f.size!.head))
  return xyChart({
    title: `bytes/msg, base then head: ${message.name}`,
    x: sized.map(f => f.format),
    y: { title: 'bytes/msg', lo: 0, hi: Math.ceil(Math.max(...base, ...head) * 1.1) },
    series: [
      { kind: 'bar', values: base },
      { kind: 'bar', values: head }
    ]
  })
}

function num(x: number): number {
  return Math.round(x * 10) / 10
}
