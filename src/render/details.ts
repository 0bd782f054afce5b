import type { Report } from '../report.js'
import { integer, mebibytes, pct } from './numbers.js'
import { cell, code, codeBlock, text } from './safe.js'

function details(summary: string, body: string): string {
  return `<details><summary>${summary}</summary>\n\n${body}\n\n</details>`
}

export function benchstatDetails(report: Report): string {
  if (!report.benchstat) return ''
  return details('benchstat (base vs head)', codeBlock('text', report.benchstat))
}

/** noiseDetails lists the smallest change each metric could tell from noise in this run. */
export function noiseDetails(report: Report): string {
  const rows: string[] = []
  for (const m of report.messages) {
    for (const f of m.formats) {
      for (const metric of f.metrics) {
        if (metric.noise_floor_pct !== undefined) {
          rows.push(`| ${cell(code(`${m.name}/${f.format}/${metric.name}`))} | ${cell(text(metric.unit))} | ±${pct(metric.noise_floor_pct, false)} |`)
        }
      }
    }
  }
  for (const p of report.pipeline) {
    if (p.noise_floor_pct !== undefined) {
      rows.push(`| ${cell(code(`${p.message}/${p.format}/pipeline`))} | records/s | ±${pct(p.noise_floor_pct, false)} |`)
    }
  }
  if (rows.length === 0) return ''
  return details('noise floor', ['| metric | unit | noise floor |', '|---|---|---|', ...rows].join('\n'))
}

export function environmentDetails(report: Report): string {
  const e = report.env
  const broker = e.broker ? `${e.broker}${e.broker_reason ? ` (${e.broker_reason})` : ''}` : undefined
  const items: Array<[string, string | number | undefined]> = [
    ['runner', e.runner],
    ['Go', e.go_version],
    ['OS', e.os],
    ['CPU', e.cpu && e.cores ? `${e.cpu} × ${e.cores} cores` : e.cpu],
    ['rounds per side', e.unchanged_rounds ? `${e.count} (unchanged schemas: ${e.unchanged_rounds})` : e.count],
    ['alpha', e.alpha],
    ['broker', broker],
    ['pipeline backlog', backlogLimits(e)],
    ['consumer cap', e.consumer_cap],
    ['broker peak RSS', e.broker_peak_rss_bytes !== undefined ? mebibytes(e.broker_peak_rss_bytes) : undefined],
    ['consumer peak RSS', e.consumer_peak_rss_bytes !== undefined ? mebibytes(e.consumer_peak_rss_bytes) : undefined],
    ['instruction counter', counter(report)]
  ]
  const rows = items.filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => `| ${k} | ${cell(text(String(v)))} |`)
  if (rows.length === 0) return ''
  return details('environment', ['| | |', '|---|---|', ...rows].join('\n'))
}

/** backlogLimits is "≤ 200,000 records and ≤ 128 MiB each": what bounds a pipeline backlog. */
function backlogLimits(e: Report['env']): string | undefined {
  if (e.pipeline_n === undefined) return undefined
  const records = `≤ ${integer(e.pipeline_n)} records`
  return e.pipeline_bytes === undefined ? records : `${records} and ≤ ${mebibytes(e.pipeline_bytes)} each`
}

/** counter is the tool that counted instructions, and how the gate got it. */
function counter(report: Report): string | undefined {
  const c = report.cpu_cost
  if (!c?.tool) return undefined
  return c.installed ? `${c.tool}, ${c.installed}` : c.tool
}

export function stagesDetails(report: Report): string {
  if (report.stages.length === 0) return ''
  const rows = report.stages.map(
    s => `| ${cell(text(s.name))} | ${s.seconds.toFixed(1)} s | ${s.error ? `❌ ${cell(text(s.error))}` : cell(text(s.note ?? ''))} |`
  )
  const total = report.stages.reduce((sum, s) => sum + s.seconds, 0)
  rows.push(`| **total** | ${total.toFixed(1)} s | |`)
  return details('stage timings', ['| stage | time | |', '|---|---|---|', ...rows].join('\n'))
}

export function ignoredDetails(report: Report): string {
  const ignored = report.ignored ?? []
  if (ignored.length === 0) return ''
  const rows = ignored.map(i => `| ${cell(code(i.subject))} | ${cell(text(i.reason))} |`)
  return details(`ignored by wiregate.yaml (${ignored.length})`, ['| subject | reason |', '|---|---|', ...rows].join('\n'))
}

export function errorsDetails(report: Report): string {
  const errors = report.errors ?? []
  if (errors.length === 0) return ''
  return details('errors', errors.map(e => `- ${text(e)}`).join('\n'))
}
