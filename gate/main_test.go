package gate

import (
	"bytes"
	"context"
	"flag"
	"strings"
	"testing"
)

// update makes the golden-file tests of package gate rewrite testdata/*.golden:
// go test ./gate -run X -update.
var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// runMain runs riskgate with args (without the program name) and empty
// standard input, and returns its exit status, stdout and stderr.
func runMain(t *testing.T, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	return runMainWithStdin(t, "", args...)
}

// runMainWithStdin is runMain with stdin as standard input.
func runMainWithStdin(t *testing.T, stdin string, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	var out, errw bytes.Buffer
	status = Main(context.Background(), append([]string{"riskgate"}, args...), strings.NewReader(stdin), &out, &errw)
	return status, out.String(), errw.String()
}
