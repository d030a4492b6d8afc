// Command riskgate decides whether a challenger ranker may replace the
// champion. All behaviour lives in package gate; main only wires the process
// to it.
package main

import (
	"context"
	"os"

	"github.com/riskgate/riskgate/gate"
)

func main() {
	os.Exit(gate.Main(context.Background(), os.Args, os.Stdin, os.Stdout, os.Stderr))
}
