// What head's records add, in words (issue 16): a delta that comes from new
// content says which content; a regenerated field says its kinds; a new
// oneof member says what one would cost; a rename is one quiet line.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { renderReport } from '../src/render/report.js'
import type { Message, Records, Report } from '../src/report.js'
import { loadFixture } from './fixtures.js'
import { reparse } from './reports.js'

const NAME = 'telemetry.v1.TelemetryEvent'

/** withRecords is the fail fixture with TelemetryEvent's records and each format's new content set. */
function withRecords(records: Partial<Records>, newContent: Record<string, number>): Report {
  const r = loadFixture('fail')
  const m = r.messages.find(x => x.name === NAME)!
  m.status = 'changed'
  m.records = { source: "paired: the base's 256 generated records carried to head by field number", new_fields: [], regenerated: [], new_oneof_members: [], renamed: [], removed: [], ...records }
  for (const f of m.formats) {
    delete f.size!.new_content // the fixture's own, from a real run
    if (newContent[f.format] !== undefined) f.size!.new_content = newContent[f.format]
  }
  return reparse(r)
}

/** section is the message's part of the report, heading to the table. */
function section(md: string, name = NAME): string {
  return md.split(`\n### \`${name}\`\n`)[1]!.split('\n| format |')[0]!
}

test('a delta from a new field says so: "+12.0 B/msg from new field `notes`", protobuf first, the other formats after', () => {
  const md = renderReport(withRecords({ new_fields: [{ field: 'notes', number: '12', protobuf_bytes: 12 }] }, { protobuf: 12, json: 25, avro: 11 }))
  // The other formats follow in the report's order.
  assert.match(section(md), /\n📦 \+12\.0 B\/msg from new field `notes` \(protobuf; (avro \+11\.0, json \+25\.0|json \+25\.0, avro \+11\.0)\)\.\n/)
  assert.match(section(md), /\n<sub>Records: paired: the base's 256 generated records carried to head by field number\.<\/sub>\n/)
})

test('several fields each say their own protobuf bytes; a regenerated field says its kinds, from → to', () => {
  const md = renderReport(
    withRecords(
      {
        new_fields: [{ field: 'lines.notes', number: '3.12', protobuf_bytes: 9.5 }],
        regenerated: [{ field: 'amount', number: '4', from: 'string', to: 'int64', protobuf_bytes: -2.5 }]
      },
      { protobuf: 7 }
    )
  )
  assert.match(section(md), /\n📦 \+7\.0 B\/msg from new field `lines\.notes` \(\+9\.5\), regenerated field `amount` \(string → int64, -2\.5\) \(protobuf\)\.\n/)
})

test('without a new_content figure the fields are still named', () => {
  const md = renderReport(withRecords({ regenerated: [{ field: 'amount', number: '4', from: 'string', to: 'int64' }] }, {}))
  assert.match(section(md), /\n📦 Head's records add regenerated field `amount` \(string → int64\)\.\n/)
})

test('a new oneof member says no record holds it and what one would cost in protobuf', () => {
  const md = renderReport(withRecords({ new_oneof_members: [{ field: 'voucher', number: '13', protobuf_bytes: 14 }] }, {}))
  assert.match(section(md), /\n➕ New oneof member `voucher` \(one would cost 14\.0 B in protobuf\): no record holds it \(each keeps the member it had\), so no figure above counts its content \(a format that marks an empty member, as Avro's null branch does, still pays that mark\)\.\n/)
  assert.doesNotMatch(section(md), /📦/, 'no new content: no bytes line')
})

test('a rename is one quiet line, a removed field another; neither claims bytes', () => {
  const md = renderReport(
    withRecords({ renamed: [{ field: 'currency_code', number: '10', from: 'currency', to: 'currency_code' }], removed: [{ field: 'legacy', number: '9' }] }, {})
  )
  const s = section(md)
  assert.match(s, /\n<sub>Renamed, same number, no value changed: `currency` → `currency_code`\.<\/sub>\n/)
  assert.match(s, /\n<sub>Removed on head: `legacy`\.<\/sub>\n/)
  assert.doesNotMatch(s, /📦|➕/)
})

test('field names are untrusted text: a code span that holds them as they are', () => {
  const field = 'x` <img src=x> @team [a](http://e.vil)'
  const md = renderReport(withRecords({ new_fields: [{ field, number: '1' }] }, { protobuf: 1 }))
  assert.ok(section(md).includes('📦 +1.0 B/msg from new field ``x` <img src=x> @team [a](http://e.vil)`` (protobuf).'), section(md))
})

test('a message without records (an older gate, or one side only) has no records lines', () => {
  const r = loadFixture('fail')
  const m: Message = r.messages.find(x => x.name === NAME)!
  assert.ok(m.records, 'the fail fixture is a real run: it has records')
  delete m.records
  for (const f of m.formats) delete f.size!.new_content
  assert.doesNotMatch(section(renderReport(reparse(r))), /📦|➕|<sub>Records:/)
})
