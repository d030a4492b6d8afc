package pool

import (
	"fmt"
	"path"
	"time"
)

// PruneRule says which systems Prune selects: those that meet every
// criterion given (at least one must be). The current champion is never
// selected, nor counted by Keep.
type PruneRule struct {
	// Keep, when positive, keeps the Keep systems stored last (by the time
	// stored, then by name); the others meet the criterion.
	Keep int
	// OlderThan, when positive, selects systems stored more than OlderThan
	// before now.
	OlderThan time.Duration
	// Label, when not empty, selects systems whose label matches this
	// pattern (path.Match: *, ?, [a-z]).
	Label string
}

// Prune returns the entries rule selects, in their order. entries are a
// pool's, as Store.Entries orders them; champion is the current one.
func Prune(entries []*Entry, champion string, rule PruneRule, now time.Time) ([]*Entry, error) {
	if rule.Keep <= 0 && rule.OlderThan <= 0 && rule.Label == "" {
		return nil, fmt.Errorf("prune needs a criterion: --keep N, --older-than DURATION or --label PATTERN")
	}
	if _, err := path.Match(rule.Label, ""); err != nil {
		return nil, fmt.Errorf("--label %q: %v", rule.Label, err)
	}
	var candidates []*Entry
	for _, e := range entries {
		if e.System != champion {
			candidates = append(candidates, e)
		}
	}
	keepFrom := len(candidates) // candidates[keepFrom:] are the newest, kept
	if rule.Keep > 0 {
		keepFrom = max(0, len(candidates)-rule.Keep)
	}
	var out []*Entry
	for i, e := range candidates {
		if rule.Keep > 0 && i >= keepFrom {
			continue
		}
		if rule.OlderThan > 0 && !e.Stored.Before(now.Add(-rule.OlderThan)) {
			continue
		}
		if rule.Label != "" {
			if ok, _ := path.Match(rule.Label, e.Label); !ok {
				continue
			}
		}
		out = append(out, e)
	}
	return out, nil
}
