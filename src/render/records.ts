// What a changed message's records hold on head that the base's did not,
// in words: both sides measure the same logical records (the base's,
// carried to head by field number), so a delta is the schema's; where it
// comes from new content, the reviewer reads what the bytes are for.
import type { FieldNote, Format, Message, Records } from '../report.js'
import { code, EMPTY, join, md, type Md } from './markdown.js'
import { bytes, signedBytes } from './numbers.js'

/** recordsNotes are a changed message's lines on its records: what head
 * adds (with the bytes it costs), new oneof members and what one would
 * cost, then quiet lines for renamed and removed fields and the records'
 * source. Empty for a message without paired records. */
export function recordsNotes(message: Message): Md[] {
  if (!message.records) return []
  const r = lists(message.records)
  return [
    newContent(message),
    oneofMembers(r.new_oneof_members),
    r.renamed.length > 0 ? md`<sub>Renamed, same number, no value changed: ${names(r.renamed, renamed)}.</sub>` : EMPTY,
    r.removed.length > 0 ? md`<sub>Removed on head: ${names(r.removed, f => code(f.field))}.</sub>` : EMPTY,
    md`<sub>Records: ${r.source}.</sub>`
  ]
}

/** newContent is "+12.0 B/msg from new field `notes` (protobuf; json
 * +25.0, avro +11.0)": head's bytes/msg that new and regenerated fields
 * account for (size.new_content), headed by protobuf's, and which fields
 * they are. */
function newContent(message: Message): Md {
  const r = lists(message.records!)
  // Each field's own protobuf bytes, when there are several to tell apart.
  const several = r.new_fields.length + r.regenerated.length > 1
  const own = (f: FieldNote): Md => (several && f.protobuf_bytes !== undefined ? signedBytes(f.protobuf_bytes) : EMPTY)
  const fields = [
    ...r.new_fields.map(f => md`new field ${code(f.field)}${parenthesized([own(f)])}`),
    ...r.regenerated.map(f => md`regenerated field ${code(f.field)}${parenthesized([f.was ? md`was ${code(f.was)}` : EMPTY, kinds(f), own(f)])}`)
  ]
  if (fields.length === 0) return EMPTY
  const what = join(fields, md`, `)
  const sized = message.formats.filter((f): f is Format & { size: { new_content: number } } => f.size?.new_content !== undefined)
  if (sized.length === 0) return md`📦 Head's records add ${what}.`
  const lead = sized.find(f => f.format === 'protobuf') ?? sized[0]!
  const others = sized.filter(f => f !== lead).map(f => md`${f.format} ${signedBytes(f.size.new_content)}`)
  return md`📦 ${signedBytes(lead.size.new_content)} B/msg from ${what} (${join([md`${lead.format}`, join(others, md`, `)], md`; `)}).`
}

/** parenthesized is " (a, b)" of the parts that are not empty, or nothing. */
function parenthesized(parts: Md[]): Md {
  const inside = join(parts, md`, `)
  return inside.empty ? EMPTY : md` (${inside})`
}

/** kinds is "string → int64": the base's kind, then head's. */
function kinds(f: FieldNote): Md {
  return f.from && f.to ? md`${f.from} → ${f.to}` : EMPTY
}

/** oneofMembers names the members head adds to an existing oneof: every
 * record keeps the member it held, so none holds them; what one would cost
 * in protobuf where a record does. */
function oneofMembers(members: FieldNote[]): Md {
  if (members.length === 0) return EMPTY
  const each = members.map(f => (f.protobuf_bytes !== undefined ? md`${code(f.field)} (one would cost ${bytes(f.protobuf_bytes)} B in protobuf)` : code(f.field)))
  const s = members.length === 1 ? md`` : md`s`
  return md`➕ New oneof member${s} ${join(each, md`, `)}: no record holds ${members.length === 1 ? md`it` : md`them`} (each keeps the member it had), so no figure above counts ${members.length === 1 ? md`its` : md`their`} content (a format that marks an empty member, as Avro's null branch does, still pays that mark).`
}

function renamed(f: FieldNote): Md {
  return f.from && f.to ? md`${code(f.from)} → ${code(f.to)}` : code(f.field)
}

function names(notes: FieldNote[], one: (f: FieldNote) => Md): Md {
  return join(notes.map(one), md`, `)
}

/** lists are a message's records with every list there (the gate leaves an
 * empty one out, and from_samples when false). */
function lists(r: Records): Required<Records> {
  return { from_samples: false, new_fields: [], regenerated: [], new_oneof_members: [], renamed: [], removed: [], ...r }
}
