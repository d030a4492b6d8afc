package risk

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/shared"
)

// Per-segment references (issue 26, "Done when" 1): rb04 cut by topic
// origin — 301–450 from the TREC 6–8 ad hoc tracks (30 topics), 601–650 new
// in Robust 2003 (10), 651–700 new in Robust 2004 (10) — every system against
// Champion within each origin, by testdata/rb04_segments/rb04_segments_ref.R
// (R 4.2, boot 1.3-28.1) into ttest.csv and bca.csv; the script says how to
// regenerate them. The labels are derived here from the topic numbers (the
// script checks the same rule against ../shared's rb04_topics.csv).
const rb04Segments = "testdata/rb04_segments"

// rb04Origin is the origin of an rb04 topic ("t_301") from its number.
func rb04Origin(t testing.TB, topic string) string {
	t.Helper()
	n, err := strconv.Atoi(strings.TrimPrefix(topic, "t_"))
	switch {
	case err != nil:
		t.Fatalf("rb04 topic %q has no number", topic)
	case n >= 301 && n <= 450:
		return "trec6-8"
	case n >= 601 && n <= 650:
		return "robust03"
	case n >= 651 && n <= 700:
		return "robust04"
	}
	t.Fatalf("rb04 topic %q is in no origin", topic)
	return ""
}

// segmentPair is system's pair against Champion on the topics of origin,
// in topic order (R's sort of the same names).
func (d rb04) segmentPair(t testing.TB, system, origin string) Pair {
	t.Helper()
	x, base := d.Scores[system], d.Scores["Champion"]
	if x == nil {
		t.Fatalf("rb04 has no system %q", system)
	}
	var p Pair
	for i, topic := range d.Topics {
		if rb04Origin(t, topic) == origin {
			p.X, p.Base = append(p.X, x[i]), append(p.Base, base[i])
		}
	}
	return p
}

func segmentRecords(t testing.TB, name string) []map[string]string {
	t.Helper()
	rows := shared.Records(t, rb04Segments+"/"+name)
	if len(rows) == 0 {
		t.Fatalf("%s/%s has no rows", rb04Segments, name)
	}
	return rows
}

// TestSegmentPairedTAgainstR: Student's paired t test on each origin's
// topics equals R's t.test(x, champion, paired = TRUE) — t, df, the
// two-sided, "less" and "greater" p-values — to 1e-12 relative (the same
// data and formula: what is left is rounding), for 44 systems × 3 origins;
// and the harm test of margin 0.02, R's t.test(..., mu = -0.02,
// alternative = "less"), as the paired t of d + 0.02 (the design's test of
// d + δ), t and p to 1e-12 relative as well.
func TestSegmentPairedTAgainstR(t *testing.T) {
	t.Parallel()
	d := loadRB04(t)
	rows := segmentRecords(t, "ttest.csv")
	if len(rows) != 44*3 {
		t.Fatalf("ttest.csv has %d rows, want 44 systems × 3 origins", len(rows))
	}
	const margin = 0.02
	var dev worst
	seen := map[string]int{}
	for _, row := range rows {
		p := d.segmentPair(t, row["system"], row["origin"])
		if n, _ := strconv.Atoi(row["topics"]); n != len(p.X) {
			t.Fatalf("%s in %s: %d topics here, R %d", row["system"], row["origin"], len(p.X), n)
		}
		seen[row["origin"]] = len(p.X)
		tt, err := p.PairedT(0.95)
		if err != nil {
			t.Fatal(err)
		}
		harm, err := shiftedPair(p, margin).PairedT(0.95)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			col string
			got float64
		}{
			{"mean_diff", tt.Estimate}, {"t", tt.T}, {"df", tt.DF}, {"p", tt.P},
			{"p_less", tt.PLess}, {"p_greater", tt.PGreater},
			{"harm_t", harm.T}, {"harm_p_less", harm.PLess},
		} {
			what := fmt.Sprintf("%s in %s: %s", row["system"], row["origin"], c.col)
			want := shared.ParseFloat(t, row[c.col])
			if e := dev.rel(what, c.got, want); e > 1e-12 {
				t.Errorf("%s = %.17g, R %.17g (rel. %.2g)", what, c.got, want, e)
			}
		}
	}
	if seen["trec6-8"] != 30 || seen["robust03"] != 10 || seen["robust04"] != 10 {
		t.Errorf("origins' sizes %v, want trec6-8 30, robust03 10, robust04 10", seen)
	}
	t.Logf("worst relative deviation from R over %d rows: %.2g (%s)", len(rows), dev.dev, dev.what)
}

// shiftedPair is p with margin added to every difference (X + margin
// against Base), whose paired t test is R's t.test(x, base, paired = TRUE,
// mu = -margin).
func shiftedPair(p Pair, margin float64) Pair {
	d := p.Deltas()
	for i := range d {
		d[i] += margin
	}
	return Pair{X: d, Base: make([]float64, len(d))}
}

// TestSegmentBCaAgainstR: the 95% BCa interval of URisk at loss weights 1
// and 5 on each origin's topics (Pair.BCa, B = 1e5) against R's
// boot(R = 1e5) + boot.ci(type = "bca"). The estimate (the URisk) agrees to
// 1e-12 relative; the ends are two independent bootstraps of the same
// statistic (R's random stream is not reproduced), so each may differ by
// Monte Carlo error: the script records each R end's Monte Carlo standard
// error s (the order statistic's binomial error plus that of z0, through
// the replicates' quantile density; see the script), the Go end has the same
// (same B and method), and their difference has standard error √2·s. The
// tolerance is 5·√2·s: over the 528 ends compared, a false failure has
// probability about 528 × 5.7e-7 ≈ 3e-4 if s is right (at 4·√2·s it would
// be 3%). The recorded s is conservative (its two terms added, not in
// quadrature): for 16 ends of 8 rows, the standard deviation of Go's end
// over 60 seeds was 0.6–1.0 times s. On the stored references the largest
// |Go − R| is 2.0·√2·s. -short bootstraps the four "Chal." systems only.
func TestSegmentBCaAgainstR(t *testing.T) {
	t.Parallel()
	d := loadRB04(t)
	rows := segmentRecords(t, "bca.csv")
	if len(rows) != 44*3*2 {
		t.Fatalf("bca.csv has %d rows, want 44 systems × 3 origins × 2 loss weights", len(rows))
	}
	var dev, est worst
	compared := 0
	for _, row := range rows {
		if testing.Short() && !strings.HasPrefix(row["system"], "Chal. ") {
			continue
		}
		w := shared.ParseFloat(t, row["loss_weight"])
		p := d.segmentPair(t, row["system"], row["origin"])
		b, err := p.BCa(w, BootstrapOptions{B: 100_000, Level: 0.95, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		what := fmt.Sprintf("%s in %s at w = %v", row["system"], row["origin"], w)
		if e := est.rel(what, b.Estimate, shared.ParseFloat(t, row["urisk"])); e > 1e-12 {
			t.Errorf("%s: URisk %.17g, R %s (rel. %.2g)", what, b.Estimate, row["urisk"], e)
		}
		for _, end := range []struct {
			name, col, se string
			got           float64
		}{{"lower", "lo", "lo_mcse", b.BCa.Lo}, {"upper", "hi", "hi_mcse", b.BCa.Hi}} {
			want, s := shared.ParseFloat(t, row[end.col]), shared.ParseFloat(t, row[end.se])
			if !(s > 0) {
				t.Fatalf("%s: %s = %v, want a positive standard error", what, end.se, s)
			}
			tol := 5 * math.Sqrt2 * s
			diff := math.Abs(end.got - want)
			dev.abs(what+" "+end.name+" (in units of √2·s)", diff/(math.Sqrt2*s), 0)
			if diff > tol {
				t.Errorf("%s: BCa %s end %.6f, R %.6f: |Δ| = %.2g > 5·√2·MCSE = %.2g", what, end.name, end.got, want, diff, tol)
			}
			compared++
		}
	}
	t.Logf("%d BCa ends compared; largest |Go − R| %.2f combined Monte Carlo SEs (%s); URisk worst rel. %.2g",
		compared, dev.dev, dev.what, est.dev)
}
