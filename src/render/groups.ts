// Messages that changed for the same cause — a field added to a message
// hundreds of others embed — read as one group: one heading naming the
// cause, one verdict line, one compact row per message (violations first,
// then the largest deltas). Each message's full section follows, the first
// detail the comment's budget cuts: the job summary keeps them.
import { isBlocking, type Group, type Message, type Metric, type Report } from '../report.js'
import type { Part } from './fit.js'
import { blocks, code, EMPTY, join, md, table, type Md } from './markdown.js'
import { messageParts } from './messages.js'
import { count, pct } from './numbers.js'
import { countsOf, ofMessage, reasonsOf } from './verdict.js'

/** A group of at least this many messages is shown as one. */
export const GROUPED = 4

/** How many rows within every threshold the shorter table keeps. */
const TOP = 20

/** grouped are the change set's groups shown as one: big enough. */
export function grouped(report: Report): Group[] {
  return (report.change?.groups ?? []).filter(g => g.messages.length >= GROUPED)
}

/** groupParts are one group: its heading and verdict (never cut), its
 * table of rows (cut to the failing and the largest rows, then to the
 * failing ones, then to the failing ones with their violations counted
 * rather than quoted), and its messages' full sections (cut first). */
export function groupParts(report: Report, group: Group): Part[] {
  const measured = new Map(report.messages.map(m => [m.name, m]))
  const rows = group.messages.map(name => row(report, name, measured.get(name)))
  rows.sort((a, b) => Number(b.failing) - Number(a.failing) || b.size - a.size || a.name.localeCompare(b.name))
  const failing = rows.filter(r => r.failing)
  const unmeasured = rows.filter(r => !r.measured)
  const within = rows.length - failing.length - unmeasured.length
  const verdict = join(
    [
      failing.length > 0 ? md`❌ ${count(failing.length, 'message fails', 'messages fail')}: ${reasonsOf(failing.flatMap(r => r.blocking))}` : EMPTY,
      within > 0 ? md`✅ ${count(within, 'message', 'messages')} within every threshold` : EMPTY,
      unmeasured.length > 0 ? md`⏱ ${count(unmeasured.length, 'message', 'messages')} not measured` : EMPTY
    ].filter(x => !x.empty),
    md` · `
  )
  const head = join([md`### Changed through ${causes(group.cause)} · ${count(group.messages.length, 'message', 'messages')}`, verdict, causeNote(report, group)].filter(x => !x.empty), md`\n\n`)
  const header = [md`message`, md`bytes/msg Δ (${join(formatsOf(report, group).map(f => md`${f}`), md` / `)})`, md`CPU Δ`, md`time Δ`, md`verdict`]
  const render = (rs: Row[], rest: number, short = false): Md => {
    const t = table(
      header,
      rs.map(r => (short ? [...r.cells.slice(0, -1), md`❌ ${countsOf(r.blocking)}`] : r.cells))
    )
    return rest > 0 ? md`${t}\n\n<sub>${count(rest, 'more row', 'more rows')} within every threshold: each message's full section is in the job summary.</sub>` : t
  }
  const top = [...failing, ...rows.filter(r => !r.failing).slice(0, TOP)]
  return [
    { md: head },
    {
      md: render(rows, 0),
      cut: 'group rows',
      compact: {
        md: render(top, rows.length - top.length),
        cut: 'group rows',
        compact: { md: render(failing, rows.length - failing.length), cut: 'group figures', compact: { md: render(failing, rows.length - failing.length, true) } }
      }
    },
    ...group.messages.flatMap(name => {
      const m = measured.get(name)
      if (!m) return []
      // A grouped message's section goes as one, before the group's rows;
      // its history charts with everyone's.
      const parts = messageParts(report, m)
      const history = parts.filter(p => p.cut === 'history charts')
      return [{ md: blocks(...parts.filter(p => p.cut !== 'history charts').map(p => p.md)), cut: 'grouped sections' as const }, ...history]
    })
  ]
}

interface Row {
  name: string
  measured: boolean
  failing: boolean
  blocking: ReturnType<typeof ofMessage>
  /** the largest bytes/msg change, in percent, for ordering */
  size: number
  cells: Md[]
}

/** row is one message's compact row: bytes Δ per format, the largest
 * significant CPU and time change, and its verdict. */
function row(report: Report, name: string, m: Message | undefined): Row {
  const blocking = ofMessage(report, name).filter(isBlocking)
  if (!m) {
    return { name, measured: false, failing: blocking.length > 0, blocking, size: 0, cells: [code(name), md`—`, md`—`, md`—`, md`⏱ not measured`] }
  }
  const sizes = m.formats.map(f => (f.size?.delta_pct === null || f.size?.delta_pct === undefined ? md`—` : f.size.delta_pct === 0 ? md`=` : pct(f.size.delta_pct)))
  const size = Math.max(0, ...m.formats.map(f => Math.abs(f.size?.delta_pct ?? 0)))
  const within = (v: typeof blocking): Md =>
    reasonsOf(v, x => (x.subject.startsWith(`${name}/`) ? x.subject.slice(name.length + 1) : x.subject))
  const verdict = blocking.length > 0 ? md`❌ ${within(blocking)}` : md`✅`
  return {
    name,
    measured: true,
    failing: blocking.length > 0,
    blocking,
    size,
    cells: [code(name), join(sizes, md` / `), largest(m, 'instr/op'), largest(m, 'sec/op'), verdict]
  }
}

/** largest is the largest significant change of a unit over a message's
 * formats and ops: "+3.1%", "~" when none is significant, "—" when the
 * unit was not measured. */
function largest(m: Message, unit: string): Md {
  const metrics: Metric[] = m.formats.flatMap(f => f.metrics.filter(x => x.unit === unit))
  if (metrics.length === 0) return md`—`
  // Layout noise is not a change the schema made (messages.ts).
  const significant = metrics.filter(x => x.significant && !x.layout_noise && x.delta_pct !== null)
  if (significant.length === 0) return md`~`
  const top = significant.reduce((a, b) => (Math.abs(b.delta_pct!) > Math.abs(a.delta_pct!) ? b : a))
  return pct(top.delta_pct)
}

/** formatsOf are the formats the group's first measured message has: the
 * columns of its bytes cell. */
function formatsOf(report: Report, group: Group): string[] {
  const first = report.messages.find(m => group.messages.includes(m.name))
  return first?.formats.map(f => f.format) ?? []
}

function causes(cause: string[]): Md {
  return join(
    cause.map(c => code(c)),
    md`, `
  )
}

/** causeNote says what the cause gained or lost, when the cause is a
 * measured message whose records say so. */
function causeNote(report: Report, group: Group): Md {
  const notes = group.cause.flatMap(c => {
    const r = report.messages.find(m => m.name === c)?.records
    if (!r) return []
    const fields = [...(r.new_fields ?? []).map(f => md`new field ${code(f.field)}`), ...(r.removed ?? []).map(f => md`removed field ${code(f.field)}`), ...(r.regenerated ?? []).map(f => md`retyped field ${code(f.field)}`)]
    return fields.length > 0 ? [md`in ${code(c)}: ${join(fields, md`, `)}`] : []
  })
  return notes.length > 0 ? md`📦 ${join(notes, md`; `)}` : EMPTY
}

