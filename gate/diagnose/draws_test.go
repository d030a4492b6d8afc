package diagnose

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/bayes/posterior"
	"github.com/riskgate/riskgate/internal/inputerr"
)

// Rows in any order, posterior's .chain/.iteration/.draw names, quoted fields,
// comments, a byte-order mark, NA/Inf values and iterations not starting at 1.
func TestReadDrawsLayouts(t *testing.T) {
	in := "\uFEFF.draw,\".iteration\",mu,.chain,tau\n" +
		"# a comment\n" +
		"4,1002,3,2,NA\n" +
		"1,1001,1,1,Inf\n" +
		"3,1001,2.5,2,-inf\n" +
		"2,1002, 2 ,1,1e308\n"
	d, err := Read(strings.NewReader(in), "x.csv")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(d.Variables, ",") != "mu,tau" || len(d.Chains) != 2 || d.Chains[0] != 1 || d.Chains[1] != 2 || d.Iterations != 2 {
		t.Fatalf("got %+v", d)
	}
	mu := d.Values[0]
	if mu[0][0] != 1 || mu[0][1] != 2 || mu[1][0] != 2.5 || mu[1][1] != 3 {
		t.Errorf("mu = %v", mu)
	}
	tau := d.Values[1]
	if !math.IsInf(tau[0][0], 1) || tau[0][1] != 1e308 || !math.IsInf(tau[1][0], -1) || !math.IsNaN(tau[1][1]) {
		t.Errorf("tau = %v", tau)
	}
}

// FuzzReadDraws: whatever the bytes, Read returns draws of a consistent
// shape or a one-line *inputerr.Error with a line number, never panics, and
// the draws it returns can be summarised.
func FuzzReadDraws(f *testing.F) {
	for _, s := range []string{
		"chain,iteration,mu\n1,1,0.5\n1,2,0.7\n2,1,0.1\n2,2,NA\n",
		"chain,iteration,a,b\n2,2,1,2\n1,1,3,4\n2,1,5,6\n1,2,7,8\n",
		".chain,.iteration,.draw,x\n1,1,1,1e300\n1,2,2,-Inf\n",
		"chain,iteration,mu\n1,1,0\n1,3,0\n",
		"chain,iteration,mu\n1,1,0\n1,1,0\n",
		"chain,iteration,mu\n1,1,\"0.5\n",
		"chain,iteration,mu\n1,1\n",
		"# c\nchain,iteration,\"a,b\"\n1,1,2\n",
		"",
		"\uFEFFchain,iteration,mu\n-3,-7,1\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Read(strings.NewReader(string(data)), "f.csv")
		if err != nil {
			var ie *inputerr.Error
			if !errors.As(err, &ie) || ie.Line < 1 || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q is not a one-line input error with a line", err)
			}
			return
		}
		if len(d.Variables) == 0 || len(d.Chains) == 0 || d.Iterations == 0 || len(d.Values) != len(d.Variables) {
			t.Fatalf("inconsistent draws %+v", d)
		}
		for _, v := range d.Values {
			if len(v) != len(d.Chains) {
				t.Fatalf("variable with %d chains, want %d", len(v), len(d.Chains))
			}
			for _, c := range v {
				if len(c) != d.Iterations {
					t.Fatalf("chain of %d iterations, want %d", len(c), d.Iterations)
				}
			}
		}
		posterior.SummarizeAll(d.Values, 1)
	})
}

// Reading 20 variables × 4 chains × 1,000 draws (shuffled rows).
func BenchmarkReadDraws(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("chain,iteration")
	for v := range 20 {
		fmt.Fprintf(&sb, ",v%d", v)
	}
	sb.WriteByte('\n')
	r := rand.New(rand.NewPCG(1, 1))
	for _, k := range r.Perm(4000) {
		fmt.Fprintf(&sb, "%d,%d", k/1000+1, k%1000+1)
		for range 20 {
			fmt.Fprintf(&sb, ",%.15g", r.NormFloat64())
		}
		sb.WriteByte('\n')
	}
	data := sb.String()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for range b.N {
		if _, err := Read(strings.NewReader(data), "bench.csv"); err != nil {
			b.Fatal(err)
		}
	}
}
