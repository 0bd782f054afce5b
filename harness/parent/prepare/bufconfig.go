package prepare

import (
	"os"
	"path/filepath"
)

// BufConfig is where buf builds a buf input and the buf.yaml it builds
// with: a gate passes the config it resolved (bufcheck.Resolve), given to
// buf with --config, so buf never searches for one above the input.
type BufConfig struct {
	Dir    string // where buf runs: the config's directory, buf.lock beside it
	Input  string // the buf input, relative to Dir
	Config string // the buf.yaml's text
}

// bufConfig is opts.BufConfig; without one (a command run on one's own
// tree, nothing judged) buf builds BufInput as running buf there would.
func (opts Options) bufConfig() BufConfig {
	if opts.BufConfig != nil {
		return *opts.BufConfig
	}
	return BufConfig{Dir: opts.BufInput, Input: "."}
}

// args are buf's arguments to run cmd on the input with the config.
func (c BufConfig) args(cmd string, more ...string) []string {
	args := append([]string{cmd, c.Input}, more...)
	if c.Config != "" {
		args = append(args, "--config="+c.Config)
	}
	return args
}

// text is the buf.yaml buf builds with: the config given, else the one in
// Dir ("" without one).
func (c BufConfig) text() string {
	if c.Config != "" {
		return c.Config
	}
	data, err := os.ReadFile(filepath.Join(c.Dir, "buf.yaml"))
	if err != nil {
		return ""
	}
	return string(data)
}
