// Number formatting for the report: short, fixed rules, no locale.
import { text } from './safe.js'

export function pct(x: number | null | undefined, signed = true): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return 'n/a'
  const s = Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(1)
  return signed && x >= 0 ? `+${s}%` : `${s}%`
}

export function pValue(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return ''
  return p < 0.001 ? 'p<0.001' : `p=${p.toFixed(3)}`
}

/** seconds formats a sec/op value with the unit that keeps 3 significant digits. */
export function seconds(s: number): string {
  const abs = Math.abs(s)
  if (abs >= 1) return `${sig(s)} s`
  if (abs >= 1e-3) return `${sig(s * 1e3)} ms`
  if (abs >= 1e-6) return `${sig(s * 1e6)} µs`
  return `${sig(s * 1e9)} ns`
}

/** instructions formats an instr/op count: 3,784, 38.4k. */
export function instructions(n: number): string {
  return Math.abs(n) >= 1e4 ? `${sig(n / 1e3)}k` : integer(n)
}

export function bytes(b: number): string {
  return b.toFixed(1)
}

/** rate formats records per second: 1.23M, 456k. */
export function rate(r: number): string {
  const abs = Math.abs(r)
  if (abs >= 1e6) return `${sig(r / 1e6)}M`
  if (abs >= 1e3) return `${sig(r / 1e3)}k`
  return sig(r)
}

function sig(x: number): string {
  const abs = Math.abs(x)
  if (abs >= 100) return x.toFixed(0)
  if (abs >= 10) return x.toFixed(1)
  return x.toFixed(2)
}

/** measure formats a value in its unit: "410 ns", "104.1 B/msg", "1.20M records/s".
 * The unit is report.json's text: it goes through text() like every string. */
export function measure(x: number, unit: string): string {
  switch (unit) {
    case 'sec/op':
      return seconds(x)
    case 'B/msg':
      return `${bytes(x)} B/msg`
    case 'records/s':
      return `${rate(x)} records/s`
    case 'instr/op':
      return `${instructions(x)} instr/op`
    default:
      return `${sig(x)} ${text(unit)}`
  }
}

/** integer formats a whole number with thousands separators: 200,000. */
export function integer(n: number): string {
  return Math.round(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}

/** mebibytes formats a byte count in MiB, or GiB from 1 GiB: "128 MiB", "1 GiB", "23.9 MiB". */
export function mebibytes(b: number): string {
  const [v, unit] = b >= 2 ** 30 ? [b / 2 ** 30, 'GiB'] : [b / 2 ** 20, 'MiB']
  return `${Number.isInteger(v) ? v : sig(v)} ${unit}`
}

export function shortSha(sha: string): string {
  return /^[0-9a-f]{40}$/i.test(sha) ? sha.slice(0, 7) : sha
}
