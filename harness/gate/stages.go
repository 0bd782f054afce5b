package gate

import (
	"context"

	"github.com/wiregate/wiregate/harness/avrocompat"
	"github.com/wiregate/wiregate/harness/config"
	"github.com/wiregate/wiregate/harness/verdict"
)

// loadConfig reads thresholds from the options, then wiregate.yaml from the
// BASE checkout: a pull request cannot loosen its own gate; a change to
// wiregate.yaml takes effect for the PRs after it merges.
func (g *run) loadConfig(ctx context.Context) error {
	cfg := config.Default()
	var err error
	if cfg.Thresholds.SizePct, err = config.ParsePercent("size-threshold", g.o.SizeThreshold); err != nil {
		return err
	}
	if cfg.Thresholds.TimePct, err = config.ParsePercent("time-threshold", g.o.TimeThreshold); err != nil {
		return err
	}
	if cfg.Thresholds.ThroughputPct, err = config.ParsePercent("throughput-threshold", g.o.ThroughputThreshold); err != nil {
		return err
	}
	if g.o.Alpha > 0 {
		cfg.Alpha = g.o.Alpha
	}
	cfg, err = config.Load(g.o.BaseDir, cfg)
	if err != nil {
		return err
	}
	g.cfg = cfg
	g.r.Env.Alpha = cfg.Alpha
	return nil
}

// avroCompat checks every .avsc of head against base (and, for transitive
// levels, against every earlier version in the base's history).
func (g *run) avroCompat(ctx context.Context) error {
	level, err := avrocompat.ParseLevel(g.o.AvroLevel)
	if err != nil {
		return err
	}
	history := func(rel string) ([][]byte, error) { return avrocompat.History(g.o.BaseDir, "HEAD", rel) }
	fs, err := avrocompat.CheckDirs(g.o.BaseDir, g.o.HeadDir, g.o.AvroGlobs, level, history)
	if err != nil {
		return err
	}
	g.r.Findings = append(g.r.Findings, fs...)
	return nil
}

// verdict applies thresholds, wiregate.yaml and the allow labels, turns
// stage errors into `error` violations and sets the result.
func (g *run) verdict(ctx context.Context) error {
	allow := verdict.Allow{}
	for _, a := range g.o.Allow {
		allow.Breaking = allow.Breaking || a == "breaking"
		allow.Regression = allow.Regression || a == "regression"
	}
	verdict.Apply(g.r, g.cfg, allow)
	return nil
}
