// The collapsed detail at the end of the report, and the one way a list
// of names is shown: a count, with the names folded.
import type { Report } from '../report.js'
import type { Part } from './fit.js'
import { code, codeBlock, details, EMPTY, join, md, table, text, type Md } from './markdown.js'
import { integer, mebibytes, pct, wallSeconds } from './numbers.js'

/** folded is a line that counts names, with the names in a collapsed list
 * (one a line, literal, copyable); once the budget cuts names, the count
 * alone. line is the count's sentence: "60 messages unchanged …". */
export function folded(line: Md, names: string[]): Part {
  if (names.length === 0) return { md: EMPTY }
  return {
    md: details(line, codeBlock('text', names.join('\n'))),
    cut: 'names',
    compact: { md: line }
  }
}

export function benchstatDetails(report: Report): Part {
  if (!report.benchstat) return { md: EMPTY }
  return { md: details(md`benchstat (base vs head)`, codeBlock('text', report.benchstat)), cut: 'benchstat' }
}

/** noiseDetails lists the smallest change each metric could tell from
 * noise in this run, and for a timing the smallest it could show at the
 * run's strictest Holm cutoff (its minimum detectable effect). */
export function noiseDetails(report: Report): Part {
  const rows: Md[][] = []
  for (const m of report.messages) {
    for (const f of m.formats) {
      for (const metric of f.metrics) {
        if (metric.noise_floor_pct !== undefined) {
          // Timed no further with no slowdown: its MDE is the planned rounds' (report.Metric.StoppedNoSlowdown).
          const mde = metric.stopped_no_slowdown ? md`${mdeCell(metric)} (timed ${metric.stopped_no_slowdown} rounds: no slowdown)` : mdeCell(metric)
          rows.push([code(`${m.name}/${f.format}/${metric.name}`), text(metric.unit), md`±${pct(metric.noise_floor_pct, false)}`, mde])
        }
      }
    }
  }
  for (const p of report.pipeline) {
    if (p.noise_floor_pct === undefined && p.mde_pct === undefined && p.mde_reason === undefined) continue
    const floor = p.noise_floor_pct !== undefined ? md`±${pct(p.noise_floor_pct, false)}` : md`—`
    // A row stopped early with no fall: its MDE is the planned rounds' (report.Pipeline.StoppedNoFall).
    const mde = p.stopped_no_fall ? md`${mdeCell(p)} (stopped after ${p.stopped_no_fall} rounds: no fall)` : mdeCell(p)
    rows.push([code(`${p.message}/${p.format}/pipeline`), md`records/s`, floor, mde])
  }
  if (rows.length === 0) return { md: EMPTY }
  return { md: details(md`noise floor`, table([md`metric`, md`unit`, md`noise floor`, md`smallest detectable at the Holm cutoff`], rows)), cut: 'noise' }
}

/** mdeCell is a timed figure's minimum detectable effect, or why it has none. */
function mdeCell(x: { mde_pct?: number; mde_reason?: string }): Md {
  if (x.mde_pct !== undefined) return md`${pct(x.mde_pct, false)}`
  return x.mde_reason ? md`none: ${text(x.mde_reason)}` : md`—`
}

export function environmentDetails(report: Report): Part {
  const e = report.env
  const broker = e.broker ? md`${e.broker}${e.broker_reason ? md` (${e.broker_reason})` : EMPTY}` : undefined
  const rss = (b: number | undefined): Md | undefined => (b !== undefined ? mebibytes(b) : undefined)
  const items: Array<[Md, Md | string | number | undefined]> = [
    [md`runner`, e.runner],
    [md`Go`, e.go_version],
    [md`OS`, e.os],
    [md`CPU`, e.cpu && e.cores ? md`${e.cpu} × ${e.cores} cores` : e.cpu],
    [md`rounds per side`, e.unchanged_rounds ? md`${e.count !== undefined ? md`${e.count} ` : EMPTY}(unchanged schemas: ${e.unchanged_rounds})` : e.count],
    [md`alpha`, e.alpha],
    [md`broker`, broker],
    [md`pipeline backlog`, backlogLimits(e)],
    [md`consumer cap`, e.consumer_cap],
    [md`peak RSS (the gate and any one child)`, rss(e.peak_rss_bytes)],
    [md`broker peak RSS`, rss(e.broker_peak_rss_bytes)],
    [md`consumer peak RSS`, rss(e.consumer_peak_rss_bytes)],
    [md`instruction counter`, counter(report)]
  ]
  const rows = items.filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => [k, md`${v!}`])
  if (rows.length === 0) return { md: EMPTY }
  return { md: details(md`environment`, table([EMPTY, EMPTY], rows)), cut: 'environment' }
}

/** backlogLimits is "≤ 200,000 records and ≤ 128 MiB each": what bounds a pipeline backlog. */
function backlogLimits(e: Report['env']): Md | undefined {
  if (e.pipeline_n === undefined) return undefined
  const records = md`≤ ${integer(e.pipeline_n)} records`
  return e.pipeline_bytes === undefined ? records : md`${records} and ≤ ${mebibytes(e.pipeline_bytes)} each`
}

/** counter is the tool that counted instructions, and how the gate got it. */
function counter(report: Report): Md | undefined {
  const c = report.cpu_cost
  if (!c?.tool) return undefined
  return c.installed ? md`${c.tool}, ${c.installed}` : text(c.tool)
}

export function stagesDetails(report: Report): Part {
  if (report.stages.length === 0) return { md: EMPTY }
  const rows = report.stages.map(s => [s.shard ? md`${text(s.name)} (shard ${s.shard})` : text(s.name), wallSeconds(s.seconds), s.error ? md`❌ ${s.error}` : text(s.note ?? '')])
  // The run's own wall time when it says it: stages that ran at once (the
  // counts beside the bench rounds) add up to more.
  const total = report.seconds || report.stages.reduce((sum, s) => sum + s.seconds, 0)
  rows.push([md`**total**`, wallSeconds(total), EMPTY])
  return { md: details(md`stage timings`, table([md`stage`, md`time`, EMPTY], rows)), cut: 'stages' }
}

export function ignoredDetails(report: Report): Part {
  const ignored = report.ignored ?? []
  if (ignored.length === 0) return { md: EMPTY }
  const rows = ignored.map(i => [code(i.subject), text(i.reason)])
  return { md: details(md`ignored by wiregate.yaml (${ignored.length})`, table([md`subject`, md`reason`], rows)), cut: 'ignored' }
}

/** errorsDetails lists the stages that could not run: never cut. */
export function errorsDetails(report: Report): Part {
  const errors = report.errors ?? []
  if (errors.length === 0) return { md: EMPTY }
  return {
    md: details(
      md`errors`,
      join(
        errors.map(e => md`- ${e}`),
        md`\n`
      )
    )
  }
}
