// Command riskgate decides whether a challenger ranker may replace the
// champion. All behaviour lives in package gate; main only wires the process
// to it: its arguments and streams, and SIGINT and SIGTERM, which cancel the
// run (gate.Main then exits 130 with one line saying so).
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/riskgate/riskgate/gate"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := gate.Main(ctx, os.Args, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
