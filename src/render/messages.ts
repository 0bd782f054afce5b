import type { Format, Message, Metric, Pipeline, Report } from '../report.js'
import { historyCharts } from './history.js'
import { bytes, integer, mebibytes, pct, pValue, rate, seconds } from './numbers.js'
import { cell, code, mermaidLabel, text } from './safe.js'

/** messageSection renders one message: a formats table, a bytes/msg chart,
 * and its history on the default branch when this change moves it. */
export function messageSection(report: Report, message: Message): string {
  const pipeline = report.pipeline.filter(p => p.message === message.name)
  const rows = [
    '| format | bytes/msg | encode | decode | pipeline records/s |',
    '|---|---|---|---|---|'
  ]
  for (const f of message.formats) {
    const p = pipeline.find(x => x.format === f.format)
    rows.push(
      `| ${cell(text(f.format))}${f.aliasing ? ' (aliasing)' : ''} | ${sizeCell(f)} | ${timeCell(metric(f, 'encode'))} | ${timeCell(metric(f, 'decode'))} | ${pipelineCell(p)} |`
    )
  }
  const chart = bytesChart(message)
  return [`### ${code(message.name)}`, rows.join('\n'), backlogNote(report, pipeline), chart, historyCharts(report, message.name)]
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

function metric(f: Format, name: string): Metric | undefined {
  return f.metrics.find(m => m.name === name && m.unit === 'sec/op')
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
