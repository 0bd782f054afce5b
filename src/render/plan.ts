import type { Report } from '../report.js'
import type { Part } from './fit.js'
import { folded } from './details.js'
import { join, md, type Md } from './markdown.js'
import { count } from './numbers.js'

/** planParts say what the time budget cut: the gate's one line per stage
 * (a merged report's are every shard's, so they may go when the comment is
 * full), then each list of what it cut as a count with the names folded. */
export function planParts(report: Report): Part[] {
  const plan = report.plan ?? {}
  const notes: Array<[Md, string | undefined]> = [
    [md`Exact stage`, plan.exact?.note],
    [md`Instruction counts`, plan.cpu?.note],
    [md`Bench rounds`, plan.bench?.note],
    [md`Pipeline`, plan.pipeline?.note]
  ]
  const lines = notes.filter(([, n]) => n).map(([stage, n]) => md`> ⏱ ${stage}, ${n!}`)
  const messages = (n: number): Md => count(n, 'message', 'messages')
  const list = (names: string[] | undefined, line: (n: number) => Md): Part => folded(line(names?.length ?? 0), names ?? [])
  return [
    { md: join(lines, md`\n>\n`), cut: 'plan notes' as const },
    list(plan.exact?.unmeasured, n => md`⏱ ${messages(n)} not measured at all (no correctness check, no sizes): the time budget ran out`),
    list(plan.cpu?.uncounted, n => md`⏱ ${messages(n)} whose instructions were not counted`),
    list(plan.cpu?.fewer_processes, n => md`⏱ ${messages(n)} counted in fewer processes per side than planned (with one, each count's floor is its format's, not its own)`),
    list(plan.bench?.untimed, n => md`⏱ ${messages(n)} not timed`),
    list(plan.pipeline?.untimed, n => md`⏱ ${count(n, 'pipeline row', 'pipeline rows')} not timed`),
    list(report.unable_to_fail, n => md`⚖ ${count(n, 'timed metric', 'timed metrics')} could not fail: the smallest slowdown (or fall in records/s) their rounds could show at the Holm cutoff is above their threshold (their instruction counts still gate)`)
  ].filter(p => !p.md.empty)
}
