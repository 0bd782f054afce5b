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
// message over the record pool.
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
}
