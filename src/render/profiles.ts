// Why a count grew: under a message's table, one collapsed block per cpu
// violation, naming the functions whose own instructions per operation
// moved past the count's noise floor (the gate chose them: Metric.functions),
// base → head, each side's median over its processes.
import type { FunctionCost, Message, Metric, Report } from '../report.js'
import type { Part } from './fit.js'
import { blocks, code, details, EMPTY, htmlCode, htmlText, join, md, table, type Md } from './markdown.js'
import { integer } from './numbers.js'
import { ofMessage } from './verdict.js'

/** profileBlocks is the message's blocks, one per cpu violation whose
 * metric names functions, in the violations' order; the first kind of
 * detail the comment's room cuts. */
export function profileBlocks(report: Report, message: Message): Part {
  const out: Md[] = []
  for (const v of ofMessage(report, message.name)) {
    if (v.kind !== 'cpu') continue
    const [format, op] = v.subject.slice(message.name.length + 1).split('/')
    const metric = message.formats.find(f => f.format === format)?.metrics.find(m => m.name === op && m.unit === 'instr/op')
    if (format && op && metric?.functions?.length) out.push(profileBlock(format, op, metric, metric.functions))
  }
  return { md: blocks(...out), cut: 'profiles' }
}

/** profileBlock: "json decode +176 instr/op: json.foldName +60,
 * allocation +90, …" folded over a sentence when one function explains
 * most of it, and each function's self and inclusive cost. */
function profileBlock(format: string, op: string, metric: Metric, fns: FunctionCost[]): Md {
  const delta = (metric.head?.center ?? 0) - (metric.base?.center ?? 0)
  const named = join(
    fns.map(f => md`${f.kind === 'group' ? htmlText(f.name) : htmlCode(f.name)} ${signed(f.self_delta)}`),
    md`, `
  )
  const rest = Math.abs(delta - fns.reduce((sum, f) => sum + f.self_delta, 0)) >= 1 ? md`, …` : EMPTY
  const summary = md`${htmlCode(format)} ${htmlText(op)} ${signed(delta)} instr/op: ${named}${rest}`
  const lead = fns[0]!
  const sentence = lead.explains_most ? md`${name(lead)} alone accounts for ${signed(lead.self_delta)} of the ${signed(delta)} instr/op.` : EMPTY
  const rows = fns.map(f => [name(f), change(f.self_base, f.self_head, f.self_delta), change(f.inclusive_base, f.inclusive_head, f.inclusive_delta)])
  return details(summary, blocks(sentence, table([md`function (moved past the floor)`, md`self instr/op`, md`with what it calls`], rows)))
}

/** name is a function as code, a group as words, generated code marked. */
function name(f: FunctionCost): Md {
  if (f.kind === 'group') return md`${f.name}`
  return f.kind === 'generated' ? md`${code(f.name)} (generated)` : code(f.name)
}

function change(base: number, head: number, delta: number): Md {
  return md`${integer(base)} → ${integer(head)} (${signed(delta)})`
}

/** signed is a whole number of instructions with its sign: +60, -12. */
function signed(n: number): Md {
  return Math.round(n) >= 0 ? md`+${integer(n)}` : integer(n)
}
