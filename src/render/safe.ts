// Every string report.json carries (names, paths, details, rules, benchstat
// text, environment) reaches the PR comment through one of these functions.
// In publish mode report.json comes from an artifact a fork PR's code wrote,
// and in gate mode a PR can name a file or a message; either way a string
// must render as the text it is: no HTML (an unclosed `<!--` would hide the
// rest of the report), no links, images or mentions, no markdown structure,
// one line.

/** text makes a string inert inline markdown: HTML special characters as
 * entities; the punctuation that opens emphasis, code, links, images and
 * math backslash-escaped (an `_` inside a word opens nothing, so
 * FIELD_NO_DELETE stays as it is); a list or heading start escaped; mentions,
 * e-mail addresses and bare links broken with zero-width spaces; one line. Pipes are left to
 * cell(), which escapes a whole table cell. */
export function text(s: string): string {
  return oneLine(s)
    .replace(/[\\`*[\]~$]/g, '\\$&')
    .replace(/(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, '\\_')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/^[#+=-]/, '\\$&')
    .replace(/^(\d+)([.)])/, '$1\\$2')
    .replace(/@/g, '\u200b@\u200b')
    .replace(/\b(https?|ftp):\/\//gi, '$1:/\u200b/')
    .replace(/\bwww\./gi, 'www\u200b.')
}

/** code is a string as an inline code span: its content is literal (no HTML,
 * no markdown, no mentions), delimited by more backticks than any run in it. */
export function code(s: string): string {
  const line = oneLine(s)
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map(run => run.length))
  const fence = '`'.repeat(longest + 1)
  const pad = line.startsWith('`') || line.endsWith('`') || line === '' ? ' ' : ''
  return `${fence}${pad}${line}${pad}${fence}`
}

/** codeBlock is multi-line text as a fenced block. Backticks in it become ˋ
 * (U+02CB), so no line of it can close the fence or look like one to
 * truncate(); the block is literal otherwise. */
export function codeBlock(info: string, body: string): string {
  return '```' + info + '\n' + body.replace(/`/g, '\u02cb').trimEnd() + '\n```'
}

/** cell makes rendered text safe inside a markdown table cell: pipes escaped
 * (also inside code spans, as GFM tables require), one line. */
export function cell(rendered: string): string {
  return rendered.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ')
}

/** mermaidLabel keeps the characters a mermaid string literal can hold
 * without quoting rules: letters, digits and a little punctuation. */
export function mermaidLabel(s: string): string {
  return oneLine(s).replace(/[^\w .:/+-]/g, '_')
}

function oneLine(s: string): string {
  return s.replace(/[\r\n\u2028\u2029]+/g, ' ')
}
