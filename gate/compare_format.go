package gate

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// writeCompare renders rep in one of reportFormats. riskView prints the
// table and md views with Benham et al.'s risk-oriented "⁻" signs.
func writeCompare(w io.Writer, rep *CompareReport, format string, riskView bool) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	case "csv":
		return writeCompareCSV(w, rep)
	case "table", "md":
		v := compareView{w: w, md: format == "md", risk: riskView, rep: rep}
		v.write()
		return v.err
	}
	return checkFormat(format, reportFormats)
}

// compareView writes the table and md views: a heading, the systems laid
// out like Benham et al.'s Table 3, the tests, effect sizes, ANOVA and Tukey.
type compareView struct {
	w    io.Writer
	md   bool
	risk bool
	rep  *CompareReport
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

// table writes rows (the first is the header): aligned columns for text (the
// first column left-aligned, the others right-aligned), a pipe table for md.
func (v *compareView) table(rows [][]string) {
	if v.md {
		for i, r := range rows {
			v.printf("| %s |\n", strings.Join(r, " | "))
			if i == 0 {
				seps := make([]string, len(r))
				for k := range seps {
					seps[k] = "---:"
				}
				seps[0] = ":---"
				v.printf("|%s|\n", strings.Join(seps, "|"))
			}
		}
		return
	}
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for k, c := range r {
			widths[k] = max(widths[k], utf8.RuneCountInString(c))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for k, c := range r {
			pad := strings.Repeat(" ", widths[k]-utf8.RuneCountInString(c))
			if k == 0 {
				b.WriteString(c + pad)
			} else {
				b.WriteString("  " + pad + c)
			}
		}
		v.printf("%s\n", strings.TrimRight(b.String(), " "))
	}
}

func (v *compareView) write() {
	rep := v.rep
	var chals []CompareSystem
	var champ CompareSystem
	artifacts := 0
	for _, s := range rep.Systems {
		switch s.Role {
		case "champion":
			champ = s
		case "challenger":
			chals = append(chals, s)
		default:
			artifacts++
		}
	}
	title := fmt.Sprintf("riskgate compare: %d challenger(s) against champion %q", len(chals), rep.Champion)
	if v.md {
		v.printf("# %s\n\n", title)
	} else {
		v.printf("%s\n", title)
	}
	ciLevel := rep.Level
	if len(chals) > 0 {
		ciLevel = chals[0].BCa.Level
	}
	v.para(fmt.Sprintf("Measure %s over %d topics; losses count %s times (w = %s, α = %s).",
		orDash(rep.Measure), rep.Topics, fmtG(rep.LossWeight), fmtG(rep.LossWeight), fmtG(rep.LossWeight-1)))
	corr := "unadjusted"
	if rep.Correction != "none" {
		corr = fmt.Sprintf("adjusted by %s over %d challenger(s)", correctionName(rep.Correction), len(chals))
	}
	if ciLevel != rep.Level {
		v.para(fmt.Sprintf("Intervals at %s (%s with Bonferroni over %d challenger(s)); p-values %s. B = %d, seed %d.",
			pct(ciLevel), pct(rep.Level), len(chals), corr, rep.Samples, rep.Seed))
	} else {
		v.para(fmt.Sprintf("Intervals at %s; p-values %s. B = %d, seed %d.", pct(ciLevel), corr, rep.Samples, rep.Seed))
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
	rows := [][]string{{"System", "Mean", "URisk" + minus, "TRisk" + minus, "BCa" + minus + " " + pct(ciLevel), "ZRisk" + minus, "GeoRisk" + minus}}
	systemRow := func(s CompareSystem) []string {
		r := []string{s.Name, fmtF(float64(s.Mean), 3), "–", "–", "–", "–", "–"}
		if s.CompareChallenger != nil {
			c := s.CompareChallenger
			r[2] = fmtF(sign*float64(c.URisk), 3)
			r[3] = fmtF(sign*float64(c.TRisk), 3)
			lo, hi := float64(c.BCa.Lo), float64(c.BCa.Hi)
			if v.risk {
				lo, hi = -hi, -lo
			}
			r[4] = fmt.Sprintf("%s [%s, %s]", fmtF(sign*float64(c.URisk), 3), fmtF(lo, 3), fmtF(hi, 3))
		}
		if s.ZRisk != nil {
			r[5] = fmtF(sign*float64(*s.ZRisk), 2)
			r[6] = fmtF(sign*float64(*s.GeoRisk), 3)
		}
		return r
	}
	rows = append(rows, systemRow(champ))
	for _, s := range chals {
		rows = append(rows, systemRow(s))
	}
	v.table(rows)
	if v.md {
		v.printf("\n")
	}
	if v.risk {
		v.para("GeoRisk⁻ is −GeoRisk (Dinçer et al. 2016); Benham et al.'s Table 3 printed −√(mean·Φ(ZRisk⁻/c)) instead.")
	}

	if len(chals) > 0 {
		v.heading("Tests against the champion (p-values " + corr + ")")
		rows = [][]string{{"System", "W/T/L", "paired t", "p", "Welch t", "p", "Wilcoxon V", "p", "sign +/−", "p", "randomisation p", "bootstrap p"}}
		for _, s := range chals {
			c := s.CompareChallenger
			t := c.Tests
			wil := fmtG(float64(t.Wilcoxon.V))
			if t.Wilcoxon.Exact {
				wil += " (exact)"
			}
			rows = append(rows, []string{
				s.Name, fmt.Sprintf("%d/%d/%d", c.Wins, c.Ties, c.Losses),
				fmtF(float64(t.PairedT.T), 3), fmtP(float64(t.PairedT.PAdj)),
				fmtF(float64(t.WelchT.T), 3), fmtP(float64(t.WelchT.PAdj)),
				wil, fmtP(float64(t.Wilcoxon.PAdj)),
				fmt.Sprintf("%d/%d", t.Sign.Pos, t.Sign.Neg), fmtP(float64(t.Sign.PAdj)),
				fmtP(float64(t.Permutation.PAdj)), fmtP(float64(t.Bootstrap.PAdj)),
			})
		}
		v.table(rows)
		if v.md {
			v.printf("\n")
		}
		v.heading("Effect sizes and paired-t intervals")
		rows = [][]string{{"System", "mean diff", "paired t " + pct(ciLevel), "Glass Δ (champion SD)", "Glass Δ (challenger SD)", "Cohen d_z"}}
		for _, s := range chals {
			c := s.CompareChallenger
			t := c.Tests.PairedT
			rows = append(rows, []string{
				s.Name, fmtF(float64(s.Mean)-float64(champ.Mean), 4),
				fmt.Sprintf("[%s, %s]", fmtF(float64(t.Lo), 4), fmtF(float64(t.Hi), 4)),
				fmtF(float64(c.Effects.GlassDeltaChampion), 3), fmtF(float64(c.Effects.GlassDeltaChallenger), 3), fmtF(float64(c.Effects.CohenD), 3),
			})
		}
		v.table(rows)
		if v.md {
			v.printf("\n")
		}
	}

	v.anova("Two-way ANOVA (score ~ system + topic)", rep.ANOVA.TwoWay)
	v.anova("One-way ANOVA (score ~ system)", rep.ANOVA.OneWay)

	tk := rep.TukeyHSD
	v.heading(fmt.Sprintf("Tukey HSD (%s model), %s family-wise", tk.Model, pct(tk.Level)))
	v.para(fmt.Sprintf("Critical range q = %s, SE = %s, df = %s.", fmtF(float64(tk.Q), 4), fmtG4(float64(tk.SE)), fmtG(float64(tk.DF))))
	head := []string{"Pair", "diff", "lwr", "upr", "p adj"}
	if tk.B > 0 {
		head = append(head, fmt.Sprintf("p randomised (B = %d)", tk.B))
	}
	rows = [][]string{head}
	compared := map[string]bool{}
	for _, s := range rep.Systems {
		compared[s.Name] = s.Role != "artifact"
	}
	hidden := 0
	for _, p := range tk.Pairs {
		if !compared[p.A] || !compared[p.B] {
			hidden++
			continue
		}
		r := []string{p.B + " − " + p.A, fmtF(float64(p.Diff), 5), fmtF(float64(p.Lo), 5), fmtF(float64(p.Hi), 5), fmtP(float64(p.P))}
		if p.PRandomized != nil {
			r = append(r, fmtP(float64(*p.PRandomized)))
		}
		rows = append(rows, r)
	}
	v.table(rows)
	if v.md {
		v.printf("\n")
	}
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
	warns = append(warns, comparePrefixed("two-way ANOVA", rep.ANOVA.TwoWay.Warnings)...)
	warns = append(warns, comparePrefixed("one-way ANOVA", rep.ANOVA.OneWay.Warnings)...)
	warns = append(warns, comparePrefixed("Tukey HSD", tk.Warnings)...)
	if len(warns) > 0 {
		v.heading("Warnings")
		for _, w := range warns {
			v.printf("- %s\n", w)
		}
	}
}

func (v *compareView) anova(title string, a CompareANOVATable) {
	v.heading(fmt.Sprintf("%s over %d systems", title, len(v.rep.ANOVA.Systems)))
	rows := [][]string{{"Source", "Df", "Sum Sq", "Mean Sq", "F value", "Pr(>F)"}}
	for _, r := range a.Rows {
		f, p := "", ""
		if r.Source != "residuals" {
			f, p = fmtF(float64(r.F), 3), fmtP(float64(r.P))
		}
		rows = append(rows, []string{r.Source, fmtG(float64(r.DF)), fmtG4(float64(r.SS)), fmtG4(float64(r.MS)), f, p})
	}
	v.table(rows)
	if v.md {
		v.printf("\n")
	}
	v.para(fmt.Sprintf("η² = %s, partial η² = %s.", fmtF(float64(a.EtaSquared), 3), fmtF(float64(a.PartialEtaSquared), 3)))
}

// writeCompareCSV writes one row per system with every per-system number;
// the ANOVA and Tukey sections are in the json, table and md outputs.
func writeCompareCSV(w io.Writer, rep *CompareReport) error {
	head := []string{"system", "role", "mean", "zrisk", "georisk", "urisk", "trisk", "trisk_p", "trisk_p_adj",
		"bca_lo", "bca_hi", "bca_level", "percentile_lo", "percentile_hi", "percentile_level", "wins", "ties", "losses",
		"paired_t", "paired_df", "paired_p", "paired_p_adj", "paired_lo", "paired_hi",
		"welch_t", "welch_df", "welch_p", "welch_p_adj", "wilcoxon_v", "wilcoxon_p", "wilcoxon_p_adj", "wilcoxon_exact",
		"sign_pos", "sign_neg", "sign_p", "sign_p_adj", "permutation_p", "permutation_p_adj", "permutation_b",
		"bootstrap_t", "bootstrap_p", "bootstrap_p_adj", "bootstrap_b",
		"glass_delta_champion", "glass_delta_challenger", "cohen_d",
		"loss_weight", "level", "correction", "topics", "measure"}
	cw := csv.NewWriter(w)
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, s := range rep.Systems {
		row := []string{s.Name, s.Role, csvNum(s.Mean), csvPtr(s.ZRisk), csvPtr(s.GeoRisk)}
		if c := s.CompareChallenger; c != nil {
			t := c.Tests
			row = append(row, csvNum(c.URisk), csvNum(c.TRisk), csvNum(c.TRiskP), csvNum(c.TRiskPAdj),
				csvNum(c.BCa.Lo), csvNum(c.BCa.Hi), fmtG(c.BCa.Level), csvNum(c.Percentile.Lo), csvNum(c.Percentile.Hi), fmtG(c.Percentile.Level),
				strconv.Itoa(c.Wins), strconv.Itoa(c.Ties), strconv.Itoa(c.Losses),
				csvNum(t.PairedT.T), csvNum(t.PairedT.DF), csvNum(t.PairedT.P), csvNum(t.PairedT.PAdj), csvNum(t.PairedT.Lo), csvNum(t.PairedT.Hi),
				csvNum(t.WelchT.T), csvNum(t.WelchT.DF), csvNum(t.WelchT.P), csvNum(t.WelchT.PAdj),
				csvNum(t.Wilcoxon.V), csvNum(t.Wilcoxon.P), csvNum(t.Wilcoxon.PAdj), strconv.FormatBool(t.Wilcoxon.Exact),
				strconv.Itoa(t.Sign.Pos), strconv.Itoa(t.Sign.Neg), csvNum(t.Sign.P), csvNum(t.Sign.PAdj),
				csvNum(t.Permutation.P), csvNum(t.Permutation.PAdj), strconv.Itoa(t.Permutation.B),
				csvNum(t.Bootstrap.T), csvNum(t.Bootstrap.P), csvNum(t.Bootstrap.PAdj), strconv.Itoa(t.Bootstrap.B),
				csvNum(c.Effects.GlassDeltaChampion), csvNum(c.Effects.GlassDeltaChallenger), csvNum(c.Effects.CohenD))
		} else {
			row = append(row, make([]string, 41)...)
		}
		row = append(row, fmtG(rep.LossWeight), fmtG(rep.Level), rep.Correction, strconv.Itoa(rep.Topics), rep.Measure)
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

// csvNum writes the shortest round-tripping decimal, "" for a non-finite number.
func csvNum(n JSONFloat) string {
	v := float64(n)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func csvPtr(n *JSONFloat) string {
	if n == nil {
		return ""
	}
	return csvNum(*n)
}

// fmtF formats with d decimals; NaN as "NA", ±Inf as "Inf"/"-Inf".
func fmtF(x float64, d int) string {
	switch {
	case math.IsNaN(x):
		return "NA"
	case math.IsInf(x, 1):
		return "Inf"
	case math.IsInf(x, -1):
		return "-Inf"
	}
	s := strconv.FormatFloat(x, 'f', d, 64)
	if strings.Trim(s, "-0.") == "" {
		s = strings.TrimPrefix(s, "-") // no "-0.000"
	}
	return s
}

// fmtG4 formats with four significant digits.
func fmtG4(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return fmtF(x, 0)
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

func fmtG(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// fmtP formats a p-value: four decimals, or "<0.0001".
func fmtP(p float64) string {
	switch {
	case math.IsNaN(p):
		return "NA"
	case p < 0.0001:
		return "<0.0001"
	}
	return strconv.FormatFloat(p, 'f', 4, 64)
}

// pct formats a level as a percentage with at most four decimals: 0.9875 → "98.75%".
func pct(level float64) string {
	s := strconv.FormatFloat(100*level, 'f', 4, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s + "%"
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
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
