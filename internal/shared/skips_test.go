package shared

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The line RunTests prints: the counts by what was missing, in a fixed order.
func TestSkipLine(t *testing.T) {
	skipped.Lock()
	saved := skipped.n
	skipped.n = map[Missing]int{MissingShared: 11, MissingR: 1}
	skipped.Unlock()
	t.Cleanup(func() { skipped.Lock(); skipped.n = saved; skipped.Unlock() })

	got := skipLine("github.com/riskgate/riskgate/risk")
	want := "SKIP\tgithub.com/riskgate/riskgate/risk\t12 reference tests did not run (1 without R, 11 without ../shared); " +
		"the suite is partial: see \"Tests\" in docs/architecture.md"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	skipped.Lock()
	skipped.n = map[Missing]int{}
	skipped.Unlock()
	if got := skipLine("x"); got != "" {
		t.Errorf("no skips: got %q, want no line", got)
	}
}

func TestPackageName(t *testing.T) {
	if got, want := packageName(), "github.com/riskgate/riskgate/internal/shared"; got != want {
		t.Errorf("packageName() = %q, want %q", got, want)
	}
}

// Every package whose tests use the reference material (internal/shared or
// internal/rdiff) reports its skips: its TestMain calls shared.RunTests, so
// that a plain go test never hides that a reference test did not run.
func TestEveryReferencePackageReportsSkips(t *testing.T) {
	root := filepath.Join("..", "..")
	uses := map[string]bool{}    // package folder → its tests import shared or rdiff
	reports := map[string]bool{} // package folder → a TestMain calls shared.RunTests
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
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		dir := filepath.Dir(path)
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p == "github.com/riskgate/riskgate/internal/shared" || p == "github.com/riskgate/riskgate/internal/rdiff" {
				uses[dir] = true
			}
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Name.Name != "TestMain" || fn.Recv != nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "RunTests" {
					if id, ok := sel.X.(*ast.Ident); ok && id.Name == "shared" {
						reports[dir] = true
					}
				}
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(uses) < 5 {
		t.Fatalf("only %d packages use the reference material: is the module root right?", len(uses))
	}
	for dir := range uses {
		if !reports[dir] {
			rel, _ := filepath.Rel(root, dir)
			t.Errorf("%s: its tests use the reference material but no TestMain calls shared.RunTests "+
				"(add func TestMain(m *testing.M) { os.Exit(shared.RunTests(m)) })", filepath.ToSlash(rel))
		}
	}
}
