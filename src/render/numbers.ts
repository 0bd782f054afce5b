// Number formatting for the report: short, fixed rules, no locale. Every
// formatter gives markdown (an Md made of numerals and its own literals).
import { md, numeral, type Md } from './markdown.js'

export function pct(x: number | null | undefined, signed = true): Md {
  if (x === null || x === undefined || !Number.isFinite(x)) return md`n/a`
  const s = numeral(Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(1))
  return signed && x >= 0 ? md`+${s}%` : md`${s}%`
}

/** pValue is "p=0.002", or "p<0.001" with the < as an entity (no raw < is
 * left in the comment but its own tags). */
export function pValue(p: number | null | undefined): Md | undefined {
  if (p === null || p === undefined || !Number.isFinite(p)) return undefined
  return p < 0.001 ? md`p&lt;0.001` : md`p=${numeral(p.toFixed(3))}`
}

/** seconds formats a sec/op value with the unit that keeps 3 significant digits. */
export function seconds(s: number): Md {
  const abs = Math.abs(s)
  if (abs >= 1) return md`${sig(s)} s`
  if (abs >= 1e-3) return md`${sig(s * 1e3)} ms`
  if (abs >= 1e-6) return md`${sig(s * 1e6)} µs`
  return md`${sig(s * 1e9)} ns`
}

/** instructions formats an instr/op count: 3,784, 38.4k. */
export function instructions(n: number): Md {
  return Math.abs(n) >= 1e4 ? md`${sig(n / 1e3)}k` : integer(n)
}

/** bytes is a bytes/msg figure: one decimal. */
export function bytes(b: number): Md {
  return numeral(b.toFixed(1))
}

/** signedBytes is a change in bytes/msg: "+12.0", "-3.5". */
export function signedBytes(b: number): Md {
  return b >= 0 ? md`+${bytes(b)}` : bytes(b)
}

/** rate formats records per second: 1.23M, 456k. */
export function rate(r: number): Md {
  const abs = Math.abs(r)
  if (abs >= 1e6) return md`${sig(r / 1e6)}M`
  if (abs >= 1e3) return md`${sig(r / 1e3)}k`
  return sig(r)
}

function sig(x: number): Md {
  const abs = Math.abs(x)
  return numeral(abs >= 100 ? x.toFixed(0) : abs >= 10 ? x.toFixed(1) : x.toFixed(2))
}

/** measure formats a value in its unit: "410 ns", "104.1 B/msg", "1.20M
 * records/s". A unit it does not know is report.json's text, escaped. */
export function measure(x: number, unit: string): Md {
  switch (unit) {
    case 'sec/op':
      return seconds(x)
    case 'B/msg':
      return md`${bytes(x)} B/msg`
    case 'B/record':
      return md`${bytes(x)} B/record`
    case 'records/s':
      return md`${rate(x)} records/s`
    case 'instr/op':
      return md`${instructions(x)} instr/op`
    default:
      return md`${sig(x)} ${unit}`
  }
}

/** integer formats a whole number with thousands separators: 200,000. */
export function integer(n: number): Md {
  return numeral(
    Math.round(n)
      .toString()
      .replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  )
}

/** mebibytes formats a byte count in MiB, or GiB from 1 GiB: "128 MiB", "1 GiB", "23.9 MiB". */
export function mebibytes(b: number): Md {
  const [v, unit] = b >= 2 ** 30 ? [b / 2 ** 30, md`GiB`] : [b / 2 ** 20, md`MiB`]
  return md`${Number.isInteger(v) ? v : sig(v)} ${unit}`
}

/** wallSeconds is a stage's wall time: "12.3 s". */
export function wallSeconds(s: number): Md {
  return md`${numeral(s.toFixed(1))} s`
}

/** shortSha is a commit's first 7 hex digits; anything that is not a sha
 * is left as it is (escaped where it is shown). */
export function shortSha(sha: string): string {
  return /^[0-9a-f]{40}$/i.test(sha) ? sha.slice(0, 7) : sha
}

/** count is "1 message", "60 messages". */
export function count(n: number, one: string, many: string): Md {
  return md`${integer(n)} ${n === 1 ? one : many}`
}
