// Package shared locates and reads the developers' reference material
// (../shared beside the checkout) for tests. The material is third-party and
// is never copied into the repository, so a test that needs it skips on a
// fresh clone.
package shared

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Root returns the absolute path of the shared folder, or "" when it is absent.
// RISKGATE_SHARED overrides the default location (../shared beside the module root).
func Root() string {
	if dir := os.Getenv("RISKGATE_SHARED"); dir != "" {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			return dir
		}
		return ""
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	// file is <module>/internal/shared/shared.go.
	module := filepath.Dir(filepath.Dir(filepath.Dir(file)))
	dir := filepath.Join(filepath.Dir(module), "shared")
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
		return dir
	}
	return ""
}

// Path returns the path of rel inside the shared folder, skipping the test with
// a clear message when the folder or the file is absent.
func Path(tb testing.TB, rel string) string {
	tb.Helper()
	root := Root()
	if root == "" {
		Skip(tb, MissingShared, fmt.Sprintf("reference material ../shared is absent (a fresh clone); skipping a test that needs %s", rel))
	}
	p := filepath.Join(root, rel)
	if _, err := os.Stat(p); err != nil {
		Skip(tb, MissingShared, fmt.Sprintf("reference file %s is absent: %v", p, err))
	}
	return p
}
