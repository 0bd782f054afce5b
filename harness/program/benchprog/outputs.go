package benchprog

// Checked is one case that passed the correctness gate (check's output).
type Checked struct {
	Message string `json:"message"`
	Format  string `json:"format"`
	Records int    `json:"records"`
	Source  string `json:"source"` // where the records came from: generated, or the samples file
	// Aliasing: the format's decoder returns strings that alias the input
	// (the report marks such formats).
	Aliasing bool `json:"aliasing"`
}

// Size is one message in one format (sizes' output): exact bytes per
// message over the record pool, what check says of the case (sizes runs
// the same correctness gate first, so a gate needs no separate check), and
// the case's ColdReading.
type Size struct {
	Message   string  `json:"message"`
	Format    string  `json:"format"`
	BytesMean float64 `json:"bytes_mean"`
	BytesMin  int     `json:"bytes_min"`
	BytesMax  int     `json:"bytes_max"`
	Records   int     `json:"records"`
	// VsJSON is BytesMean as a fraction of the JSON mean; 0 when JSON is
	// not measured (then no row of the message has format "json"). Always
	// written: an empty message's protobuf is 0 bytes, a real 0.
	VsJSON float64 `json:"vs_json"`
	// Source and Aliasing: as in Checked.
	Source   string `json:"source"`
	Aliasing bool   `json:"aliasing"`
	// Cold is for planning a budget only: see ColdReading (JSON "price", kept).
	Cold ColdReading `json:"price"`
	// Compressed is bytes per record as a broker stores them, one entry
	// per codec asked for (SizesFlags.Batching), in the order asked.
	Compressed []Compressed `json:"compressed,omitempty"`
}

// Compressed is one codec's stored bytes per record over the pool: the
// records in pool order, filled into producer batches of BatchBytes,
// each batch's records compressed (package batch). Exact.
type Compressed struct {
	Codec          string  `json:"codec"`
	BytesPerRecord float64 `json:"bytes_per_record"`
	Batches        int     `json:"batches"`
	BatchBytes     int     `json:"batch_bytes"`
}

// ColdReading is what setting up and running one case cost the bench program
// that measured its sizes, read from the wall clock once, cold, while its
// correctness pass did work it does anyway (it encodes and decodes every
// record of the pool). A budget planner prices counting, timing and
// draining a case from it. It is not a measurement: one unrepeated reading
// on a machine doing whatever else it does, never compared between sides
// or runs and never reported as a figure; bench's ns/op is the figure.
type ColdReading struct {
	// SetupSeconds is generating the message's records and building and
	// checking all of its cases (every format selected), the same on each
	// of the message's rows: what any process that measures the message
	// pays before it measures.
	SetupSeconds float64 `json:"setup_seconds"`
	// EncodeNs and DecodeNs are wall nanoseconds per operation over one
	// rotation of the pool, its first record left out (it pays one-time
	// costs): encoding while the case was built, decoding into a fresh
	// value per record while it was checked.
	EncodeNs float64 `json:"encode_ns"`
	DecodeNs float64 `json:"decode_ns"`
}
