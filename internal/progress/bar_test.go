package progress

import (
	"testing"
	"time"
)

func TestBar(t *testing.T) {
	// 5 of 20 in 10 s: a quarter of the bar, 15 left at 2 s each.
	if got, want := Bar("deciding", 5, 20, 10*time.Second), "deciding [#####...............]  25% (5 of 20), about 30s left"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := Bar("deciding", 2500, 2500, time.Minute), "deciding [####################] 100% (2,500 of 2,500)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
