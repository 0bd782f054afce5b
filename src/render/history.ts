import type { History, HistoryMessage, HistorySeries, Report } from '../report.js'
import { measure, shortSha } from './numbers.js'

/** historyCharts renders, for a message this change moves, one mermaid
 * line chart per unit that changed: main's last points, then this PR's
 * head as the last point. Empty when the report has no history for it. */
export function historyCharts(report: Report, name: string): string {
  const h = report.history
  const m = h?.messages.find(x => x.name === name)
  if (!h || !m) return ''
  const units = [...new Set(m.series.map(s => s.unit))]
  return units
    .map(unit => chart(h, m, m.series.filter(s => s.unit === unit), unit))
    .filter(c => c !== '')
    .join('\n\n')
}

function chart(h: History, m: HistoryMessage, series: HistorySeries[], unit: string): string {
  // Commits where every line has a value: a figure counted only from some
  // commit on starts its chart there.
  const keep = m.commits.map((_, i) => i).filter(i => series.every(s => typeof s.values[i] === 'number'))
  if (keep.length < 2) return ''
  const lines = series.map(s => keep.map(i => round(s.values[i] as number)))
  const all = lines.flat()
  const [lo, hi] = yRange(Math.min(...all), Math.max(...all))
  const labels = keep.map(i => label(m.commits[i]!.sha, m.commits[i]!.head === true))
  const main = keep.filter(i => m.commits[i]!.head !== true)
  // The branch the points were pushed to (the default branch), as the
  // newest one says; the history branch's name when none does.
  const branch = m.commits[main.at(-1)!]!.ref || h.branch
  const legend = series
    .map((s, j) => `${j + 1}. ${s.format} ${s.metric}: ${measure(lines[j]![0]!, unit)} → ${measure(lines[j]!.at(-1)!, unit)}`)
    .join(' · ')
  return [
    '```mermaid',
    'xychart-beta',
    `    title "${safe(m.name)} ${safe(unit)}: last ${main.length} commits of ${safe(branch)}, then this PR"`,
    `    x-axis [${labels.map(l => JSON.stringify(l)).join(', ')}]`,
    `    y-axis "${safe(unit)}" ${lo} --> ${hi}`,
    ...lines.map(l => `    line [${l.join(', ')}]`),
    '```',
    `<sub>Lines in order — ${legend}. The last point is this PR.</sub>`
  ].join('\n')
}

/** historyNote is one line on what history did: recorded a point, or why
 * there is nothing to chart. */
export function historyNote(report: Report): string {
  const h = report.history
  if (!h) return ''
  if (h.recorded) {
    const tries = h.attempts && h.attempts > 1 ? ` (${h.attempts} attempts: other runs pushed first)` : ''
    return `<sub>History: recorded ${shortSha(h.recorded)} on \`${h.branch}\`${tries}.</sub>`
  }
  return h.note ? `<sub>History (\`${h.branch}\`): ${h.note}.</sub>` : ''
}

/** yRange pads the lines' range so a small step still shows. */
function yRange(min: number, max: number): [number, number] {
  const pad = max > min ? (max - min) * 0.2 : Math.max(1, Math.abs(max) * 0.05)
  const lo = Math.floor(min - pad)
  return [min >= 0 ? Math.max(0, lo) : lo, Math.ceil(max + pad)]
}

function label(sha: string, head: boolean): string {
  return head ? 'PR' : shortSha(sha).replace(/[^0-9A-Za-z._-]/g, '')
}

/** safe keeps text inside a quoted mermaid string. */
function safe(s: string): string {
  return s.replace(/["\\\n]/g, '')
}

function round(x: number): number {
  return Math.round(x * 10) / 10
}
