package suggest

import (
	"slices"
	"strings"
	"testing"
)

// The cases are the mistakes issue 30 (item 5) and the policy tests name:
// a typo gets the nearest name, an abbreviation the one name it begins, and
// a word like no name (or the start of several) nothing.
func TestClosest(t *testing.T) {
	flags := []string{"champion", "challenger", "loss-weight", "alpha", "policy", "seed", "help"}
	commands := []string{"eval", "compare", "fit", "diagnose", "simulate", "pair", "classify", "gate", "policy", "publish",
		"calibrate", "bench", "help", "version", "completion"}
	systems := []string{"Champion", "Chal. 1", "Chal. 2", "Chal. 3", "Chal. 4", "input.fub04De"}
	for _, c := range []struct {
		word  string
		valid []string
		want  string
	}{
		{"champ", flags, "champion"},          // gate --champ X: an abbreviation
		{"chmpion", flags, "champion"},        // a typo
		{"loss-weigth", flags, "loss-weight"}, // a transposition
		{"challeng", flags, "challenger"},
		{"draws-o", []string{"draws", "draws-out", "warmup"}, "draws-out"}, // an abbreviation before a typo of another
		{"ch", flags, ""},                                                  // too short to mean one
		{"cha", flags, ""},                                                 // begins champion and challenger
		{"zzzzzz", flags, ""},
		{"gat", commands, "gate"},
		{"valid", []string{"validate", "explain", "schema", "init"}, "validate"},
		{"comp", commands, ""}, // compare or completion
		{"Champio", systems, "Champion"},
		{"champion", systems, "Champion"}, // case
		{"Chal", systems, ""},             // four challengers begin so
		{"Chal 1", systems, "Chal. 1"},
		{"x", systems, ""},
		{"Champion", systems, ""}, // a valid word is no mistake
	} {
		if got := Closest(c.word, c.valid); got != c.want {
			t.Errorf("Closest(%q) = %q, want %q", c.word, got, c.want)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	if got := DidYouMean("Champio", []string{"Champion", "Chal. 1"}); got != `; did you mean "Champion"?` {
		t.Errorf("got %q", got)
	}
	if got := DidYouMean("zzz", []string{"Champion"}); got != "" {
		t.Errorf("got %q", got)
	}
}

func BenchmarkClosest(b *testing.B) {
	valid := make([]string, 1000)
	for i := range valid {
		valid[i] = "input.system-" + string(rune('a'+i%26)) + string(rune('a'+i/26%26))
	}
	for b.Loop() {
		Closest("input.systme-qq", valid)
	}
}

// Any word, against any names: no panic, and the answer is "" or one of the
// names, never the word itself.
func FuzzClosest(f *testing.F) {
	f.Add("champ", "champion\nchallenger")
	f.Add("Champio", "Champion\nChal. 1\nChal. 2")
	f.Add("", "")
	f.Add("é\x00", "é\x00x\n\xff")
	f.Fuzz(func(t *testing.T, word, names string) {
		valid := strings.Split(names, "\n")
		got := Closest(word, valid)
		if got != "" && (!slices.Contains(valid, got) || got == word) {
			t.Errorf("Closest(%q, %q) = %q", word, valid, got)
		}
	})
}
