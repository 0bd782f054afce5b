package report

// Measure modes (input measure).
const (
	MeasureChanged = "changed" // only changed and new messages are measured (the default)
	MeasureAll     = "all"     // every message, changed or not
)

// Message statuses: how a message's schema differs between base and head.
const (
	StatusChanged   = "changed"   // on both sides, its schema differs
	StatusNew       = "new"       // only head declares it (a renamed or moved message is new): nothing to compare
	StatusUnchanged = "unchanged" // identical schema on both sides: its figures cannot differ
	StatusRemoved   = "removed"   // only the base declares it
)

// Change is the change set: each of head's messages (and the base's that
// head no longer declares) by status, every list sorted. A message's
// schema is its descriptor closure, its Avro schema and its samples file
// (the fingerprint); two equal fingerprints run the same code on the same
// records, so an unchanged message is not re-measured unless measure is
// all.
type Change struct {
	Measure   string   `json:"measure"` // MeasureChanged | MeasureAll
	Changed   []string `json:"changed"`
	New       []string `json:"new"`
	Removed   []string `json:"removed"`
	Unchanged []string `json:"unchanged"`
	// NoSchemaChanged is true when no message changed, was added or was
	// removed: the gate ran the schema checks and measured nothing.
	NoSchemaChanged bool `json:"no_schema_changed,omitempty"`
	// Groups are the changed messages by cause: what in each one's closure
	// changed (itself, or the messages and enums it holds), largest group
	// first. One field added to a message hundreds embed is one group.
	Groups []Group `json:"groups,omitempty"`
}

// Group is changed messages that changed for the same cause.
type Group struct {
	// Cause names what changed, sorted: messages and enums by full name, a
	// file by its path and " (file options)"; a message whose closure is
	// the same on both sides but whose Avro schema or samples changed is
	// its own cause.
	Cause    []string `json:"cause"`
	Messages []string `json:"messages"`
}

// Skipped is a message wiregate cannot measure (a MessageSet, a weak
// field, a message holding one), where it is declared, and why.
type Skipped struct {
	Message string `json:"message"`
	File    string `json:"file"`
	Reason  string `json:"reason"`
	// Side is "head" when head cannot measure it, "base" when only the base
	// could not (head's figures for it then have nothing to compare with).
	Side string `json:"side"`
}
