package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/policies"
)

// Every number in the summary and in the rules of every report format is
// found, with the digits it is printed with, in the result.json field
// docs/gate.md ("What each number is") names for its label: the summary's
// means, Δ, Δ% and W/T/L in summary[]; P(better) in the comparison of the fit
// its head names ("[hier fit]": bayes, "[BRisk fit, w = 1]": brisk at w = 1);
// the risk column, headed "<quantity> + margin m, w = …", in summary[].risk
// (the rule's observed value, the bound plus the margin), or, headed
// "bca.lo, w = …" without a margin, in risk_table's BCa bound; a rule's
// observed value "v + m = o" in before_margin, query.margin and observed. A
// summary that printed a bound plus a margin under the bound's name (issue
// 30) fails here.
func TestEveryReportedNumberIsInResultJSON(t *testing.T) {
	dir := filepath.Join("..", "testdata", "gate")
	// The segmented fixture too (rules per segment: the by: rules' rows,
	// the worst segment in the summary line).
	var segmented bytes.Buffer
	if err := result.WriteJSON(&segmented, segmentedOrigin()); err != nil {
		t.Fatal(err)
	}
	for _, run := range []string{"example", "cheap", "segmented"} {
		t.Run(run, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, run+".result.json.golden"))
			if run == "segmented" {
				data, err = segmented.Bytes(), nil
			}
			if err != nil {
				t.Fatal(err)
			}
			r, err := result.Read("result.json", data)
			if err != nil {
				t.Fatal(err)
			}
			var j resultDoc
			if err := json.Unmarshal(data, &j); err != nil {
				t.Fatal(err)
			}
			files, err := Files(r)
			if err != nil {
				t.Fatal(err)
			}
			var table bytes.Buffer
			Text(&table, r, false)
			formats := map[string]func(string) (head []string, sum, rules [][]string){
				"table": textTables, "md": mdTables, "html": htmlTables,
			}
			outputs := map[string]string{"table": table.String(), "md": string(files["report.md"]), "html": string(files["report.html"])}
			for _, f := range []string{"table", "md", "html"} {
				head, sum, rules := formats[f](outputs[f])
				if len(sum) != len(j.Summary) {
					t.Fatalf("%s: %d summary rows, result.json has %d", f, len(sum), len(j.Summary))
				}
				for i, row := range sum {
					checkSummaryRow(t, f, head, row, j, i)
				}
				checkRuleRows(t, f, rules, j)
			}
			checkJUnit(t, string(files["junit.xml"]), j)
		})
	}
}

// resultDoc is the part of result.json the check reads, field by field as
// docs/gate.md names them.
type resultDoc struct {
	Summary []struct {
		Challenger   string
		ChampionMean *float64 `json:"champion_mean"`
		Mean         *float64
		Diff         *float64
		DiffPercent  *float64 `json:"diff_percent"`
		Wins         *float64
		Ties         *float64
		Losses       *float64
		PBetter      *float64 `json:"p_better"`
		PBetterFit   string   `json:"p_better_fit"`
		Risk         *struct{ Number *float64 }
	}
	Decision struct {
		Challengers []struct {
			Name  string
			Rules []struct {
				Quantity string
				Query    struct {
					LossWeight float64 `json:"loss_weight"`
					Level      float64
					Margin     float64
				}
				Bound struct {
					AtLeast *float64 `json:"at_least"`
					AtMost  *float64 `json:"at_most"`
				}
				Observed     struct{ Number *float64 }
				BeforeMargin *struct{ Number *float64 } `json:"before_margin"`
				Unadjusted   *struct{ Number *float64 }
			}
		}
	}
	RiskTable struct {
		Systems []struct {
			Name string
			BCa  *struct{ Lo float64 }
		}
	} `json:"risk_table"`
	Bayes *fitDoc
	BRisk []fitDoc
}

type fitDoc struct {
	LossWeight  float64 `json:"loss_weight"`
	Comparisons []struct {
		Challenger string
		PBetter    *float64 `json:"p_better"`
	}
}

func (f *fitDoc) pBetter(c string) *float64 {
	if f == nil {
		return nil
	}
	for _, cmp := range f.Comparisons {
		if cmp.Challenger == c {
			return cmp.PBetter
		}
	}
	return nil
}

var numberRE = regexp.MustCompile(`[-+]?\d+(\.\d+)?(e[-+]?\d+)?`)

// matches reports whether the printed token is v with the token's digits.
func matches(token string, v *float64) bool {
	if v == nil {
		return false
	}
	x, err := strconv.ParseFloat(token, 64)
	if err != nil {
		return false
	}
	mant, exp := token, 0
	if i := strings.IndexByte(token, 'e'); i >= 0 {
		mant = token[:i]
		exp, _ = strconv.Atoi(token[i+1:])
	}
	decimals := 0
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		decimals = len(mant) - i - 1
	}
	tol := 0.5 * math.Pow(10, float64(exp-decimals))
	return math.Abs(*v-x) <= tol*(1+1e-9)
}

// expectNumbers checks that the numbers of cell are, in order, want.
func expectNumbers(t *testing.T, where, cell string, want ...*float64) {
	t.Helper()
	tokens := numberRE.FindAllString(cell, -1)
	if len(tokens) != len(want) {
		t.Errorf("%s: %q holds %d numbers, want %d (the fields its label names)", where, cell, len(tokens), len(want))
		return
	}
	for i, tok := range tokens {
		if !matches(tok, want[i]) {
			got := "absent"
			if want[i] != nil {
				got = strconv.FormatFloat(*want[i], 'g', -1, 64)
			}
			t.Errorf("%s: %q prints %s; its result.json field holds %s", where, cell, tok, got)
		}
	}
}

func ptr(v float64) *float64 { return &v }

func checkSummaryRow(t *testing.T, format string, head, row []string, j resultDoc, i int) {
	s := j.Summary[i]
	where := fmt.Sprintf("%s summary, %s", format, s.Challenger)
	var pBetterHead, riskHead string
	for k, h := range head {
		if k >= len(row) {
			break
		}
		cell := row[k]
		switch {
		case strings.HasPrefix(h, "champion mean"):
			expectNumbers(t, where+", "+h, cell, s.ChampionMean)
		case h == "mean":
			expectNumbers(t, where+", "+h, cell, s.Mean)
		case strings.HasPrefix(h, "Mean:"): // md and html: "champion → challenger"
			expectNumbers(t, where+", "+h, cell, s.ChampionMean, s.Mean)
		case h == "Δ":
			expectNumbers(t, where+", "+h, cell, s.Diff)
		case h == "Δ%":
			expectNumbers(t, where+", "+h, cell, s.DiffPercent)
		case h == "Δ (Δ%)":
			expectNumbers(t, where+", "+h, cell, s.Diff, s.DiffPercent)
		case h == "W/T/L" || h == "Wins / ties / losses":
			expectNumbers(t, where+", "+h, cell, s.Wins, s.Ties, s.Losses)
		case strings.HasPrefix(h, "P(better)"):
			pBetterHead = h
			checkPBetter(t, where, h, cell, j, s.Challenger)
		case strings.Contains(h, ", w = "):
			riskHead = h
			checkRisk(t, where, h, cell, j, i)
		}
	}
	if pBetterHead == "" || riskHead == "" {
		t.Errorf("%s: no P(better) or risk column in %q", where, head)
	}
}

// checkPBetter: the head names the fit, and the cell is that fit's P(better).
func checkPBetter(t *testing.T, where, head, cell string, j resultDoc, c string) {
	t.Helper()
	switch head {
	case "P(better) [hier fit]":
		expectNumbers(t, where+", "+head, cell, j.Bayes.pBetter(c))
	case "P(better) [BRisk fit, w = 1]":
		var w1 *fitDoc
		for k := range j.BRisk {
			if j.BRisk[k].LossWeight == 1 {
				w1 = &j.BRisk[k]
			}
		}
		expectNumbers(t, where+", "+head, cell, w1.pBetter(c))
	default:
		if numberRE.MatchString(cell) {
			t.Errorf("%s: P(better) %q under %q, which names no fit", where, cell, head)
		}
	}
}

var marginHeadRE = regexp.MustCompile(`^(.+) \+ margin ([0-9.]+), w = ([0-9.]+)$`)

// checkRisk: a head with "+ margin" is the rule's observed value (the
// bound plus the margin); a plain bca.lo head is the BCa bound itself.
func checkRisk(t *testing.T, where, head, cell string, j resultDoc, i int) {
	t.Helper()
	s := j.Summary[i]
	var observed *float64
	if s.Risk != nil {
		observed = s.Risk.Number
	}
	if m := marginHeadRE.FindStringSubmatch(head); m != nil {
		expectNumbers(t, where+", "+head, cell, observed)
		return
	}
	if strings.HasPrefix(head, "bca.lo, w = ") {
		var lo *float64
		for _, sy := range j.RiskTable.Systems {
			if sy.Name == s.Challenger && sy.BCa != nil {
				lo = ptr(sy.BCa.Lo)
			}
		}
		expectNumbers(t, where+", "+head, cell, lo)
		return
	}
	expectNumbers(t, where+", "+head, cell, observed)
}

// checkRuleRows: each rule row's quantity label, observed value and bound.
// A row is [challenger-or-empty, rule, quantity, observed, bound, ...].
func checkRuleRows(t *testing.T, format string, rows [][]string, j resultDoc) {
	t.Helper()
	k := 0
	for _, c := range j.Decision.Challengers {
		for _, rr := range c.Rules {
			if k >= len(rows) {
				t.Errorf("%s: %d rule rows; result.json has more", format, len(rows))
				return
			}
			row := rows[k]
			k++
			where := fmt.Sprintf("%s rules, %s", format, c.Name)
			q, obs := row[2], row[3]
			if policies.LookupQuantity(rr.Quantity) == nil {
				// A quantity another branch registers (bayes.p_worse, issue
				// 26): its label is checked once it is known.
				t.Logf("%s: rule on %s, a quantity not registered here: not checked", where, rr.Quantity)
				continue
			}
			added := rr.BeforeMargin != nil
			// The margin is named as a margin, or by its value where the
			// label takes it inside: "P(δ < −0.02)", "of Δ + 0.02".
			if rr.Query.Margin > 0 && !strings.Contains(q, "margin") && !strings.Contains(q, "−"+numfmt.G(rr.Query.Margin)) &&
				!strings.Contains(q, "+ "+numfmt.G(rr.Query.Margin)) {
				t.Errorf("%s: quantity %q does not say its margin %v", where, q, rr.Query.Margin)
			}
			if rr.Observed.Number == nil {
				// An unavailable value: no number stands for it.
				if numberRE.MatchString(obs) {
					t.Errorf("%s: observed %q shows a number; result.json has none", where, obs)
				}
			} else if added {
				expectNumbers(t, where+", observed", obs, rr.BeforeMargin.Number, ptr(rr.Query.Margin), rr.Observed.Number)
			} else if rr.Query.Margin > 0 && rr.Observed.Number != nil && !strings.Contains(q, "P(") && !strings.Contains(q, "URisk +") &&
				!strings.Contains(q, "of Δ + ") && !strings.Contains(q, "margin=") {
				// A margin taken inside is named with it: "P(δ < −0.02)",
				// "URisk + 0.02", "tests.paired_t.p of Δ + 0.02" (a test of
				// d + δ), or the query's margin= in report.md's rules.
				// A margin added to the quantity must be shown beside it.
				t.Errorf("%s: observed %q is the value plus margin %v, shown as one number", where, obs, rr.Query.Margin)
			} else if rr.Unadjusted != nil && format == "html" {
				expectNumbers(t, where+", observed", obs, rr.Observed.Number, rr.Unadjusted.Number)
			} else {
				expectNumbers(t, where+", observed", obs, rr.Observed.Number)
			}
			b := rr.Bound.AtLeast
			if b == nil {
				b = rr.Bound.AtMost
			}
			expectNumbers(t, where+", bound", row[4], b)
		}
	}
	if k != len(rows) {
		t.Errorf("%s: %d rule rows; result.json has %d", format, len(rows), k)
	}
}

func checkJUnit(t *testing.T, x string, j resultDoc) {
	t.Helper()
	prop := regexp.MustCompile(`<property name="([^"]*)" value="([^"]*)">`)
	suites := strings.Split(x, "<testsuite ")[1:]
	if len(suites) != len(j.Summary) {
		t.Fatalf("junit: %d suites, %d summary rows", len(suites), len(j.Summary))
	}
	for i, s := range suites {
		head := []string{}
		row := []string{}
		for _, m := range prop.FindAllStringSubmatch(s, -1) {
			name := strings.ReplaceAll(m[1], "&#43;", "+")
			switch {
			case name == "champion_mean":
				head = append(head, "champion mean")
			case name == "mean":
				head = append(head, "mean")
			case name == "diff":
				head = append(head, "Δ")
			case name == "diff_percent":
				head = append(head, "Δ%")
			case name == "wins_ties_losses":
				head = append(head, "W/T/L")
			case strings.HasPrefix(name, "p_better"):
				head = append(head, strings.TrimPrefix(strings.TrimPrefix(name, "p_better"), ": "))
				if head[len(head)-1] == "" {
					head[len(head)-1] = "P(better)"
				}
			case strings.HasPrefix(name, "risk: "):
				head = append(head, strings.TrimPrefix(name, "risk: "))
			default:
				continue
			}
			row = append(row, m[2])
		}
		checkSummaryRow(t, "junit", head, row, j, i)
	}
}

// textTables finds the terminal report's summary and rules tables.
func textTables(out string) (head []string, sum, rules [][]string) {
	lines := strings.Split(out, "\n")
	cols := regexp.MustCompile(`\s{2,}`)
	for i, l := range lines {
		if strings.HasPrefix(l, "challenger ") && strings.Contains(l, "champion mean") {
			head = cols.Split(strings.TrimSpace(l), -1)
			for _, r := range lines[i+1:] {
				if r == "" {
					break
				}
				sum = append(sum, cols.Split(strings.TrimSpace(r), -1))
			}
		}
		if l == "rules" {
			h := lines[i+1]
			var starts []int
			for _, name := range []string{"challenger", "rule", "quantity", "observed", "bound", "outcome"} {
				starts = append(starts, strings.Index(h, name+" ")) // the head's cells, left-aligned
			}
			starts[len(starts)-1] = strings.Index(h, "outcome")
			for _, r := range lines[i+2:] {
				if r == "" || !strings.HasPrefix(r, " ") && strings.Contains(r, ":") && !strings.Contains(r, "  ") {
					break
				}
				rr := []rune(r)
				var cells []string
				for k, st := range starts {
					st = len([]rune(h[:st]))
					end := len(rr)
					if k+1 < len(starts) {
						end = min(len([]rune(h[:starts[k+1]])), len(rr))
					}
					cells = append(cells, strings.TrimSpace(string(rr[min(st, len(rr)):end])))
				}
				rules = append(rules, cells)
			}
		}
	}
	return head, sum, rules
}

// mdTables finds report.md's summary and rules tables.
func mdTables(out string) (head []string, sum, rules [][]string) {
	lines := strings.Split(out, "\n")
	cells := func(l string) []string {
		parts := strings.Split(strings.Trim(l, "|"), " | ")
		for i := range parts {
			parts[i] = strings.ReplaceAll(strings.TrimSpace(parts[i]), `\`, "")
		}
		return parts
	}
	for i, l := range lines {
		if strings.HasPrefix(l, "| Challenger | Mean:") {
			head = cells(l)
			for _, r := range lines[i+2:] {
				if !strings.HasPrefix(r, "|") {
					break
				}
				sum = append(sum, cells(r))
			}
		}
		if strings.HasPrefix(l, "| Challenger | Rule | Quantity | Observed") {
			for _, r := range lines[i+2:] {
				if !strings.HasPrefix(r, "|") {
					break
				}
				rules = append(rules, cells(r))
			}
		}
	}
	return head, sum, rules
}

// htmlTables finds report.html's summary and rules tables.
func htmlTables(out string) (head []string, sum, rules [][]string) {
	tag := regexp.MustCompile(`<[^>]*>`)
	text := func(s string) string {
		s = tag.ReplaceAllString(strings.ReplaceAll(s, "<br>", " "), "")
		return strings.TrimSpace(strings.NewReplacer("&#43;", "+", "&amp;", "&", "&lt;", "<", "&gt;", ">", "&#39;", "'").Replace(s))
	}
	th := regexp.MustCompile(`(?s)<th>(.*?)</th>`)
	tr := regexp.MustCompile(`(?s)<tr>(.*?)</tr>`)
	td := regexp.MustCompile(`(?s)<td[^>]*>(.*?)</td>`)
	table := func(start string) (string, string) {
		i := strings.Index(out, start)
		if i < 0 {
			return "", ""
		}
		rest := out[i:]
		end := strings.Index(rest, "</table>")
		body := rest[:end]
		j := strings.Index(body, "</thead>")
		return body[:j], body[j:]
	}
	h, body := table(`<table class="summary">`)
	for _, m := range th.FindAllStringSubmatch(h, -1) {
		head = append(head, text(m[1]))
	}
	for _, m := range tr.FindAllStringSubmatch(body, -1) {
		var row []string
		for _, c := range td.FindAllStringSubmatch(m[1], -1) {
			row = append(row, text(c[1]))
		}
		sum = append(sum, row)
	}
	_, body = table(`<thead><tr><th>Challenger</th><th>Rule</th><th>Quantity</th><th>Observed</th>`)
	for _, m := range tr.FindAllStringSubmatch(body, -1) {
		var row []string
		for _, c := range td.FindAllStringSubmatch(m[1], -1) {
			row = append(row, text(c[1]))
		}
		if len(row) == 5 { // the challenger's cell spans its rules
			row = append([]string{""}, row...)
		}
		// The quantity cell ends with its severity; the observed cell's
		// note is the unadjusted p-value.
		row[2] = strings.TrimSpace(strings.Split(row[2], "severity")[0])
		rules = append(rules, row)
	}
	return head, sum, rules
}
