import type { History, HistoryMessage, HistorySeries, Report } from '../report.js'
import type { Part } from './fit.js'
import { folded } from './details.js'
import { blocks, code, EMPTY, join, md, xyChart, type Md } from './markdown.js'
import { count, measure, shortSha } from './numbers.js'

/** historyCharts renders, for a message this change moves, one mermaid
 * line chart per unit that changed: main's last points, then this PR's
 * head as the last point. Empty when the report has no history for it. */
export function historyCharts(report: Report, name: string): Md {
  const h = report.history
  const m = h?.messages.find(x => x.name === name)
  if (!h || !m) return EMPTY
  const units = [...new Set(m.series.map(s => s.unit))]
  return blocks(...units.map(unit => chart(h, m, m.series.filter(s => s.unit === unit), unit)))
}

function chart(h: History, m: HistoryMessage, series: HistorySeries[], unit: string): Md {
  // Commits where every line has a value: a figure counted only from some
  // commit on starts its chart there.
  const keep = m.commits.map((_, i) => i).filter(i => series.every(s => typeof s.values[i] === 'number'))
  if (keep.length < 2) return EMPTY
  const lines = series.map(s => keep.map(i => round(s.values[i] as number)))
  const all = lines.flat()
  const [lo, hi] = yRange(Math.min(...all), Math.max(...all))
  const main = keep.filter(i => m.commits[i]!.head !== true)
  // The branch the points were pushed to (the default branch), as the
  // newest one says; the history branch's name when none does.
  const branch = m.commits[main.at(-1)!]!.ref || h.branch
  const legend = join(
    series.map((s, j) => md`${j + 1}. ${s.format} ${s.metric}: ${measure(lines[j]![0]!, unit)} → ${measure(lines[j]!.at(-1)!, unit)}`),
    md` · `
  )
  return md`${xyChart({
    title: `${m.name} ${unit}: last ${main.length} commits of ${branch}, then this PR`,
    x: keep.map(i => (m.commits[i]!.head === true ? 'PR' : shortSha(m.commits[i]!.sha))),
    y: { title: unit, lo, hi },
    series: lines.map(values => ({ kind: 'line', values }))
  })}\n<sub>Lines in order — ${legend}. The last point is this PR.</sub>`
}

/** historyNote is what history did, one line: recorded a point (with what
 * it carried forward and could not reach, counted, names folded), or why
 * there is nothing to chart. */
export function historyNote(report: Report): Part[] {
  const h = report.history
  if (!h) return []
  const carried = h.carried ?? []
  const unreached = h.unreached ?? []
  const note = h.note ? md` ${h.note}.` : EMPTY
  let line: Md = EMPTY
  if (h.recorded) {
    const tries = h.attempts && h.attempts > 1 ? md` (${h.attempts} attempts: other runs pushed first)` : EMPTY
    line = md`<sub>History: recorded ${shortSha(h.recorded)} on ${code(h.branch)}${tries}.${note}</sub>`
  } else if (h.note) {
    line = md`<sub>History (${code(h.branch)}):${note}</sub>`
  }
  return [
    { md: line },
    folded(md`History: ${count(carried.length, 'message', 'messages')} carried forward from the last point (same schema, wiregate and Go: not re-measured)`, carried),
    folded(md`History: ${count(unreached.length, 'message', 'messages')} neither carried nor measured within the time budget`, unreached)
  ]
}

/** yRange pads the lines' range so a small step still shows. */
function yRange(min: number, max: number): [number, number] {
  const pad = max > min ? (max - min) * 0.2 : Math.max(1, Math.abs(max) * 0.05)
  const lo = Math.floor(min - pad)
  return [min >= 0 ? Math.max(0, lo) : lo, Math.ceil(max + pad)]
}

function round(x: number): number {
  return Math.round(x * 10) / 10
}
