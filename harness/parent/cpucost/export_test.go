package cpucost

// Test hooks: how a count starts Valgrind, and a dump's reading.
var ValgrindArgs = valgrindArgs

func DumpTotals(path string) (trigger string, ir uint64, err error) {
	d, err := readDump(path, false)
	return d.trigger, d.events["Ir"], err
}
