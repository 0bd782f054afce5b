import type { Format, Message, Metric, Pipeline, Report } from '../report.js'
import { historyCharts } from './history.js'
import { bytes, instructions, integer, mebibytes, pct, pValue, rate, seconds } from './numbers.js'
import { cell, code, mermaidLabel, text } from './safe.js'

/** messageSection renders one message: a formats table, a bytes/msg chart,
 * and its history on the default branch when this change moves it. The CPU
 * column is there when instructions were counted. */
export function messageSection(report: Report, message: Message): string {
  const pipeline = report.pipeline.filter(p => p.message === message.name)
  const counted = message.formats.some(f => f.metrics.some(m => m.unit === INSTR))
  const cpuHead = counted ? ' CPU instr/op (encode, decode) |' : ''
  const rows = [`| format | bytes/msg | encode | decode |${cpuHead} pipeline records/s |`, `|---|---|---|---|${counted ? '---|' : ''}---|`]
  for (const f of message.formats) {
    const p = pipeline.find(x => x.format === f.format)
    const cpu = counted ? ` ${cpuCell(f)} |` : ''
    rows.push(
      `| ${cell(text(f.format))}${f.aliasing ? ' (aliasing)' : ''} | ${sizeCell(f)} | ${timeCell(metric(f, 'encode'))} | ${timeCell(metric(f, 'decode'))} |${cpu} ${pipelineCell(p)} |`
    )
  }
  const chart = bytesChart(message)
  const title = `### ${code(message.name)}${message.unchanged_schema ? ' · unchanged schema' : ''}`
  return [title, unchangedNote(message), rows.join('\n'), backlogNote(report, pipeline), chart, historyCharts(report, message.name)]
    .filter(s => s !== '')
    .join('\n\n')
}

/** backlogNote says why the message's pipeline backlogs held fewer records
 * than pipeline-messages: the byte budget, over its biggest format's mean
 * record. One N per message, so the first row's backlog speaks for all. */
function backlogNote(report: Report, pipeline: Pipeline[]): string {
  const b = pipeline.find(p => p.backlog)?.backlog
  if (!b || b.budget_bytes === undefined) return ''
  const asked = report.env.pipeline_n !== undefined ? `, not the ${integer(report.env.pipeline_n)} asked for` : ''
  return `<sub>Pipeline backlog: N = ${integer(b.n)} records${asked} (byte budget ${mebibytes(b.budget_bytes)} / ${integer(b.mean_bytes)} B per ${text(b.format)} record).</sub>`
}

const INSTR = 'instr/op'

/** unchangedNote says, once per message whose schema did not change, why
 * its timings are shown but cannot fail the gate. */
function unchangedNote(message: Message): string {
  if (!message.unchanged_schema) return ''
  return '<sub>Unchanged schema: its descriptor and everything it uses, its Avro schema and its samples are identical on both sides, so both programs run the same code for it; its time and throughput deltas are measurement noise (code layout, the runner) and do not fail the gate, so it is timed with fewer rounds (input `unchanged-rounds`).</sub>'
}

function metric(f: Format, name: string, unit = 'sec/op'): Metric | undefined {
  return f.metrics.find(m => m.name === name && m.unit === unit)
}

function sizeCell(f: Format): string {
  if (!f.size) return '—'
  const { base, head, delta_pct } = f.size
  if (base === head) return `${bytes(head)} (=)`
  return `${bytes(base)} → ${bytes(head)} (${pct(delta_pct)})`
}

/** change is "(+12.3%, p=0.002)" when significant, "(~, p=0.48)" when not. */
function change(deltaPct: number | null, p: number | null, significant: boolean): string {
  const d = significant ? pct(deltaPct) : '~'
  const pv = pValue(p)
  return pv ? `(${d}, ${pv})` : `(${d})`
}

function timeCell(m: Metric | undefined): string {
  if (!m || !m.base || !m.head) return '—'
  return `${seconds(m.base.center)} → ${seconds(m.head.center)} ${change(m.delta_pct, m.p, m.significant)}`
}

/** cpuCell is instructions per encode and decode, base → head: exact
 * counts, so no p-value; "~" when the change is within the count's noise
 * floor (what identical counts move). */
function cpuCell(f: Format): string {
  const parts = (['encode', 'decode'] as const).map(op => {
    const m = metric(f, op, INSTR)
    if (!m || !m.base || !m.head) return '—'
    const d = m.base.center === m.head.center ? '=' : m.significant ? pct(m.delta_pct) : '~'
    return `${instructions(m.base.center)} → ${instructions(m.head.center)} (${d})`
  })
  return parts.every(p => p === '—') ? '—' : parts.join('<br>')
}

function pipelineCell(p: Pipeline | undefined): string {
  if (!p || !p.base || !p.head) return '—'
  const significant = p.significant ?? (p.p !== null && p.p !== undefined)
  return `${rate(p.base.center)} → ${rate(p.head.center)} ${change(p.delta_pct, p.p, significant)}`
}

/** bytesChart is a mermaid bar chart of bytes/msg per format: base bars, then head bars. */
export function bytesChart(message: Message): string {
  const sized = message.formats.filter(f => f.size)
  if (sized.length === 0) return ''
  const base = sized.map(f => num(f.size!.base))
  const head = sized.map(f => num(f.size!.head))
  const top = Math.ceil(Math.max(...base, ...head) * 1.1)
  return [
    '```mermaid',
    'xychart-beta',
    `    title "bytes/msg, base then head: ${mermaidLabel(message.name)}"`,
    `    x-axis [${sized.map(f => `"${mermaidLabel(f.format)}"`).join(', ')}]`,
    `    y-axis "bytes/msg" 0 --> ${top}`,
    `    bar [${base.join(', ')}]`,
    `    bar [${head.join(', ')}]`,
    '```'
  ].join('\n')
}

function num(x: number): number {
  return Math.round(x * 10) / 10
}
