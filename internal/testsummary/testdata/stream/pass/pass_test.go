// A package that passes with a skip, and whose TestMain prints a line.
package pass

import (
	"fmt"
	"os"
	"testing"
)

func TestPasses(t *testing.T) {}

func TestNeedsReference(t *testing.T) {
	t.Skip("reference material ../shared is absent (a fresh clone)")
}

func TestMain(m *testing.M) {
	code := m.Run()
	fmt.Println("SKIP\tstream/pass\t1 reference test did not run")
	os.Exit(code)
}
