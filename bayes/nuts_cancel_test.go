package bayes

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/riskgate/riskgate/bayes/mcmc"
)

// A cancelled context stops the sampler within a transition or so: the fit
// returns context.Canceled, promptly, however many draws it was asked for.
func TestFitHierCancelled(t *testing.T) {
	t.Parallel()
	tab := simulatedPool(45, 50)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err := FitHier(tab, HierOptions{Sampler: mcmc.NUTSOptions{Seed: 1, Draws: 20_000, Context: ctx}, TargetESS: 1e9})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("stopped after %v", el)
	}
}
