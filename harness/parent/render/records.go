package render

// What a changed message's records hold on head that the base's did not,
// in words: both sides measure the same logical records (the base's,
// carried to head by field number), so a delta is the schema's; where it
// comes from new content, the reviewer reads what the bytes are for.

import (
	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// recordsNotes are a changed message's lines on its records: what head
// adds (addedLines), regenerated fields, new oneof members no record holds
// and what one would cost, then quiet lines for renamed and removed fields
// and the records' source. None for a message without paired records.
// vs are the message's violations (ofMessage), whose verdict addedLines says.
func recordsNotes(m report.Message, vs []report.Violation) []md.Md {
	r := m.Records
	if r == nil {
		return nil
	}
	renamed, removed := md.Empty, md.Empty
	if len(r.Renamed) > 0 {
		renamed = md.F("<sub>Renamed, same number, no value changed: {}.</sub>", fieldList(r.Renamed, renamedWords))
	}
	if len(r.Removed) > 0 {
		removed = md.F("<sub>Removed on head: {}.</sub>", fieldList(r.Removed, func(f report.FieldNote) md.Md { return md.Code(f.Field) }))
	}
	members := md.Empty
	if !r.FromSamples { // in samples a member may be held: then it is added content (addedLines)
		members = oneofMembers(r.NewOneofMembers)
	}
	return append(addedLines(m, vs), regenerated(r), members, renamed, removed, md.F("<sub>Records: {}.</sub>", r.Source))
}

// regenerated is "🔁 Regenerated field `sent_at` (string → int64): fresh
// values replace the base's": changed content, judged with the same
// content.
func regenerated(r *report.Records) md.Md {
	if len(r.Regenerated) == 0 {
		return md.Empty
	}
	fields := make([]md.Md, len(r.Regenerated))
	for i, f := range r.Regenerated {
		was := md.Empty
		if f.Was != "" {
			was = md.F("was {}", md.Code(f.Was))
		}
		fields[i] = md.F("{}{}", md.Code(f.Field), parenthesized(was, kinds(f)))
	}
	what := md.F("Regenerated field")
	if len(fields) > 1 {
		what = md.F("Regenerated fields")
	}
	return md.F("🔁 {} {}: fresh values replace the base's, so the same content's figures include them (changed content, judged at the usual thresholds).", what, md.Join(fields, md.F(", ")))
}

// parenthesized is " (a, b)" of the parts that are not empty, or nothing.
func parenthesized(parts ...md.Md) md.Md {
	inside := md.Join(parts, md.F(", "))
	if inside.Empty() {
		return md.Empty
	}
	return md.F(" ({})", inside)
}

// kinds is "string → int64": the base's kind, then head's.
func kinds(f report.FieldNote) md.Md {
	if f.From != "" && f.To != "" {
		return md.F("{} → {}", f.From, f.To)
	}
	return md.Empty
}

// oneofMembers names the members head adds to an existing oneof: every
// record keeps the member it held, so none holds them; what one would cost
// in protobuf where a record does.
func oneofMembers(members []report.FieldNote) md.Md {
	if len(members) == 0 {
		return md.Empty
	}
	each := make([]md.Md, len(members))
	for i, f := range members {
		each[i] = md.Code(f.Field)
		if f.ProtobufBytes != nil {
			each[i] = md.F("{} (one would cost {} B in protobuf)", md.Code(f.Field), bytes(*f.ProtobufBytes))
		}
	}
	if len(members) == 1 {
		return md.F("➕ New oneof member {}: no record holds it (each keeps the member it had), so no figure above counts its content (a format that marks an empty member, as Avro's null branch does, still pays that mark).", md.Join(each, md.F(", ")))
	}
	return md.F("➕ New oneof members {}: no record holds them (each keeps the member it had), so no figure above counts their content (a format that marks an empty member, as Avro's null branch does, still pays that mark).", md.Join(each, md.F(", ")))
}

func renamedWords(f report.FieldNote) md.Md {
	if f.From != "" && f.To != "" {
		return md.F("{} → {}", md.Code(f.From), md.Code(f.To))
	}
	return md.Code(f.Field)
}

func fieldList(notes []report.FieldNote, one func(report.FieldNote) md.Md) md.Md {
	out := make([]md.Md, len(notes))
	for i, f := range notes {
		out[i] = one(f)
	}
	return md.Join(out, md.F(", "))
}
