import assert from 'node:assert/strict'
import { test } from 'node:test'
import MarkdownIt from 'markdown-it'
import { code, codeBlock, link, md, mermaidLabel, numeral, table, text, type Md } from '../src/render/markdown.js'

// markdown-it follows CommonMark and GFM tables as GitHub's renderer does;
// html: true lets raw HTML through, as GitHub does before its sanitizer.
const markdown = new MarkdownIt({ html: true, linkify: true })

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
    const html = markdown.renderInline(text(s).source)
    assert.doesNotMatch(html, /</, `${JSON.stringify(s)} rendered an element: ${html}`)
    assert.equal(decode(html).replace(/\u200b/g, ''), flat(s), JSON.stringify(s))
    assert.doesNotMatch(html, /@\w/, 'a mention would notify')
  }
})

test('text(s) at the start of a line or list item starts no block', () => {
  for (const s of HOSTILE) {
    // Interpolated into md`…` where it opens a line, after a list marker, or alone.
    for (const rendered of [md`- ${s}`, md`${s}`, text(s), md`x\n${s}`]) {
      const html = markdown.render(rendered.source)
      assert.match(html, /^(<ul>\n<li>[^<]*<\/li>\n<\/ul>|<p>[^<]*<\/p>)\n$/, `${JSON.stringify(s)}: ${html}`)
    }
  }
})

test('code(s) is one code span holding exactly s, whatever backticks it has', () => {
  for (const s of [...HOSTILE, 'a`b', '`edge`', 'x```y', '``']) {
    const html = markdown.renderInline(code(s).source)
    const m = /^<code>([^<]*)<\/code>$/.exec(html)
    assert.ok(m, `${JSON.stringify(s)}: ${html}`)
    assert.equal(decode(m[1]!).replace(/\u200b/g, '').trim(), flat(s).trim(), JSON.stringify(s))
  }
})

test('table() keeps a code span or text in its cell, pipes and all', () => {
  for (const s of HOSTILE) {
    for (const rendered of [code(s), text(s), md`${s}`]) {
      const html = markdown.render(table([md`a`, md`b`], [[rendered, md`end`]]).source)
      const cells = [...html.matchAll(/<td>([\s\S]*?)<\/td>/g)].map(m => m[1]!)
      assert.equal(cells.length, 2, `${JSON.stringify(s)}: ${html}`)
      assert.equal(cells[1], 'end')
      assert.equal(decode(cells[0]!.replace(/<\/?code>/g, '')).replace(/\u200b/g, '').trim(), flat(s).trim(), JSON.stringify(s))
    }
  }
})

test('codeBlock holds its text literally; no line of it closes the fence', () => {
  const body = 'goos: linux\n```\n<script>alert(1)</script>\n</details>\n~~~'
  const html = markdown.render(`${codeBlock('text', body).source}\n\nafter`)
  assert.equal(html, `<pre><code class="language-text">${body.replace(/`/g, '\u02cb').replace(/</g, '&lt;').replace(/>/g, '&gt;')}\n</code></pre>\n<p>after</p>\n`)
})

test('mermaidLabel keeps names and drops what would end a quoted label', () => {
  assert.equal(mermaidLabel('telemetry.v1.TelemetryEvent'), 'telemetry.v1.TelemetryEvent')
  assert.equal(mermaidLabel('a"]\n%%{init}%%'), 'a__ ___init___')
})

test('md`…` keeps its literals and escapes every string in it; a value mid-line is not taken for a block start', () => {
  assert.equal(md`<sub>${'<b>x</b> @a'}</sub>`.source, '<sub>&lt;b&gt;x&lt;/b&gt; \u200b@\u200ba</sub>')
  assert.equal(md`(${'-1'}, ${'# x'})`.source, '(-1, # x)')
  assert.equal(md`${'# x'}`.source, '\\# x')
  assert.equal(md`> ${'# x'}`.source, '> \\# x')
  assert.equal(md`a ${md`*b*`} ${3}`.source, 'a *b* 3', 'an Md and a number go in as they are')
})

test('nothing but the md tag makes markdown from a string', () => {
  const forged = Object.assign(['<script>'], { raw: ['<script>'] }) as unknown as TemplateStringsArray
  // eslint-disable-next-line no-restricted-syntax -- the call under test
  assert.throws(() => md(forged), /md is a template tag/)
  const MdClass = text('x').constructor as new (secret: symbol, source: string) => Md
  assert.throws(() => new MdClass(Symbol('wiregate markdown'), '<script>'), /made by render\/markdown\.ts only/)
  assert.equal(numeral('-1,234.5').source, '-1,234.5')
  for (const bad of ['1<2', '[1](x)', '1 @a', '']) assert.throws(() => numeral(bad), /is not a number/, bad)
})

test('a link is made only to a URL that cannot break out of it', () => {
  assert.equal(link(md`run`, 'https://github.com/o/r/actions/runs/9').source, '[run](https://github.com/o/r/actions/runs/9)')
  for (const bad of ['javascript:alert(1)', 'https://x/(y)', 'https://x y', undefined]) assert.equal(link(md`run`, bad).source, 'run', String(bad))
})

test('literal text holds no HTML comment opener: no second sticky marker in a code span or block', () => {
  const marker = '<!-- wiregate:wiregate/gate -->'
  for (const m of [code(marker), codeBlock('text', marker), text(marker)]) assert.ok(!m.source.includes('<!--'), m.source)
  assert.equal(markdown.renderInline(code(marker).source).replace(/\u200b/g, ''), '<code>&lt;!-- wiregate:wiregate/gate --&gt;</code>')
})
