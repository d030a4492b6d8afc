package trec

import (
	"strings"
	"testing"
)

// TestMeasureSyntax: one measure syntax. trec_eval's -m spelling of one value
// and the name trec_eval prints for it name the same measure, everywhere.
func TestMeasureSyntax(t *testing.T) {
	t.Parallel()
	for _, c := range [][2]string{
		{"ndcg_cut.10", "ndcg_cut_10"}, {"ndcg_cut_10", "ndcg_cut_10"}, {"P.5", "P_5"}, {"P_5", "P_5"},
		{"map", "map"}, {"recall.100", "recall_100"}, {"map_cut.5", "map_cut_5"}, {"success.1", "success_1"},
		{"iprec_at_recall_0.10", "iprec_at_recall_0.10"}, {"", ""},
		{"ERR@20", "ERR@20"}, {"f1", "f1"}, // no trec_eval measure: a score file's own name, unchanged
	} {
		if got := MeasureName(c[0]); got != c[1] {
			t.Errorf("MeasureName(%q) = %q, want %q", c[0], got, c[1])
		}
	}
	for _, bad := range []struct{ name, want string }{
		{"ndcg_cut.5,10", "names 2 values"},
		{"ndcg_kut.10", `did you mean "ndcg_cut.10"?`},
		{"ndcg_kut_10", `did you mean "ndcg_cut_10"?`},
		{"mpa", `did you mean "map"?`},
		{"gm_map.1", "no per-topic value"},
	} {
		_, err := MeasureForName(bad.name)
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("MeasureForName(%q): %v, want an error containing %q", bad.name, err, bad.want)
		}
	}
	// eval -m takes the printed name as an alias of its -m spelling.
	for alias, spec := range map[string]string{"ndcg_cut_10": "ndcg_cut.10", "P_5": "P.5", "map_cut_100": "map_cut.100"} {
		a, errA := ParseMeasures([]string{alias})
		s, errS := ParseMeasures([]string{spec})
		if errA != nil || errS != nil || len(a.List()) != 1 || strings.Join(a.list[0].names, ",") != strings.Join(s.list[0].names, ",") {
			t.Errorf("-m %s: %v %v; want the values of -m %s", alias, a, errA, spec)
		}
	}
}

// FuzzMeasureName: any name is read without a panic, and the printed name
// is a fixed point (naming the value again names the same value).
func FuzzMeasureName(f *testing.F) {
	for _, s := range []string{"ndcg_cut.10", "ndcg_cut_10", "P.5", "map", "iprec_at_recall_0.10", "utility.2,-1,0,0", "ndcg.1=3,2=9", "P.", "x.y", "",
		"nDCG@10", "AP@5", "IPrec@0.1", "Q(beta=2)", "ntcir:AP(condensed=true)@10", "nERR(gains=1:3)@0020", "ERR@20", "ntcir:", "judged@10", "Judged@0010", "judged"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if len(name) > 200 {
			return
		}
		got := MeasureName(name)
		if again := MeasureName(got); again != got {
			t.Errorf("MeasureName(%q) = %q, but MeasureName(%q) = %q", name, got, got, again)
		}
		_, _ = MeasureForName(name)
	})
}
