import type { Md } from './markdown.js'

/** truncate cuts markdown to at most limit characters at a line boundary,
 * closes any code fence or <details> the cut left open, and says where the
 * full report is: the comment's room's last resort (fit.ts). */
export function truncate(markdown: string, limit: number, note: Md): string {
  if (markdown.length <= limit) return markdown
  const lines = markdown.split('\n')
  const kept: string[] = []
  let length = 0
  let fence = false
  let openDetails = 0
  const closing = (): string => (fence ? '```\n' : '') + '</details>\n'.repeat(openDetails)
  const footer = `\n\n> ✂️ ${note.source}\n`
  for (const line of lines) {
    const nextFence: boolean = /^\s*```/.test(line) ? !fence : fence
    // A <details> tag inside a code block is text, not a tag to close.
    const nextDetails: number = fence || nextFence ? openDetails : openDetails + count(line, /<details>/g) - count(line, /<\/details>/g)
    const wouldBe = length + line.length + 1
    const tail = (nextFence ? 4 : 0) + nextDetails * 11 + footer.length
    if (wouldBe + tail > limit) break
    kept.push(line)
    length = wouldBe
    fence = nextFence
    openDetails = Math.max(0, nextDetails)
  }
  return kept.join('\n') + '\n' + closing() + footer
}

function count(line: string, re: RegExp): number {
  return (line.match(re) ?? []).length
}
