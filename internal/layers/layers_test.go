package layers

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/riskgate/riskgate/"

// rank orders the packages as docs/architecture.md draws them: a package
// may import only packages of a lower rank (internal packages also each
// other). So the command line (gate) sits on everything and nothing imports
// it; calibrate and bench sit on the engine; the engine and the reports sit
// on result and never on each other; result sits on the numeric packages,
// of which bayes's hierarchical models sit on the sampler (bayes/mcmc) and
// the diagnostics (bayes/posterior), and the two-sample models on the
// diagnostics alone.
var rank = map[string]int{
	"gate/github/githubtest": 0, // a stand-in for GitHub, for tests
	"gate/ntcir":             0, // NTCIREVAL's measures (pure), under gate/trec
	"risk":                   1, "gate/trec": 1, "gate/github": 1,
	"bayes/posterior": 2, "gate/scores": 2, "gate/judgments": 2,
	"bayes/mcmc": 3, "bayes/twosample": 3,
	"bayes":    4,
	"policies": 5, "gate/pool": 5,
	"gate/result": 6,
	"gate/engine": 7, "gate/report": 7, "gate/compare": 7, "gate/discriminate": 7, "gate/fit": 7, "gate/pair": 7, "gate/classify": 7, "gate/diagnose": 7,
	"gate/calibrate": 8,
	"gate/bench":     9,
	"gate":           10,
	"cmd/riskgate":   11,
}

func rankOf(pkg string) (int, bool) {
	if strings.HasPrefix(pkg, "internal/") {
		return 0, true
	}
	r, ok := rank[pkg]
	return r, ok
}

// Every import of the module's own packages, in code and in tests, points
// to a lower rank; every package has a rank (a new one must be placed).
func TestImportsPointOneWay(t *testing.T) {
	root := filepath.Join("..", "..")
	checked := 0
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		from, ok := rankOf(pkg)
		if !ok {
			t.Errorf("package %s has no place in the layers (add it to rank and to docs/architecture.md)", pkg)
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !strings.HasPrefix(p, module) {
				continue
			}
			target := strings.TrimPrefix(p, module)
			if target == pkg {
				continue // an external test package of its own package
			}
			to, ok := rankOf(target)
			checked++
			switch {
			case !ok:
				t.Errorf("%s imports %s, which has no place in the layers", path, p)
			case to > from || (to == from && from != 0):
				t.Errorf("%s (rank %d) imports %s (rank %d): imports must point to a lower layer", path, from, p, to)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Errorf("only %d imports checked: is the module root right?", checked)
	}
}
