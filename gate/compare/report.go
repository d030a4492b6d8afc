package compare

import (
	"context"
	"fmt"

	"github.com/riskgate/riskgate/internal/reportfmt"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/stats"
	"github.com/riskgate/riskgate/risk"
)

// The report of riskgate compare. Its JSON form is a stable contract (later
// commands and external tools read it): fields are added, never renamed.
// Every measure is reward-positive (higher is better); a non-finite number
// (an infinite TRisk, an interval the bootstrap could not form) is null and
// a warning says why.

// Report is the result of comparing a champion with its challengers.
type Report struct {
	Champion   string   `json:"champion"`
	Measure    string   `json:"measure"`
	LossWeight float64  `json:"loss_weight"` // losses count this many times (w = 1 + α)
	Level      float64  `json:"level"`       // nominal confidence level before correction
	Topics     int      `json:"topics"`      // topics every system was scored on
	Correction string   `json:"correction"`  // bonferroni, holm, bh or none
	Pool       string   `json:"pool"`        // systems ZRisk, GeoRisk, ANOVA and Tukey run over: compared or all
	Seed       uint64   `json:"seed"`
	Samples    int      `json:"samples"` // B of the bootstrap, randomisation and bootstrap tests
	Systems    []System `json:"systems"`
	ANOVA      ANOVA    `json:"anova"`
	TukeyHSD   Tukey    `json:"tukey_hsd"`
	// BRisk is the Bayesian risk model over the whole pool (absent with --brisk=false).
	BRisk *BRisk `json:"brisk,omitempty"`
	// Alignment records the topics dropped or cells filled to make the
	// table complete (--topics); absent when nothing changed.
	Alignment *scores.Alignment `json:"alignment,omitempty"`
	Warnings  []string          `json:"warnings,omitempty"`
}

// System is one system of the report. Challenger-only fields are
// absent for the champion and artifacts; zrisk and georisk are present for
// every system in the pool.
type System struct {
	Name    string           `json:"name"`
	Role    string           `json:"role"` // champion, challenger or artifact
	Mean    jsonfloat.Float  `json:"mean"`
	ZRisk   *jsonfloat.Float `json:"zrisk,omitempty"`
	GeoRisk *jsonfloat.Float `json:"georisk,omitempty"`
	*Challenger
	BRisk    *BRiskSystem `json:"brisk,omitempty"`
	Warnings []string     `json:"warnings,omitempty"`
}

// Challenger holds what is measured of a challenger against the champion.
type Challenger struct {
	URisk      jsonfloat.Float `json:"urisk"`
	TRisk      jsonfloat.Float `json:"trisk"`
	TRiskP     jsonfloat.Float `json:"trisk_p"`     // two-sided, uncorrected (as Dinçer et al. and Benham et al.)
	TRiskPAdj  jsonfloat.Float `json:"trisk_p_adj"` // after the correction
	BCa        CI              `json:"bca"`         // at the corrected level
	Percentile CI              `json:"percentile"`  // at the corrected level
	Wins       int             `json:"wins"`
	Ties       int             `json:"ties"`
	Losses     int             `json:"losses"`
	Tests      Tests           `json:"tests"`
	Effects    Effects         `json:"effect_sizes"`
}

// CI is a confidence interval.
type CI struct {
	Lo    jsonfloat.Float `json:"lo"`
	Hi    jsonfloat.Float `json:"hi"`
	Level float64         `json:"level"`
}

// Tests are the classical tests of a challenger against the champion.
// p is the test's own two-sided p-value, p_adj the one after the correction
// over the challengers.
type Tests struct {
	PairedT struct {
		T     jsonfloat.Float `json:"t"`
		DF    jsonfloat.Float `json:"df"`
		P     jsonfloat.Float `json:"p"`
		PAdj  jsonfloat.Float `json:"p_adj"`
		Lo    jsonfloat.Float `json:"lo"`
		Hi    jsonfloat.Float `json:"hi"`
		Level float64         `json:"level"`
	} `json:"paired_t"`
	WelchT struct {
		T    jsonfloat.Float `json:"t"`
		DF   jsonfloat.Float `json:"df"`
		P    jsonfloat.Float `json:"p"`
		PAdj jsonfloat.Float `json:"p_adj"`
	} `json:"welch_t"`
	Wilcoxon struct {
		V     jsonfloat.Float `json:"v"`
		P     jsonfloat.Float `json:"p"`
		PAdj  jsonfloat.Float `json:"p_adj"`
		Exact bool            `json:"exact"`
	} `json:"wilcoxon"`
	Sign struct {
		Pos  int             `json:"pos"`
		Neg  int             `json:"neg"`
		P    jsonfloat.Float `json:"p"`
		PAdj jsonfloat.Float `json:"p_adj"`
	} `json:"sign"`
	Permutation struct {
		P    jsonfloat.Float `json:"p"`
		PAdj jsonfloat.Float `json:"p_adj"`
		B    int             `json:"b"`
	} `json:"permutation"`
	Bootstrap struct {
		T    jsonfloat.Float `json:"t"`
		P    jsonfloat.Float `json:"p"`
		PAdj jsonfloat.Float `json:"p_adj"`
		B    int             `json:"b"`
	} `json:"bootstrap"`
}

// Effects are effect sizes of a challenger against the champion.
type Effects struct {
	GlassDeltaChampion   jsonfloat.Float `json:"glass_delta_champion"`   // (x̄ − b̄)/s_champion
	GlassDeltaChallenger jsonfloat.Float `json:"glass_delta_challenger"` // (x̄ − b̄)/s_challenger
	CohenD               jsonfloat.Float `json:"cohen_d"`                // paired d_z = d̄/s_d
}

// ANOVA holds the ANOVA tables over the pool.
type ANOVA struct {
	Systems []string   `json:"systems"`
	TwoWay  ANOVATable `json:"two_way"` // score ~ system + topic
	OneWay  ANOVATable `json:"one_way"` // score ~ system
}

// ANOVATable is one ANOVA table.
type ANOVATable struct {
	Rows              []ANOVARow      `json:"rows"`
	EtaSquared        jsonfloat.Float `json:"eta_squared"`
	PartialEtaSquared jsonfloat.Float `json:"partial_eta_squared"`
	Warnings          []string        `json:"warnings,omitempty"`
}

// ANOVARow is one row of an ANOVA table; f and p are null on the residuals row.
type ANOVARow struct {
	Source string          `json:"source"`
	DF     jsonfloat.Float `json:"df"`
	SS     jsonfloat.Float `json:"ss"`
	MS     jsonfloat.Float `json:"ms"`
	F      jsonfloat.Float `json:"f"`
	P      jsonfloat.Float `json:"p"`
}

// Tukey is Tukey's HSD over the pool on the two-way model, with the
// randomised Tukey HSD p-value of each pair.
type Tukey struct {
	Model    string          `json:"model"`
	Level    float64         `json:"level"`
	Q        jsonfloat.Float `json:"q"`  // critical studentized range
	SE       jsonfloat.Float `json:"se"` // √(MSE/n)
	DF       jsonfloat.Float `json:"df"`
	B        int             `json:"b"` // replicates of the randomised test (0: not run)
	Pairs    []TukeyPair     `json:"pairs"`
	Warnings []string        `json:"warnings,omitempty"`
}

// TukeyPair compares systems A and B: diff = mean(B) − mean(A), as R's "B-A".
type TukeyPair struct {
	A           string           `json:"a"`
	B           string           `json:"b"`
	Diff        jsonfloat.Float  `json:"diff"`
	Lo          jsonfloat.Float  `json:"lo"`
	Hi          jsonfloat.Float  `json:"hi"`
	P           jsonfloat.Float  `json:"p"`
	PRandomized *jsonfloat.Float `json:"p_randomized,omitempty"`
}

// Settings are the resolved options of a comparison.
type Settings struct {
	LossWeight   float64
	Level        float64
	Correction   risk.Correction
	PoolAll      bool
	Seed         uint64
	Samples      int          // bootstrap, randomisation and bootstrap-test replicates
	TukeySamples int          // randomised Tukey HSD replicates; 0 skips it
	Brisk        bool         // fit BRisk
	Family       bayes.Family // BRisk's likelihood
	TargetESS    float64      // BRisk's bulk- and tail-ESS target
	// Context, when done, stops the BRisk fit; nil never stops.
	Context context.Context
}

// Build runs every analysis of a champion (index champ in t) against
// the challengers (indices, in report order). t must be complete.
func Build(t *scores.Table, champ int, challengers []int, cfg Settings) (*Report, error) {
	if len(t.Topics) < 2 {
		return nil, fmt.Errorf("need at least 2 topics scored for every system, have %d", len(t.Topics))
	}
	if n := t.Missing(); n > 0 {
		return nil, fmt.Errorf("compare needs a score for every system on every topic; %d cell(s) are missing (use --topics intersect or zero)", n)
	}
	rep := &Report{
		Champion:   t.Systems[champ],
		Measure:    t.Measure,
		LossWeight: cfg.LossWeight,
		Level:      cfg.Level,
		Topics:     len(t.Topics),
		Correction: string(cfg.Correction),
		Pool:       "compared",
		Seed:       cfg.Seed,
		Samples:    cfg.Samples,
	}
	if cfg.PoolAll {
		rep.Pool = "all"
	}

	// Report order: champion, challengers as given, artifacts in table order.
	order := append([]int{champ}, challengers...)
	role := map[int]string{champ: result.RoleChampion}
	for _, c := range challengers {
		role[c] = result.RoleChallenger
	}
	for s := range t.Systems {
		if _, ok := role[s]; !ok {
			role[s] = result.RoleArtifact
			order = append(order, s)
		}
	}
	pool := order[:1+len(challengers)]
	if cfg.PoolAll {
		pool = order
	}
	for _, s := range order {
		rep.Systems = append(rep.Systems, System{Name: t.Systems[s], Role: role[s], Mean: jsonfloat.Float(stats.Mean(t.Scores[s]))})
	}

	poolScores := make(risk.Systems, len(pool))
	poolNames := make([]string, len(pool))
	for i, s := range pool {
		poolScores[i] = t.Scores[s]
		poolNames[i] = t.Systems[s]
	}
	geo, err := poolScores.GeoRisk(cfg.LossWeight)
	if err != nil {
		return nil, err
	}
	for i := range pool {
		rep.Systems[i].ZRisk = jsonfloat.Ptr(geo.ZRisk.Values[i])
		rep.Systems[i].GeoRisk = jsonfloat.Ptr(geo.Values[i])
	}
	rep.Warnings = append(rep.Warnings, reportfmt.Prefixed("ZRisk/GeoRisk", geo.Warnings)...)

	m := len(challengers)
	ciLevel := cfg.Correction.Level(cfg.Level, m)
	boot := risk.BootstrapOptions{B: cfg.Samples, Level: ciLevel, Seed: cfg.Seed}
	// p-values to correct, by test, in challenger order.
	raw := map[string][]float64{}
	for i, c := range challengers {
		sys := &rep.Systems[1+i]
		r, warns, err := measureChallenger(risk.Pair{X: t.Scores[c], Base: t.Scores[champ]}, cfg.LossWeight, ciLevel, boot, cfg)
		if err != nil {
			return nil, fmt.Errorf("challenger %q: %w", t.Systems[c], err)
		}
		sys.Challenger = r
		sys.Warnings = warns
		for k, p := range map[string]float64{
			"trisk": float64(r.TRiskP), "paired_t": float64(r.Tests.PairedT.P), "welch_t": float64(r.Tests.WelchT.P),
			"wilcoxon": float64(r.Tests.Wilcoxon.P), "sign": float64(r.Tests.Sign.P),
			"permutation": float64(r.Tests.Permutation.P), "bootstrap": float64(r.Tests.Bootstrap.P),
		} {
			raw[k] = append(raw[k], p)
		}
	}
	adj := map[string][]float64{}
	for k, p := range raw {
		adj[k] = cfg.Correction.Adjust(p)
	}
	for i := range challengers {
		r := rep.Systems[1+i].Challenger
		r.TRiskPAdj = jsonfloat.Float(adj["trisk"][i])
		r.Tests.PairedT.PAdj = jsonfloat.Float(adj["paired_t"][i])
		r.Tests.WelchT.PAdj = jsonfloat.Float(adj["welch_t"][i])
		r.Tests.Wilcoxon.PAdj = jsonfloat.Float(adj["wilcoxon"][i])
		r.Tests.Sign.PAdj = jsonfloat.Float(adj["sign"][i])
		r.Tests.Permutation.PAdj = jsonfloat.Float(adj["permutation"][i])
		r.Tests.Bootstrap.PAdj = jsonfloat.Float(adj["bootstrap"][i])
	}

	if err := fillCompareANOVA(rep, poolScores, poolNames, cfg); err != nil {
		return nil, err
	}
	if cfg.Brisk {
		if err := fillCompareBRisk(rep, t, champ, challengers, order, cfg); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// measureChallenger measures one challenger against the champion.
func measureChallenger(p risk.Pair, w, ciLevel float64, boot risk.BootstrapOptions, cfg Settings) (*Challenger, []string, error) {
	var warns []string
	r := &Challenger{}
	u, err := p.URisk(w)
	if err != nil {
		return nil, nil, err
	}
	r.URisk = jsonfloat.Float(u.Value)
	tr, err := p.TRisk(w)
	if err != nil {
		return nil, nil, err
	}
	r.TRisk, r.TRiskP = jsonfloat.Float(tr.T), jsonfloat.Float(tr.P)
	warns = append(warns, reportfmt.Prefixed("TRisk", tr.Warnings)...)
	bc, err := p.BCa(w, boot)
	if err != nil {
		return nil, nil, err
	}
	r.BCa = CI{Lo: jsonfloat.Float(bc.BCa.Lo), Hi: jsonfloat.Float(bc.BCa.Hi), Level: bc.BCa.Level}
	r.Percentile = CI{Lo: jsonfloat.Float(bc.Percentile.Lo), Hi: jsonfloat.Float(bc.Percentile.Hi), Level: bc.Percentile.Level}
	warns = append(warns, reportfmt.Prefixed("bootstrap", bc.Warnings)...)
	o, err := p.Outcomes()
	if err != nil {
		return nil, nil, err
	}
	r.Wins, r.Ties, r.Losses = o.Wins, o.Ties, o.Losses

	pt, err := p.PairedT(ciLevel)
	if err != nil {
		return nil, nil, err
	}
	tp := &r.Tests.PairedT
	tp.T, tp.DF, tp.P, tp.Lo, tp.Hi, tp.Level = jsonfloat.Float(pt.T), jsonfloat.Float(pt.DF), jsonfloat.Float(pt.P), jsonfloat.Float(pt.CI.Lo), jsonfloat.Float(pt.CI.Hi), pt.CI.Level
	warns = append(warns, reportfmt.Prefixed("paired t", pt.Warnings)...)
	wt, err := p.WelchT(ciLevel)
	if err != nil {
		return nil, nil, err
	}
	r.Tests.WelchT.T, r.Tests.WelchT.DF, r.Tests.WelchT.P = jsonfloat.Float(wt.T), jsonfloat.Float(wt.DF), jsonfloat.Float(wt.P)
	warns = append(warns, reportfmt.Prefixed("Welch t", wt.Warnings)...)
	wx, err := p.Wilcoxon(risk.WilcoxonAuto)
	if err != nil {
		return nil, nil, err
	}
	r.Tests.Wilcoxon.V, r.Tests.Wilcoxon.P, r.Tests.Wilcoxon.Exact = jsonfloat.Float(wx.V), jsonfloat.Float(wx.P), wx.Exact
	warns = append(warns, reportfmt.Prefixed("Wilcoxon", wx.Warnings)...)
	sg, err := p.Sign()
	if err != nil {
		return nil, nil, err
	}
	r.Tests.Sign.Pos, r.Tests.Sign.Neg, r.Tests.Sign.P = sg.Pos, sg.Neg, jsonfloat.Float(sg.P)
	warns = append(warns, reportfmt.Prefixed("sign test", sg.Warnings)...)
	rz, err := p.Randomization(cfg.Samples, cfg.Seed)
	if err != nil {
		return nil, nil, err
	}
	r.Tests.Permutation.P, r.Tests.Permutation.B = jsonfloat.Float(rz.P), rz.B
	warns = append(warns, reportfmt.Prefixed("randomisation test", rz.Warnings)...)
	sb, err := p.StudentizedBootstrap(cfg.Samples, cfg.Seed)
	if err != nil {
		return nil, nil, err
	}
	r.Tests.Bootstrap.T, r.Tests.Bootstrap.P, r.Tests.Bootstrap.B = jsonfloat.Float(sb.T), jsonfloat.Float(sb.P), sb.B
	warns = append(warns, reportfmt.Prefixed("bootstrap test", sb.Warnings)...)

	g, err := p.GlassDelta()
	if err != nil {
		return nil, nil, err
	}
	cd, err := p.CohenD()
	if err != nil {
		return nil, nil, err
	}
	r.Effects = Effects{GlassDeltaChampion: jsonfloat.Float(g.ByBase), GlassDeltaChallenger: jsonfloat.Float(g.ByX), CohenD: jsonfloat.Float(cd.D)}
	warns = append(warns, reportfmt.Prefixed("Glass's Δ", g.Warnings)...)
	warns = append(warns, reportfmt.Prefixed("Cohen's d", cd.Warnings)...)
	return r, warns, nil
}

// compareANOVA fills the ANOVA and Tukey HSD sections over the pool.
func fillCompareANOVA(rep *Report, s risk.Systems, names []string, cfg Settings) error {
	rep.ANOVA.Systems = names
	two, err := s.TwoWayANOVA()
	if err != nil {
		return err
	}
	one, err := s.OneWayANOVA()
	if err != nil {
		return err
	}
	rep.ANOVA.TwoWay, rep.ANOVA.OneWay = toCompareANOVATable(two), toCompareANOVATable(one)
	h, err := s.TukeyHSD(true, cfg.Level)
	if err != nil {
		return err
	}
	rep.TukeyHSD = Tukey{Model: h.Model, Level: h.Level, Q: jsonfloat.Float(h.Q), SE: jsonfloat.Float(h.SE), DF: jsonfloat.Float(h.DF), Warnings: h.Warnings}
	var rt risk.RandomizedTukeyHSD
	if cfg.TukeySamples > 0 {
		rt, err = s.RandomizedTukeyHSD(cfg.TukeySamples, cfg.Seed)
		if err != nil {
			return err
		}
		rep.TukeyHSD.B = rt.B
	}
	for i, p := range h.Pairs {
		line := TukeyPair{A: names[p.A], B: names[p.B], Diff: jsonfloat.Float(p.Diff), Lo: jsonfloat.Float(p.Lo), Hi: jsonfloat.Float(p.Hi), P: jsonfloat.Float(p.P)}
		if cfg.TukeySamples > 0 {
			line.PRandomized = jsonfloat.Ptr(rt.Pairs[i].P)
		}
		rep.TukeyHSD.Pairs = append(rep.TukeyHSD.Pairs, line)
	}
	return nil
}

func toCompareANOVATable(a risk.ANOVA) ANOVATable {
	t := ANOVATable{EtaSquared: jsonfloat.Float(a.EtaSquared), PartialEtaSquared: jsonfloat.Float(a.PartialEtaSquared), Warnings: a.Warnings}
	for _, r := range a.Rows {
		t.Rows = append(t.Rows, ANOVARow{Source: r.Source, DF: jsonfloat.Float(r.DF), SS: jsonfloat.Float(r.SS), MS: jsonfloat.Float(r.MS), F: jsonfloat.Float(r.F), P: jsonfloat.Float(r.P)})
	}
	return t
}
