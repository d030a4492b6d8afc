package compare

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/internal/reportfmt"
)

// Write renders rep in one of reportfmt.Formats. riskView prints the
// table and md views with Benham et al.'s risk-oriented "⁻" signs.
func Write(w io.Writer, rep *Report, format string, riskView bool) error {
	return reportfmt.Write(w, format, rep, func(w io.Writer) error { return writeCompareCSV(w, rep) },
		func(w io.Writer, md bool) error {
			v := compareView{w: w, md: md, risk: riskView, rep: rep}
			v.write()
			return v.err
		})
}

// compareView writes the table and md views: a heading, the systems laid
// out like Benham et al.'s Table 3, the tests, effect sizes, ANOVA and Tukey.
type compareView struct {
	w    io.Writer
	md   bool
	risk bool
	rep  *Report
	err  error
}

func (v *compareView) printf(format string, args ...any) {
	if v.err == nil {
		_, v.err = fmt.Fprintf(v.w, format, args...)
	}
}

func (v *compareView) heading(s string) {
	if v.md {
		v.printf("## %s\n\n", s) // the paragraph or table before ends with a blank line
	} else {
		v.printf("\n%s\n", s)
	}
}

func (v *compareView) para(s string) {
	if v.md {
		v.printf("%s\n\n", s)
	} else {
		v.printf("%s\n", s)
	}
}

// table writes rows (the first is the header) with the first column
// left-aligned and the others right-aligned.
func (v *compareView) table(rows [][]string) {
	if v.err == nil {
		v.err = reportfmt.Table(v.w, v.md, "l"+strings.Repeat("r", len(rows[0])-1), rows)
	}
}

func (v *compareView) write() {
	rep := v.rep
	var chals []System
	var champ System
	artifacts := 0
	for _, s := range rep.Systems {
		switch s.Role {
		case result.RoleChampion:
			champ = s
		case result.RoleChallenger:
			chals = append(chals, s)
		default:
			artifacts++
		}
	}
	title := fmt.Sprintf("riskgate compare: %d challenger(s) against champion %s", len(chals), reportfmt.EscapeIf(v.md, strconv.Quote(rep.Champion)))
	if v.md {
		v.printf("# %s\n\n", title)
	} else {
		v.printf("%s\n", title)
	}
	ciLevel := rep.Level
	if len(chals) > 0 {
		ciLevel = chals[0].BCa.Level
	}
	// A CSV without a measure column names none: say so rather than "Measure –".
	measure := "Scores (no measure named in the inputs)"
	if rep.Measure != "" {
		measure = "Measure " + reportfmt.EscapeIf(v.md, rep.Measure)
	}
	v.para(fmt.Sprintf("%s over %d topics; losses count %s times (w = %s, α = %s).",
		measure, rep.Topics, numfmt.G(rep.LossWeight), numfmt.G(rep.LossWeight), numfmt.G(rep.LossWeight-1)))
	corr := "unadjusted"
	if rep.Correction != "none" {
		corr = fmt.Sprintf("adjusted by %s over %d challenger(s)", correctionName(rep.Correction), len(chals))
	}
	if ciLevel != rep.Level {
		v.para(fmt.Sprintf("Intervals at %s (%s with Bonferroni over %d challenger(s)); p-values %s. B = %d, seed %d.",
			numfmt.Percent(ciLevel), numfmt.Percent(rep.Level), len(chals), corr, rep.Samples, rep.Seed))
	} else {
		v.para(fmt.Sprintf("Intervals at %s; p-values %s. B = %d, seed %d.", numfmt.Percent(ciLevel), corr, rep.Samples, rep.Seed))
	}
	poolNote := "ZRisk, GeoRisk, ANOVA and Tukey HSD over the champion and challengers"
	if rep.Pool == "all" {
		poolNote = fmt.Sprintf("ZRisk, GeoRisk, ANOVA and Tukey HSD over all %d systems", len(rep.Systems))
	}
	if artifacts > 0 {
		poolNote += fmt.Sprintf("; %d artifact system(s) in the inputs", artifacts)
	}
	v.para(poolNote + ".")

	// The systems, as Table 3.
	minus := ""
	sign := 1.0
	if v.risk {
		minus, sign = "⁻", -1
	}
	if v.risk {
		v.heading("Risk measures (risk view: higher is riskier)")
	} else {
		v.heading("Risk measures (higher is better)")
	}
	cols := []string{"System", "Mean", "URisk" + minus, "TRisk" + minus, "BCa" + minus + " " + numfmt.Percent(ciLevel), "ZRisk" + minus, "GeoRisk" + minus}
	if rep.BRisk != nil {
		cols = slices.Insert(cols, 5, "BRisk"+minus+" "+numfmt.Percent(rep.BRisk.Level))
	}
	rows := [][]string{cols}
	systemRow := func(s System) []string {
		r := []string{s.Name, numfmt.R.Fixed(float64(s.Mean), 3), "–", "–", "–", "–", "–"}
		if s.Challenger != nil {
			c := s.Challenger
			r[2] = numfmt.R.Fixed(sign*float64(c.URisk), 3)
			r[3] = numfmt.R.Fixed(sign*float64(c.TRisk), 3)
			lo, hi := float64(c.BCa.Lo), float64(c.BCa.Hi)
			if v.risk {
				lo, hi = -hi, -lo
			}
			r[4] = fmt.Sprintf("%s [%s, %s]", numfmt.R.Fixed(sign*float64(c.URisk), 3), numfmt.R.Fixed(lo, 3), numfmt.R.Fixed(hi, 3))
		}
		if s.ZRisk != nil {
			r[5] = numfmt.R.Fixed(sign*float64(*s.ZRisk), 2)
			r[6] = numfmt.R.Fixed(sign*float64(*s.GeoRisk), 3)
		}
		if rep.BRisk != nil {
			r = slices.Insert(r, 5, v.briskCell(s))
		}
		return r
	}
	rows = append(rows, systemRow(champ))
	for _, s := range chals {
		rows = append(rows, systemRow(s))
	}
	v.table(rows)
	if v.risk {
		v.para("GeoRisk⁻ is −GeoRisk (Dinçer et al. 2016); Benham et al.'s Table 3 printed −√(mean·Φ(ZRisk⁻/c)) instead.")
	}
	v.brisk(champ, chals)

	if len(chals) > 0 {
		v.heading("Tests against the champion (p-values " + corr + ")")
		rows = [][]string{{"System", "W/T/L", "paired t", "p", "Welch t", "p", "Wilcoxon V", "p", "sign +/−", "p", "randomisation p", "bootstrap p"}}
		for _, s := range chals {
			c := s.Challenger
			t := c.Tests
			wil := numfmt.G(float64(t.Wilcoxon.V))
			if t.Wilcoxon.Exact {
				wil += " (exact)"
			}
			rows = append(rows, []string{
				s.Name, fmt.Sprintf("%d/%d/%d", c.Wins, c.Ties, c.Losses),
				numfmt.R.Fixed(float64(t.PairedT.T), 3), numfmt.R.P(float64(t.PairedT.PAdj)),
				numfmt.R.Fixed(float64(t.WelchT.T), 3), numfmt.R.P(float64(t.WelchT.PAdj)),
				wil, numfmt.R.P(float64(t.Wilcoxon.PAdj)),
				fmt.Sprintf("%d/%d", t.Sign.Pos, t.Sign.Neg), numfmt.R.P(float64(t.Sign.PAdj)),
				numfmt.R.P(float64(t.Permutation.PAdj)), numfmt.R.P(float64(t.Bootstrap.PAdj)),
			})
		}
		v.table(rows)
		v.heading("Effect sizes and paired-t intervals")
		rows = [][]string{{"System", "mean diff", "paired t " + numfmt.Percent(ciLevel), "Glass Δ (champion SD)", "Glass Δ (challenger SD)", "Cohen d_z"}}
		for _, s := range chals {
			c := s.Challenger
			t := c.Tests.PairedT
			rows = append(rows, []string{
				s.Name, numfmt.R.Fixed(float64(s.Mean)-float64(champ.Mean), 4),
				fmt.Sprintf("[%s, %s]", numfmt.R.Fixed(float64(t.Lo), 4), numfmt.R.Fixed(float64(t.Hi), 4)),
				numfmt.R.Fixed(float64(c.Effects.GlassDeltaChampion), 3), numfmt.R.Fixed(float64(c.Effects.GlassDeltaChallenger), 3), numfmt.R.Fixed(float64(c.Effects.CohenD), 3),
			})
		}
		v.table(rows)
	}

	v.anova("Two-way ANOVA (score ~ system + topic)", rep.ANOVA.TwoWay)
	v.anova("One-way ANOVA (score ~ system)", rep.ANOVA.OneWay)

	tk := rep.TukeyHSD
	v.heading(fmt.Sprintf("Tukey HSD (%s model), %s family-wise", tk.Model, numfmt.Percent(tk.Level)))
	v.para(fmt.Sprintf("Critical range q = %s, SE = %s, df = %s.", numfmt.R.Fixed(float64(tk.Q), 4), numfmt.G4(float64(tk.SE)), numfmt.G(float64(tk.DF))))
	head := []string{"Pair", "diff", "lwr", "upr", "p adj"}
	if tk.B > 0 {
		head = append(head, fmt.Sprintf("p randomised (B = %d)", tk.B))
	}
	rows = [][]string{head}
	compared := map[string]bool{}
	for _, s := range rep.Systems {
		compared[s.Name] = s.Role != result.RoleArtifact
	}
	hidden := 0
	for _, p := range tk.Pairs {
		if !compared[p.A] || !compared[p.B] {
			hidden++
			continue
		}
		r := []string{p.B + " − " + p.A, numfmt.R.Fixed(float64(p.Diff), 5), numfmt.R.Fixed(float64(p.Lo), 5), numfmt.R.Fixed(float64(p.Hi), 5), numfmt.R.P(float64(p.P))}
		if p.PRandomized != nil {
			r = append(r, numfmt.R.P(float64(*p.PRandomized)))
		}
		rows = append(rows, r)
	}
	v.table(rows)
	if hidden > 0 {
		v.para(fmt.Sprintf("%d pair(s) involving artifacts are in the JSON output only.", hidden))
	}

	var warns []string
	warns = append(warns, rep.Warnings...)
	for _, s := range rep.Systems {
		for _, w := range s.Warnings {
			warns = append(warns, s.Name+": "+w)
		}
	}
	warns = append(warns, reportfmt.Prefixed("two-way ANOVA", rep.ANOVA.TwoWay.Warnings)...)
	warns = append(warns, reportfmt.Prefixed("one-way ANOVA", rep.ANOVA.OneWay.Warnings)...)
	warns = append(warns, reportfmt.Prefixed("Tukey HSD", tk.Warnings)...)
	if rep.BRisk != nil {
		warns = append(warns, reportfmt.Prefixed("BRisk", rep.BRisk.Warnings)...)
	}
	if len(warns) > 0 {
		v.heading("Warnings")
		for _, w := range warns {
			v.printf("- %s\n", reportfmt.EscapeIf(v.md, w))
		}
	}
}

func (v *compareView) anova(title string, a ANOVATable) {
	v.heading(fmt.Sprintf("%s over %d systems", title, len(v.rep.ANOVA.Systems)))
	rows := [][]string{{"Source", "Df", "Sum Sq", "Mean Sq", "F value", "Pr(>F)"}}
	for _, r := range a.Rows {
		f, p := "", ""
		if r.Source != "residuals" {
			f, p = numfmt.R.Fixed(float64(r.F), 3), numfmt.R.P(float64(r.P))
		}
		rows = append(rows, []string{r.Source, numfmt.G(float64(r.DF)), numfmt.G4(float64(r.SS)), numfmt.G4(float64(r.MS)), f, p})
	}
	v.table(rows)
	v.para(fmt.Sprintf("η² = %s, partial η² = %s.", numfmt.R.Fixed(float64(a.EtaSquared), 3), numfmt.R.Fixed(float64(a.PartialEtaSquared), 3)))
}

// writeCompareCSV writes one row per system with every per-system number;
// the ANOVA and Tukey sections are in the json, table and md outputs.
func writeCompareCSV(w io.Writer, rep *Report) error {
	head := []string{"system", "role", "mean", "zrisk", "georisk", "urisk", "trisk", "trisk_p", "trisk_p_adj",
		"bca_lo", "bca_hi", "bca_level", "percentile_lo", "percentile_hi", "percentile_level", "wins", "ties", "losses",
		"paired_t", "paired_df", "paired_p", "paired_p_adj", "paired_lo", "paired_hi",
		"welch_t", "welch_df", "welch_p", "welch_p_adj", "wilcoxon_v", "wilcoxon_p", "wilcoxon_p_adj", "wilcoxon_exact",
		"sign_pos", "sign_neg", "sign_p", "sign_p_adj", "permutation_p", "permutation_p_adj", "permutation_b",
		"bootstrap_t", "bootstrap_p", "bootstrap_p_adj", "bootstrap_b",
		"glass_delta_champion", "glass_delta_challenger", "cohen_d",
		"loss_weight", "level", "correction", "topics", "measure"}
	head = append(head, briskCSVHeader...)
	cw := csv.NewWriter(w)
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, s := range rep.Systems {
		row := []string{s.Name, s.Role, numfmt.CSV(s.Mean), csvPtr(s.ZRisk), csvPtr(s.GeoRisk)}
		if c := s.Challenger; c != nil {
			t := c.Tests
			row = append(row, numfmt.CSV(c.URisk), numfmt.CSV(c.TRisk), numfmt.CSV(c.TRiskP), numfmt.CSV(c.TRiskPAdj),
				numfmt.CSV(c.BCa.Lo), numfmt.CSV(c.BCa.Hi), numfmt.G(c.BCa.Level), numfmt.CSV(c.Percentile.Lo), numfmt.CSV(c.Percentile.Hi), numfmt.G(c.Percentile.Level),
				strconv.Itoa(c.Wins), strconv.Itoa(c.Ties), strconv.Itoa(c.Losses),
				numfmt.CSV(t.PairedT.T), numfmt.CSV(t.PairedT.DF), numfmt.CSV(t.PairedT.P), numfmt.CSV(t.PairedT.PAdj), numfmt.CSV(t.PairedT.Lo), numfmt.CSV(t.PairedT.Hi),
				numfmt.CSV(t.WelchT.T), numfmt.CSV(t.WelchT.DF), numfmt.CSV(t.WelchT.P), numfmt.CSV(t.WelchT.PAdj),
				numfmt.CSV(t.Wilcoxon.V), numfmt.CSV(t.Wilcoxon.P), numfmt.CSV(t.Wilcoxon.PAdj), strconv.FormatBool(t.Wilcoxon.Exact),
				strconv.Itoa(t.Sign.Pos), strconv.Itoa(t.Sign.Neg), numfmt.CSV(t.Sign.P), numfmt.CSV(t.Sign.PAdj),
				numfmt.CSV(t.Permutation.P), numfmt.CSV(t.Permutation.PAdj), strconv.Itoa(t.Permutation.B),
				numfmt.CSV(t.Bootstrap.T), numfmt.CSV(t.Bootstrap.P), numfmt.CSV(t.Bootstrap.PAdj), strconv.Itoa(t.Bootstrap.B),
				numfmt.CSV(c.Effects.GlassDeltaChampion), numfmt.CSV(c.Effects.GlassDeltaChallenger), numfmt.CSV(c.Effects.CohenD))
		} else {
			row = append(row, make([]string, 41)...)
		}
		row = append(row, numfmt.G(rep.LossWeight), numfmt.G(rep.Level), rep.Correction, strconv.Itoa(rep.Topics), rep.Measure)
		row = append(row, briskCSV(s)...)
		if len(row) != len(head) {
			return fmt.Errorf("internal error: csv row has %d fields, header %d", len(row), len(head))
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func csvPtr(n *jsonfloat.Float) string {
	if n == nil {
		return ""
	}
	return numfmt.CSV(*n)
}

func correctionName(c string) string {
	switch c {
	case "bonferroni":
		return "Bonferroni"
	case "holm":
		return "Holm"
	case "bh":
		return "Benjamini–Hochberg"
	}
	return c
}
