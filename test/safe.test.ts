import assert from 'node:assert/strict'
import { test } from 'node:test'
import MarkdownIt from 'markdown-it'
import { cell, code, codeBlock, mermaidLabel, text } from '../src/render/safe.js'

// markdown-it follows CommonMark and GFM tables as GitHub's renderer does;
// html: true lets raw HTML through, as GitHub does before its sanitizer.
const md = new MarkdownIt({ html: true, linkify: true })

const HOSTILE = [
  '<script>alert(1)</script>',
  '<!-- hide the rest of the report',
  '**bold** _em_ __strong__ ~~strike~~ `code` ``two``',
  '[link](https://evil.example) ![img](https://evil.example/x.png) [ref]: https://evil.example',
  '<https://evil.example> https://evil.example www.evil.example',
  '@everyone @org/team mail@evil.example',
  '# heading',
  '- item',
  '1. item',
  '> quote',
  '+ item',
  'a\\*b\\ c\\\\',
  '&lt; an entity &amp; &#60;',
  'FIELD_NO_DELETE snake_case _x_ x_',
  '$x^2$ and $$y$$',
  'line1\nline2\n\n## two\r\nthree',
  '<details><summary>x</summary>',
  ':+1: #123 1) x',
  'a | b | c'
]

const ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"' }
const decode = (html: string): string => html.replace(/&(lt|gt|amp|quot);/g, e => ENTITIES[e]!)
const flat = (s: string): string => s.replace(/[\r\n]+/g, ' ')

test('text(s) renders as exactly the text s, on one line, with no element in it', () => {
  for (const s of HOSTILE) {
    const html = md.renderInline(text(s))
    assert.doesNotMatch(html, /</, `${JSON.stringify(s)} rendered an element: ${html}`)
    assert.equal(decode(html).replace(/\u200b/g, ''), flat(s), JSON.stringify(s))
    assert.doesNotMatch(html, /@\w/, 'a mention would notify')
  }
})

test('text(s) at the start of a line or list item starts no block', () => {
  for (const s of HOSTILE) {
    const item = /^<ul>\n<li>([^<]*)<\/li>\n<\/ul>\n$/.exec(md.render(`- ${text(s)}`))
    assert.ok(item, `${JSON.stringify(s)}: ${md.render(`- ${text(s)}`)}`)
    const paragraph = /^<p>([^<]*)<\/p>\n$/.exec(md.render(text(s)))
    assert.ok(paragraph, `${JSON.stringify(s)}: ${md.render(text(s))}`)
  }
})

test('code(s) is one code span holding exactly s, whatever backticks it has', () => {
  for (const s of [...HOSTILE, 'a`b', '`edge`', 'x```y', '``']) {
    const html = md.renderInline(code(s))
    const m = /^<code>([^<]*)<\/code>$/.exec(html)
    assert.ok(m, `${JSON.stringify(s)}: ${html}`)
    assert.equal(decode(m[1]!).trim(), flat(s).trim(), JSON.stringify(s))
  }
})

test('cell() keeps a code span or text in its table cell, pipes and all', () => {
  for (const s of HOSTILE) {
    for (const rendered of [code(s), text(s)]) {
      const html = md.render(`| a | b |\n|---|---|\n| ${cell(rendered)} | end |\n`)
      const cells = [...html.matchAll(/<td>([\s\S]*?)<\/td>/g)].map(m => m[1]!)
      assert.equal(cells.length, 2, `${JSON.stringify(s)}: ${html}`)
      assert.equal(cells[1], 'end')
      assert.equal(decode(cells[0]!.replace(/<\/?code>/g, '')).replace(/\u200b/g, '').trim(), flat(s).trim(), JSON.stringify(s))
    }
  }
})

test('codeBlock holds its text literally; no line of it closes the fence', () => {
  const body = 'goos: linux\n```\n<script>alert(1)</script>\n</details>\n~~~'
  const html = md.render(`${codeBlock('text', body)}\n\nafter`)
  assert.equal(html, `<pre><code class="language-text">${body.replace(/`/g, '\u02cb').replace(/</g, '&lt;').replace(/>/g, '&gt;')}\n</code></pre>\n<p>after</p>\n`)
})

test('mermaidLabel keeps names and drops what would end a quoted label', () => {
  assert.equal(mermaidLabel('telemetry.v1.TelemetryEvent'), 'telemetry.v1.TelemetryEvent')
  assert.equal(mermaidLabel('a"]\n%%{init}%%'), 'a__ ___init___')
})
