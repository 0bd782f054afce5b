// The report's room: a GitHub comment holds 65,536 characters and
// a job summary 1 MiB. The renderer hands over the report as parts in
// reading order, each saying what it is (and so when it may go); fit drops
// kinds of detail, in CUTS order, until the report fits, and says what it
// dropped. What changed — each changed and new message's heading,
// verdict and what its records add — is never in a kind that goes.
import { blocks, EMPTY, join, md, type Md } from './markdown.js'
import { truncate } from './truncate.js'

/** GitHub's limit on a comment body, in characters. */
export const COMMENT_LIMIT = 65536

/** GitHub's limit on a step's job summary, in bytes. */
export const SUMMARY_LIMIT = 1024 * 1024

/** What fit may cut, first to last, with the words the cut note
 * uses. A kind goes whole (every message keeps the same detail), except
 * name lists: those go one at a time, the longest first, each leaving its
 * count. */
const CUTS = {
  benchstat: { words: 'benchstat text' },
  noise: { words: 'noise floors' },
  stages: { words: 'stage timings' },
  environment: { words: 'environment' },
  ignored: { words: 'ignored metrics' },
  'unchanged tables': { words: "unchanged messages' tables" },
  names: { words: 'folded name lists', oneByOne: true },
  'history charts': { words: 'history charts' },
  'plan notes': { words: "the time budget's note per stage (the counts of what it cut stay)" },
  'grouped sections': { words: "grouped messages' full sections (each has its row)" },
  'violation rows': { words: "measured violations' rows (each message's verdict line has them)" },
  'approve lines': { words: "measured regressions' lines in the approve-all block (its schema line stays)" },
  'bytes charts': { words: 'bytes/msg charts' },
  // Why a failing count grew says what no other part does, so it stays
  // past the charts and the rows each verdict line repeats.
  profiles: { words: 'which functions grew in each cpu violation' },
  'group rows': { words: "groups' rows within every threshold" },
  'group figures': { words: "failing group rows' figures (each counts its violations)" },
  'message tables': { words: "changed messages' tables" }
} satisfies Record<string, { words: string; oneByOne?: true }>

export type Cut = keyof typeof CUTS

/** A block of the report. cut says which kind of detail it is; without one
 * it is never cut. compact is what stands in its place once it is (a count
 * without its names, say), itself a part that may go later. */
export interface Part {
  md: Md
  cut?: Cut
  compact?: Part
}

export interface Room {
  /** how much the report may hold, in unit */
  limit: number
  unit: 'characters' | 'bytes'
  /** where the whole report is: "the job summary of [this run](…)" */
  whole: Md
}

export const summaryRoom: Room = { limit: SUMMARY_LIMIT, unit: 'bytes', whole: md`report.md and report.json` }

/** size is markdown's length in the room's unit. A JavaScript length
 * counts UTF-16 units, never fewer than GitHub's characters. */
function size(markdown: string, unit: Room['unit']): number {
  return unit === 'bytes' ? Buffer.byteLength(markdown, 'utf8') : markdown.length
}

/** assemble is every part as it is: the whole report (report.md). */
export function assemble(parts: Part[]): string {
  return blocks(...parts.map(p => p.md)).source + '\n'
}

/** fit is the report within its room: the parts, less the kinds of detail
 * CUTS drops first, with one line saying what was cut and where the whole
 * report is. Should what is never cut still not fit, the text is cut at a
 * line as a last resort (truncate). */
export function fit(parts: Part[], room: Room): string {
  let kept = parts
  const cut: Cut[] = []
  const render = (): string => blocks(...kept.map(p => p.md), cutNote(cut, room.whole)).source + '\n'
  let out = render()
  const fits = (): boolean => size(out, room.unit) <= room.limit
  for (const kind of Object.keys(CUTS) as Cut[]) {
    const oneByOne = 'oneByOne' in CUTS[kind]
    while (!fits()) {
      const of = kept.filter(p => p.cut === kind)
      if (of.length === 0) break
      const going = new Set(oneByOne ? [of.reduce((a, b) => (b.md.length > a.md.length ? b : a))] : of)
      kept = kept.map(p => (going.has(p) ? (p.compact ?? { md: EMPTY }) : p))
      if (!cut.includes(kind)) cut.push(kind)
      out = render()
    }
  }
  if (fits()) return out
  // truncate counts UTF-16 units; one takes at most 3 bytes of UTF-8.
  const chars = room.unit === 'bytes' ? Math.floor(room.limit / 3) : room.limit
  return truncate(out, chars, md`Report cut to fit; ${room.whole} has all of it.`)
}

function cutNote(cut: Cut[], whole: Md): Md {
  if (cut.length === 0) return EMPTY
  return md`<sub>✂️ Cut to fit: ${join(
    cut.map(c => md`${CUTS[c].words}`),
    md`, `
  )}. ${whole} has all of it.</sub>`
}
