package fit

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/riskgate/riskgate/internal/reportfmt"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/bayes/posterior"
	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/internal/parallel"
)

// Comparison is a challenger's system effect against the champion's: the
// gate's summary of δ = S_challenger − S_champion (result.Comparison), with
// the champion and the flat fields this command's JSON had before it shared
// the gate's types (kept, as a JSON contract only gains fields): δ's mean
// and 95% central interval.
type Comparison struct {
	result.Comparison
	Champion  string          `json:"champion"`
	DiffMean  jsonfloat.Float `json:"diff_mean"`
	DiffQ2_5  jsonfloat.Float `json:"diff_q2_5"`
	DiffQ97_5 jsonfloat.Float `json:"diff_q97_5"`
}

// ParamDiag is one quantity's convergence.
type ParamDiag struct {
	Name    string          `json:"name"`
	Rhat    jsonfloat.Float `json:"rhat"`
	ESSBulk jsonfloat.Float `json:"ess_bulk"`
	ESSTail jsonfloat.Float `json:"ess_tail"`
}

// Diagnostics are the sampler's settings and worst convergence figures as
// the gate reports them (result.Diagnostics), each quantity's convergence,
// and the names this command's JSON had before it shared the gate's types
// (kept, as a JSON contract only gains fields). Here max_rhat is the worst
// R-hat, as it always was (result's worst_rhat), and shadows the gate's
// max_rhat, the limit (fitMaxRhat); target_ess keeps its number format.
type Diagnostics struct {
	result.Diagnostics
	Parameters       []ParamDiag     `json:"parameters"`
	MaxTreedepthHits int             `json:"max_treedepth_hits"` // max_depth_hits
	MaxTreedepth     int             `json:"max_treedepth"`      // max_depth
	MaxRhat          jsonfloat.Float `json:"max_rhat"`           // worst_rhat
	MinESSBulk       jsonfloat.Float `json:"min_ess_bulk"`       // worst_ess_bulk
	MinESSTail       jsonfloat.Float `json:"min_ess_tail"`       // worst_ess_tail
	TargetESS        jsonfloat.Float `json:"target_ess"`
	ExtendedDraws    int             `json:"extended_draws"` // extended
}

// fitMaxRhat is the R-hat limit of riskgate fit's convergence check
// (bayes' default).
const fitMaxRhat = 1.01

// Report is what riskgate fit reports; its JSON form is the command's contract.
type Report struct {
	Converged bool              `json:"converged"`
	Warnings  []string          `json:"warnings"`
	Measure   string            `json:"measure,omitempty"`
	Method    string            `json:"method"`
	Priors    map[string]string `json:"priors"`
	NSystems  int               `json:"n_systems"`
	NTopics   int               `json:"n_topics"`
	Missing   int               `json:"missing_cells"`
	// The variance components, every figure of their summaries.
	Intercept   result.Effect   `json:"intercept"`
	Sigma       result.Effect   `json:"sigma"`
	SDTopic     result.Effect   `json:"sd_topic"`
	SDSystem    result.Effect   `json:"sd_system"`
	Systems     []result.Effect `json:"systems"`
	Topics      []result.Effect `json:"topics"`
	Comparisons []Comparison    `json:"comparisons"`
	Diagnostics Diagnostics     `json:"diagnostics"`
	Draws       int             `json:"draws"`
	Chains      int             `json:"chains"`
	Warmup      int             `json:"warmup"`
	Thin        int             `json:"thin"`
	Seed        uint64          `json:"seed"`
	ElapsedMS   int64           `json:"elapsed_ms"`
	// The model: the likelihood and the loss weight of the pool it was
	// fitted to (1: the scores themselves; otherwise Benham et al.'s
	// risk-adjusted pool, champion + d with losses counted w times).
	Family     string         `json:"family"`
	LossWeight float64        `json:"loss_weight"`
	Alpha      *result.Effect `json:"alpha,omitempty"` // the skew normal's shape
	// BRisk: the challengers against the champion in that pool, with the
	// topics at risk, P(S_i > S_j) and P(best).
	BRisk            *BRisk            `json:"brisk,omitempty"`
	Forecasts        []Forecast        `json:"forecasts,omitempty"` // --forecast
	PoolSweep        []SweepStep       `json:"pool_sweep,omitempty"`
	PriorSensitivity *PriorSensitivity `json:"prior_sensitivity,omitempty"`

	fit   *bayes.HierFit
	conv  []posterior.Convergence // fit.AllConvergence()
	order []int                   // systems in table-view order
}

// NewReport is the report of fit, the systems' roles (result.Role*) in role.
func NewReport(fit *bayes.HierFit, measure string, role []string, elapsed time.Duration, align scores.Alignment) *Report {
	so := fit.Sampler.Options
	marginals, conv := fit.Marginals(), fit.AllConvergence()
	// Every quantity as the gate summarises it (result.NewEffect); the
	// variance components with every figure of their summaries
	// (posterior.Summarize: HierFit.Describe's, for these few).
	effect := func(v int, name, role string) result.Effect {
		return result.NewEffect(name, role, marginals[v], conv[v])
	}
	component := func(v int) result.Effect {
		e := effect(v, fit.Names[v], "")
		e.EffectDetail = result.NewEffectDetail(posterior.Summarize(fit.Sampler.Draws[v]))
		return e
	}
	r := &Report{
		Converged: fit.Converged, Warnings: append([]string{}, fit.Warnings...), Measure: measure,
		Method: string(fit.Method), NSystems: len(fit.Systems), NTopics: len(fit.Topics), Missing: fit.Missing,
		Priors:    fit.Priors.Describe(fit.Family),
		Intercept: component(bayes.IdxIntercept), Sigma: component(bayes.IdxSigma),
		SDTopic: component(bayes.IdxSDTopic), SDSystem: component(bayes.IdxSDSystem),
		Draws: fit.Draws, Chains: fit.Chains, Warmup: max(so.Warmup, 0), Thin: so.Thin, Seed: so.Seed,
		ElapsedMS: elapsed.Milliseconds(), fit: fit, conv: conv,
	}
	if msg := align.Summary(); msg != "" {
		r.Warnings = append(r.Warnings, "input: "+msg)
	}
	r.Family, r.LossWeight = fit.Family.Name(), 1
	if len(fit.Family.Params()) > 0 {
		a := component(fit.FamilyIndex(0))
		r.Alpha = &a
	}
	r.Systems = make([]result.Effect, len(fit.Systems))
	r.Topics = make([]result.Effect, len(fit.Topics))
	parallel.Each(len(fit.Systems)+len(fit.Topics), func(i int) {
		if i < len(fit.Systems) {
			r.Systems[i] = effect(fit.SystemIndex(i), fit.Systems[i], role[i])
			return
		}
		t := i - len(fit.Systems)
		r.Topics[t] = effect(fit.TopicIndex(t), fit.Topics[t], "")
	})
	r.order = systemOrder(fit, role)
	champ := slices.Index(role, result.RoleChampion)
	for s, ro := range role {
		if ro != result.RoleChallenger {
			continue
		}
		// The gate's summary of the same posterior (result.NewComparison).
		chains := fit.SystemDiffChains(s, champ)
		c := Comparison{Comparison: result.NewComparison(fit.Systems[s], chains, bayes.PoolChains(chains), nil, nil), Champion: fit.Systems[champ]}
		in := c.Intervals[0] // the 95% central interval
		c.DiffMean, c.DiffQ2_5, c.DiffQ97_5 = in.Estimate, in.Lo, in.Hi
		r.Comparisons = append(r.Comparisons, c)
	}
	d := &r.Diagnostics
	d.Diagnostics = *result.NewDiagnostics(fit, fitMaxRhat)
	for v, name := range fit.Names {
		c := conv[v]
		d.Parameters = append(d.Parameters, ParamDiag{name, jsonfloat.Float(c.Rhat), jsonfloat.Float(c.ESSBulk), jsonfloat.Float(c.ESSTail)})
	}
	d.MaxTreedepthHits, d.MaxTreedepth, d.ExtendedDraws = d.MaxDepthHits, d.MaxDepth, d.Extended
	d.MaxRhat, d.MinESSBulk, d.MinESSTail = d.WorstRhat, d.WorstESSBulk, d.WorstESSTail
	d.TargetESS = jsonfloat.Float(d.Diagnostics.TargetESS)
	return r
}

func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// writeCSV writes one row per quantity; the converged column carries the
// verdict on every row so that no consumer can miss it.
func (r *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"parameter", "kind", "name", "role", "mean", "sd", "q2_5", "q50", "q97_5", "hdi_lo", "hdi_hi",
		"rhat", "ess_bulk", "ess_tail", "converged"})
	f := r.fit
	num := func(x float64) string {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return "NA"
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	row := func(v int, kind, name, role string) {
		s, c := f.Marginals()[v], r.conv[v]
		cw.Write([]string{f.Names[v], kind, name, role, num(s.Mean), num(s.SD), num(s.Q2_5), num(s.Q50), num(s.Q97_5),
			num(s.HDILo), num(s.HDIHi), num(c.Rhat), num(c.ESSBulk), num(c.ESSTail), strconv.FormatBool(r.Converged)})
	}
	row(bayes.IdxIntercept, "intercept", "", "")
	row(bayes.IdxSigma, "sigma", "", "")
	row(bayes.IdxSDTopic, "sd_topic", "", "")
	row(bayes.IdxSDSystem, "sd_system", "", "")
	if r.Alpha != nil {
		row(f.FamilyIndex(0), "alpha", "", "")
	}
	for s, e := range r.Systems {
		row(f.SystemIndex(s), "system", e.Name, e.Role)
	}
	for t, e := range r.Topics {
		row(f.TopicIndex(t), "topic", e.Name, "")
	}
	cw.Flush()
	return cw.Error()
}

// table writes a header and rows with reportfmt.Table, numeric columns
// right-aligned and the others (names, roles) left-aligned, and ends a text
// table with a blank line as markdown ends its own.
func table(w io.Writer, md bool, header []string, rows [][]string) {
	align := make([]byte, len(header))
	for j := range align {
		align[j] = 'r'
		for _, row := range rows {
			if j < len(row) && !reportfmt.IsNumeric(row[j]) {
				align[j] = 'l'
				break
			}
		}
	}
	reportfmt.Table(w, md, string(align), append([][]string{header}, rows...))
	if !md {
		fmt.Fprintln(w)
	}
}

func (r *Report) WriteText(w io.Writer, md bool) error {
	bw := bufio.NewWriter(w)
	f := r.fit
	heading := func(s string) {
		if md {
			fmt.Fprintf(bw, "## %s\n\n", s)
		} else {
			fmt.Fprintf(bw, "%s\n", s)
		}
	}
	status := "converged"
	if !r.Converged {
		status = "NOT CONVERGED: do not treat this fit as evidence"
	}
	if md {
		fmt.Fprintf(bw, "# riskgate fit: %s\n\n", status)
	} else {
		fmt.Fprintf(bw, "riskgate fit: %s\n", status)
	}
	measure := r.Measure
	if measure == "" {
		measure = "score"
	}
	fmt.Fprintf(bw, "%s over %d systems × %d topics (%d missing cells); %s path; %d chains × %d draws (thin %d, warmup %d); seed %d; %d ms\n",
		measure, r.NSystems, r.NTopics, r.Missing, r.Method, r.Chains, r.Draws, r.Thin, r.Warmup, r.Seed, r.ElapsedMS)
	fmt.Fprintf(bw, "priors: intercept ~ %s; sigma ~ %s; sd_topic = %s; sd_system = %s",
		r.Priors["intercept"], r.Priors["sigma"], r.Priors["sd_topic"], r.Priors["sd_system"])
	if a, ok := r.Priors["alpha"]; ok {
		fmt.Fprintf(bw, "; alpha ~ %s", a)
	}
	fmt.Fprintln(bw)
	if r.Family != "gaussian" || r.LossWeight != 1 {
		fmt.Fprintf(bw, "model: %s likelihood", r.Family)
		if r.LossWeight != 1 {
			fmt.Fprintf(bw, "; BRisk pool: the champion's scores kept, every other system's replaced by champion + d with losses × %s", numfmt.G(r.LossWeight))
		}
		fmt.Fprintln(bw)
	}
	fmt.Fprintln(bw)
	if len(r.Warnings) > 0 {
		heading("Warnings")
		for _, w := range r.Warnings {
			fmt.Fprintf(bw, "- %s\n", w)
		}
		fmt.Fprintln(bw)
	}
	sumHeader := []string{"mean", "sd", "2.5%", "50%", "97.5%", "hdi_lo", "hdi_hi", "rhat", "ess_bulk", "ess_tail"}
	sumCells := func(v int) []string {
		s, c := f.Marginals()[v], r.conv[v]
		return []string{numfmt.R.Fixed(s.Mean, 4), numfmt.R.Fixed(s.SD, 4), numfmt.R.Fixed(s.Q2_5, 4), numfmt.R.Fixed(s.Q50, 4), numfmt.R.Fixed(s.Q97_5, 4),
			numfmt.R.Fixed(s.HDILo, 4), numfmt.R.Fixed(s.HDIHi, 4), numfmt.R.Fixed(c.Rhat, 3), numfmt.R.Fixed(c.ESSBulk, 0), numfmt.R.Fixed(c.ESSTail, 0)}
	}
	heading("Variance components")
	var rows [][]string
	comps := []int{bayes.IdxIntercept, bayes.IdxSigma, bayes.IdxSDTopic, bayes.IdxSDSystem}
	if r.Alpha != nil {
		comps = append(comps, f.FamilyIndex(0))
	}
	for _, v := range comps {
		rows = append(rows, append([]string{f.Names[v]}, sumCells(v)...))
	}
	table(bw, md, append([]string{"parameter"}, sumHeader...), rows)

	heading("System effects (95% credible intervals)")
	rows = rows[:0]
	for _, s := range r.order {
		rows = append(rows, append([]string{f.Systems[s], r.Systems[s].Role}, sumCells(f.SystemIndex(s))...))
	}
	table(bw, md, append([]string{"system", "role"}, sumHeader...), rows)

	if len(r.Comparisons) > 0 {
		heading("Challengers against the champion (system effects)")
		rows = rows[:0]
		for _, c := range r.Comparisons {
			rows = append(rows, []string{c.Challenger, numfmt.R.Fixed(float64(c.PBetter), 3), numfmt.R.Fixed(float64(c.DiffMean), 4),
				numfmt.R.Fixed(float64(c.DiffQ2_5), 4), numfmt.R.Fixed(float64(c.DiffQ97_5), 4)})
		}
		table(bw, md, []string{"challenger", "P(better)", "diff", "2.5%", "97.5%"}, rows)
	}
	r.writeBRiskText(bw, md, heading)

	heading("Topic effects (95% credible intervals)")
	rows = rows[:0]
	for t := range f.Topics {
		rows = append(rows, append([]string{f.Topics[t]}, sumCells(f.TopicIndex(t))...))
	}
	table(bw, md, append([]string{"topic"}, sumHeader...), rows)

	heading("Diagnostics")
	d := r.Diagnostics
	ebfmi := make([]string, len(d.EBFMI))
	for i, e := range d.EBFMI {
		ebfmi[i] = numfmt.R.Fixed(float64(e), 2)
	}
	fmt.Fprintf(bw, "max R-hat %s; min bulk-ESS %s; min tail-ESS %s (target %s; %d extra draws per chain); divergences %d; max tree depth (%d) hits %d; E-BFMI %s\n",
		numfmt.R.Fixed(float64(d.MaxRhat), 4), numfmt.R.Fixed(float64(d.MinESSBulk), 0), numfmt.R.Fixed(float64(d.MinESSTail), 0), numfmt.R.Fixed(float64(d.TargetESS), 0),
		d.ExtendedDraws, d.Divergences, d.MaxTreedepth, d.MaxTreedepthHits, strings.Join(ebfmi, " "))
	return bw.Flush()
}

// WriteDraws writes the draws as CSV: chain, iteration (1-based), then one
// column per quantity, full precision.
func WriteDraws(w io.Writer, f *bayes.HierFit) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(append([]string{"chain", "iteration"}, f.Names...)); err != nil {
		return err
	}
	cw.Flush()
	bw := bufio.NewWriterSize(w, 1<<20)
	var line []byte
	for m := range f.Chains {
		for i := range f.Draws {
			line = strconv.AppendInt(line[:0], int64(m+1), 10)
			line = append(line, ',')
			line = strconv.AppendInt(line, int64(i+1), 10)
			for v := range f.Names {
				line = append(line, ',')
				line = strconv.AppendFloat(line, f.Sampler.Draws[v][m][i], 'g', -1, 64)
			}
			line = append(line, '\n')
			if _, err := bw.Write(line); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

// systemOrder lists system indexes for the table view: champion, the
// challengers in table order, then the artifacts by decreasing mean effect.
func systemOrder(fit *bayes.HierFit, role []string) []int {
	var champ, chal, art []int
	for i, r := range role {
		switch r {
		case result.RoleChampion:
			champ = append(champ, i)
		case result.RoleChallenger:
			chal = append(chal, i)
		default:
			art = append(art, i)
		}
	}
	slices.SortStableFunc(art, func(a, b int) int {
		ma, mb := fit.Marginals()[fit.SystemIndex(a)].Mean, fit.Marginals()[fit.SystemIndex(b)].Mean
		switch {
		case ma > mb:
			return -1
		case ma < mb:
			return 1
		}
		return 0
	})
	return slices.Concat(champ, chal, art)
}
