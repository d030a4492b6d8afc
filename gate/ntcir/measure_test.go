package ntcir

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestParseNames(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"Q", "Q"},
		{"Q-measure", "Q"},
		{"P-plus", "P+"},
		{"P+", "P+"},
		{"O-measure", "O-measure"},
		{"NCUrb,BR", "NCUrb,BR"},
		{"nERR@10", "nERR@10"},
		{"AP@0010", "AP@10"}, // ntcir_eval pads cutoffs to 4 digits
		{"Q(beta=1)", "Q"},   // defaults are not spelled
		{"Q(beta=10)", "Q(beta=10)"},
		{"Q(condensed=true,beta=0.5)", "Q(beta=0.5,condensed=true)"},
		{"RBP(p=0.8)", "RBP(p=0.8)"},
		{"nDCG(b=10,gains=1:3:7)@5", "nDCG(gains=1:3:7,b=10)@5"},
		{"nERR(gains=1:2)@20", "nERR(gains=1:2)@20"},
		{"NCUrb,P(p=0.5)", "NCUrb,P(p=0.5)"},
		{"Hit(condensed=false)@1", "Hit@1"},
	} {
		m, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if got := m.String(); got != c.want {
			t.Errorf("Parse(%q).String() = %q, want %q", c.in, got, c.want)
		}
		again, err := Parse(m.String())
		if err != nil || !reflect.DeepEqual(again, m) {
			t.Errorf("Parse(%q) does not read back: %+v, %v", m.String(), again, err)
		}
	}
	for _, m := range All(10) {
		again, err := Parse(m.String())
		if err != nil || !reflect.DeepEqual(again, m) {
			t.Errorf("%s does not read back: %+v, %v", m, again, err)
		}
	}
}

// Bad parameters: one line naming the parameter and what it must be.
func TestParseBadParameters(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"Q(beta=0)", "beta = 0; expected a number > 0"},
		{"Q(beta=-1)", "beta = -1; expected a number > 0"},
		{"Q(beta=x)", `beta "x" is not a number`},
		{"Q(beta=NaN)", `beta "NaN" is not a number`},
		{"RBP(p=1)", "persistence p = 1; expected 0 < p < 1"},
		{"RBP(p=0)", "persistence p = 0; expected 0 < p < 1"},
		{"RBP(p=1.5)", "persistence p = 1.5; expected 0 < p < 1"},
		{"NCUrb,P(p=-0.1)", "persistence p = -0.1; expected 0 < p < 1"},
		{"nDCG(b=1)@10", "log base b = 1; expected a number > 1"},
		{"nERR@0", `cutoff "0": 0 ranks measure nothing; expected a whole number ≥ 1`},
		{"nERR@-1", `cutoff "-1": not a whole number`},
		{"nERR@", `cutoff "": empty`},
		{"nERR@99999999999", `cutoff "99999999999": too large`},
		{"nERR", "nERR needs a cutoff; expected nERR@k"},
		{"Q@10x", `cutoff "10x": not a whole number`},
		{"RBP@10", "RBP takes no cutoff"},
		{"Q(gains=1:0:3)", "gains \"1:0:3\": level 2's gain is 0; expected a positive number"},
		{"Q(gains=1:-2:3)", "level 2's gain is -2"},
		{"Q(gains=1:two:3)", `level 2's gain "two" is not a number`},
		{"Q(gains=3:2)", "level 2 gains 2, less than level 1's 3"},
		{"Q(gains=)", "gains: empty"},
		{"Q(gains=1::3)", `level 2's gain "" is not a number`},
		{"Q(p=0.5)", "Q takes no parameter p; it takes gains, beta, condensed"},
		{"RR(beta=2)", "RR takes no parameter beta"},
		{"Q(alpha=2)", `unknown parameter "alpha"`},
		{"Q(beta)", `parameter "beta": expected key=value`},
		{"Q(beta=2,beta=3)", `parameter "beta" given twice`},
		{"Q()", "empty parameter list"},
		{"Q(condensed=yes)", `condensed "yes": expected true or false`},
	} {
		_, err := Parse(c.in)
		if err == nil {
			t.Errorf("Parse(%q) accepted", c.in)
			continue
		}
		if errors.Is(err, ErrNotNTCIR) {
			t.Errorf("Parse(%q): %v; expected a parameter error, not 'no such measure'", c.in, err)
		}
		if !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Parse(%q) = %q, want one line containing %q", c.in, err, c.want)
		}
	}
	for _, name := range []string{"map", "ndcg_cut.10", "Q(beta=2", "", "q", "nDCG"} {
		if _, err := Parse(name); err == nil || (name != "nDCG" && !errors.Is(err, ErrNotNTCIR)) {
			t.Errorf("Parse(%q) = %v; expected no NTCIREVAL measure", name, err)
		}
	}
}

func TestParseGains(t *testing.T) {
	t.Parallel()
	g, err := ParseGains("1:2.5:2.5:10")
	if err != nil || !reflect.DeepEqual(g, []float64{1, 2.5, 2.5, 10}) {
		t.Fatalf("ParseGains = %v, %v", g, err)
	}
	if s := FormatGains(g); s != "1:2.5:2.5:10" {
		t.Errorf("FormatGains = %q", s)
	}
	for _, bad := range []string{"0", "1:2:0", "1,2,3", "1:inf", "0x1:2", "1e400", "1:2:", "1_0"} {
		if _, err := ParseGains(bad); err == nil {
			t.Errorf("ParseGains(%q) accepted", bad)
		}
	}
}

// FuzzParse: no input panics; a name read is printed in one spelling that
// reads back to the same measure, with valid parameters.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"Q", "P+", "nERR@10", "Q(beta=10,gains=1:2:3)", "RBP(p=0.8)", "nDCG(b=10)@5",
		"NCUgu,BR", "AP(condensed=true)@0010", "Q(", "@", "(=)@1", "Q(gains=1:2:3:4:5:6:7)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		m, err := Parse(name)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("Parse(%q): error of several lines: %q", name, err)
			}
			return
		}
		if m.Beta <= 0 || !(m.Persistence > 0 && m.Persistence < 1) || m.LogBase <= 1 ||
			(m.HasCutoff() && m.Cutoff < 1) || (!m.HasCutoff() && m.Cutoff != 0) {
			t.Fatalf("Parse(%q) = %+v: invalid parameters", name, m)
		}
		for i, g := range m.Gains {
			if !(g > 0) || math.IsInf(g, 0) || (i > 0 && g < m.Gains[i-1]) {
				t.Fatalf("Parse(%q): gains %v", name, m.Gains)
			}
		}
		s := m.String()
		again, err := Parse(s)
		if err != nil {
			t.Fatalf("Parse(%q) = %s, which does not read back: %v", name, s, err)
		}
		if again.String() != s {
			t.Fatalf("Parse(%q) = %s, read back as %s", name, s, again)
		}
	})
}

// FuzzParseGains: no input panics; gains read are positive, finite, do not
// decrease, and print back to a list that reads the same.
func FuzzParseGains(f *testing.F) {
	for _, s := range []string{"1:2:3", "1", "0.5:0.5", "3:2", "1::2", "1e308:1e308", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ParseGains(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("ParseGains(%q): error of several lines", s)
			}
			return
		}
		for i, v := range g {
			if !(v > 0) || math.IsInf(v, 0) || (i > 0 && v < g[i-1]) {
				t.Fatalf("ParseGains(%q) = %v", s, g)
			}
		}
		again, err := ParseGains(FormatGains(g))
		if err != nil || !reflect.DeepEqual(again, g) {
			t.Fatalf("ParseGains(%q) = %v prints as %q, which reads %v, %v", s, g, FormatGains(g), again, err)
		}
	})
}
