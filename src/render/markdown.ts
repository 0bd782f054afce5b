// The one way text reaches the comment. Markdown is an Md, and only this
// file makes one: from the renderer's own template literals (the md tag),
// from numbers, or by escaping a string for the place it goes (inline text,
// a code span, a code block, a table cell, a mermaid label). Every string
// is untrusted here — a report.json field, a schema's field name, an error
// line — so there is no way to mark one trusted: a string interpolated into
// md`…` is escaped as inline text, and a plain template literal gives a
// string, which is not an Md and does not type-check where one is expected.
// (ESLint's restrict-template-expressions also refuses an Md inside a plain
// template literal, and eslint.config.js refuses md called as a function.)
//
// In publish mode report.json comes from an artifact a fork PR's code
// wrote, and in gate mode a PR names files, messages and fields: a string
// must render as the text it is — no HTML (an unclosed `<!--` would hide the
// rest of the report), no links, images or mentions, no markdown structure,
// one line, and no second sticky marker.

const SECRET: unique symbol = Symbol('wiregate markdown')

/** Md is markdown that is safe by construction. */
export class Md {
  readonly #source: string

  /** Only this module holds SECRET: nothing else can make an Md. */
  constructor(secret: typeof SECRET, source: string) {
    if (secret !== SECRET) throw new Error('an Md is made by render/markdown.ts only')
    this.#source = source
  }

  /** source is the markdown, to write out (never to build more markdown from). */
  get source(): string {
    return this.#source
  }

  get length(): number {
    return this.#source.length
  }

  get empty(): boolean {
    return this.#source === ''
  }
}

const of = (source: string): Md => new Md(SECRET, source)

export const EMPTY = of('')

/** What md`…` takes between its literals: markdown as it is, a string as
 * escaped inline text, a number as its digits. */
export type Inline = Md | string | number

/** md is the template tag: its literals are the renderer's own markdown;
 * every value in it is an Md, or a string escaped as inline text (block
 * starts escaped too where the value opens a line), or a number. */
export function md(literals: TemplateStringsArray, ...values: Inline[]): Md {
  // A template's literals are a frozen array with a frozen raw: a plain
  // array passed as literals is a string pretending to be one.
  if (!Object.isFrozen(literals) || !Array.isArray(literals.raw)) throw new Error('md is a template tag')
  let out = literals[0]!
  values.forEach((v, i) => {
    out += v instanceof Md ? v.source : typeof v === 'number' ? String(v) : escape(v, opensLine(out))
    out += literals[i + 1]!
  })
  return of(out)
}

/** opensLine is true when what follows out starts a line, or follows only
 * list or quote markers on it (a `#` there is a heading). Where out has no
 * line yet the caller's context is unknown: true, to escape too much
 * rather than too little. */
function opensLine(out: string): boolean {
  return /^[ \t]*(?:(?:[-*+>]|\d{1,9}[.)])[ \t]+)*$/.test(out.slice(out.lastIndexOf('\n') + 1))
}

/** text is a string as inert inline markdown. */
export function text(s: string): Md {
  return of(escape(s, true))
}

/** escape makes a string inert inline markdown: HTML special characters as
 * entities; the punctuation that opens emphasis, code, links, images and
 * math backslash-escaped (an `_` inside a word opens nothing, so
 * FIELD_NO_DELETE stays as it is); a list, heading or setext start escaped
 * where the text opens a line; mentions, e-mail addresses and bare links
 * broken with zero-width spaces; one line. Pipes are left to table(), which
 * escapes a whole cell. */
function escape(s: string, lineStart: boolean): string {
  let out = oneLine(s)
    .replace(/[\\`*[\]~$]/g, '\\$&')
    .replace(/(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, '\\_')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/@/g, '\u200b@\u200b')
    .replace(/\b(https?|ftp):\/\//gi, '$1:/\u200b/')
    .replace(/\bwww\./gi, 'www\u200b.')
  if (lineStart) out = out.replace(/^[#+=-]/, '\\$&').replace(/^(\d+)([.)])/, '$1\\$2')
  return out
}

/** code is a string as an inline code span: its content is literal (no HTML,
 * no markdown, no mentions), delimited by more backticks than any run in it. */
export function code(s: string): Md {
  const line = unmarked(oneLine(s))
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map(run => run.length))
  const fence = '`'.repeat(longest + 1)
  const pad = line.startsWith('`') || line.endsWith('`') || line === '' ? ' ' : ''
  return of(`${fence}${pad}${line}${pad}${fence}`)
}

/** htmlCode is a string as an HTML code element, for where markdown is not
 * read (a <summary> line is raw HTML): HTML special characters as entities,
 * mentions and bare links broken as escape() breaks them, one line. */
export function htmlCode(s: string): Md {
  return of(`<code>${htmlInline(s)}</code>`)
}

/** htmlText is a string as inert text inside raw HTML (a <summary>). */
export function htmlText(s: string): Md {
  return of(htmlInline(s))
}

function htmlInline(s: string): string {
  return unmarked(oneLine(s))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/@/g, '\u200b@\u200b')
    .replace(/\b(https?|ftp):\/\//gi, '$1:/\u200b/')
    .replace(/\bwww\./gi, 'www\u200b.')
}

/** codeBlock is multi-line text as a fenced block. Backticks in it become ˋ
 * (U+02CB), so no line of it can close the fence or look like one to the
 * budget's cut; the block is literal otherwise. */
export function codeBlock(info: 'text', body: string): Md {
  return of('```' + info + '\n' + unmarked(body.replace(/`/g, '\u02cb')).trimEnd() + '\n```')
}

/** unmarked keeps literal text from holding an HTML comment opener: shown
 * the same (a zero-width space after `<!`), but no `<!-- wiregate:…` in a
 * code span can pass for a second sticky marker in the comment's source. */
function unmarked(s: string): string {
  return s.replace(/<!--/g, '<!\u200b--')
}

/** numeral is a number the renderer formatted (toFixed, thousands
 * separators) as markdown: only digits, a sign, a point, commas and an
 * exponent, which no markdown reads as anything but text. */
export function numeral(s: string): Md {
  if (!/^[-+]?(?:\d[\d,]*(?:\.\d*)?(?:e[-+]?\d+)?|Infinity|NaN)$/.test(s)) throw new Error(`numeral: ${JSON.stringify(s)} is not a number`)
  return of(s)
}

/** join puts parts one after another with sep between them, dropping empty ones. */
export function join(parts: Md[], sep: Md): Md {
  return of(
    parts
      .filter(p => !p.empty)
      .map(p => p.source)
      .join(sep.source)
  )
}

/** blocks joins block-level parts with a blank line, dropping empty ones. */
export function blocks(...parts: Md[]): Md {
  return join(parts, of('\n\n'))
}

/** table is a GFM table: each cell one line with its pipes escaped (also
 * inside code spans, as GFM tables require). */
export function table(header: Md[], rows: Md[][]): Md {
  const row = (cells: Md[]): string => `| ${cells.map(c => c.source.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ')).join(' | ')} |`
  return of([row(header), `|${header.map(() => '---|').join('')}`, ...rows.map(row)].join('\n'))
}

/** details is a collapsed section: summary shown, body folded. */
export function details(summary: Md, body: Md): Md {
  return md`<details><summary>${summary}</summary>\n\n${body}\n\n</details>`
}

/** link is a markdown link to a URL the action itself made (the run's
 * page); anything else that could break out of the link is shown as the
 * label alone. */
export function link(label: Md, url: string | undefined): Md {
  return url && /^https?:\/\/[^\s()<>[\]"'`\\]+$/.test(url) ? of(`[${label.source}](${url})`) : label
}

/** commentLink links label to a pull request comment, and to nothing else:
 * an approval's URL comes from report.json, so only a GitHub comment URL
 * (…/pull/N#issuecomment-ID) is linked. */
export function commentLink(label: Md, url: string): Md {
  return /^https:\/\/[A-Za-z0-9.-]+\/[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+\/pull\/\d+#issuecomment-\d+$/.test(url) ? link(label, url) : label
}

/** An x/y chart: bars or lines over labelled x positions. */
export interface XYChart {
  title: string
  x: string[]
  y: { title: string; lo: number; hi: number }
  series: Array<{ kind: 'bar' | 'line'; values: number[] }>
}

/** xyChart is a mermaid xychart-beta block. Labels keep only letters,
 * digits and a little punctuation: a mermaid string cannot hold a quote,
 * and mermaid reads directives (`%%{…}%%`) anywhere in a block. */
export function xyChart(c: XYChart): Md {
  const num = (x: number): string => String(Number.isFinite(x) ? x : 0)
  return of(
    [
      '```mermaid',
      'xychart-beta',
      `    title "${mermaidLabel(c.title)}"`,
      `    x-axis [${c.x.map(l => `"${mermaidLabel(l)}"`).join(', ')}]`,
      `    y-axis "${mermaidLabel(c.y.title)}" ${num(c.y.lo)} --> ${num(c.y.hi)}`,
      ...c.series.map(s => `    ${s.kind} [${s.values.map(num).join(', ')}]`),
      '```'
    ].join('\n')
  )
}

/** mermaidLabel keeps the characters a mermaid string literal can hold
 * without quoting rules: letters, digits and a little punctuation. */
export function mermaidLabel(s: string): string {
  return oneLine(s).replace(/[^\w .:/+,-]/g, '_')
}

function oneLine(s: string): string {
  return s.replace(/[\r\n\u2028\u2029]+/g, ' ')
}
