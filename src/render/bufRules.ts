import type { Report } from '../report.js'
import { code, EMPTY, join, md, type Md } from './markdown.js'
import { count } from './numbers.js'

/** bufRulesNote says how head's buf config changes the rules that judge
 * it: Go's one line (report.buf_rules.change), its backtick spans as code
 * spans and the rest as text, and how many findings head's own rules
 * alone raise. Empty when head's rules are the base's. */
export function bufRulesNote(report: Report): Md {
  const r = report.buf_rules
  if (!r?.change) return EMPTY
  const n = r.head_only?.length ?? 0
  const more = n > 0 ? md` · head's own rules alone find ${count(n, 'more finding', 'more findings')}` : EMPTY
  return md`> ⚖️ ${spans(r.change)}${more}`
}

/** spans renders a line whose odd backtick-delimited pieces are code:
 * every piece is escaped for its place, whatever the line holds. */
function spans(line: string): Md {
  return join(
    line.split('`').map((piece, i) => (i % 2 === 1 ? code(piece) : md`${piece}`)),
    EMPTY
  )
}
