// Package suggest finds the word a mistyped one was likely meant to be, for
// the "did you mean" of every name riskgate is given: commands, flags,
// system names, measure names, policy keys, quantities and values. It is the
// one mechanism; a caller only phrases the message around its answer.
package suggest

import (
	"fmt"
	"strings"
)

// DidYouMean returns `; did you mean "x"?` for the valid word closest to
// word, when one is close enough to be a likely typo, and "" otherwise.
func DidYouMean(word string, valid []string) string {
	if s := Closest(word, valid); s != "" {
		return fmt.Sprintf("; did you mean %q?", s)
	}
	return ""
}

// Closest returns the valid word word is likely an abbreviation or a typo
// of, or "": the one valid word that word begins, ignoring case (an
// abbreviation such as --champ for --champion or --draws-o for --draws-out,
// at least minPrefix runes; none when several begin with it); else the valid
// word nearest to it by edit distance (ignoring case) when that distance is
// at most one edit per three runes of word.
func Closest(word string, valid []string) string {
	if len(word) > 100 {
		return "" // no typo of a key is this long; spare the quadratic distance
	}
	if s := uniqueExtension(word, valid); s != "" {
		return s
	}
	return closestByEdits(word, valid)
}

// minPrefix is the fewest runes an abbreviation has: "ch" or "p" could
// begin too many names to mean one.
const minPrefix = 3

// uniqueExtension returns the one valid word that begins with word (ignoring
// case), or "".
func uniqueExtension(word string, valid []string) string {
	if len([]rune(word)) < minPrefix {
		return ""
	}
	lw, found := strings.ToLower(word), ""
	for _, v := range valid {
		lv := strings.ToLower(v)
		if lv == lw || !strings.HasPrefix(lv, lw) || v == found {
			continue
		}
		if found != "" {
			return "" // several: no one name is meant
		}
		found = v
	}
	return found
}

func closestByEdits(word string, valid []string) string {
	best, bestDist := "", -1
	lw := strings.ToLower(word)
	for _, v := range valid {
		d := editDistance(lw, strings.ToLower(v))
		if bestDist < 0 || d < bestDist {
			best, bestDist = v, d
		}
	}
	// A typo changes a few characters: allow one edit per three, at least one.
	limit := max(1, len([]rune(word))/3)
	// A suggestion must keep part of the word: "x" is no typo of "a".
	if bestDist < 0 || bestDist > limit || bestDist >= len([]rune(word)) || best == word {
		return ""
	}
	return best
}

// editDistance is the optimal string alignment distance: insertions,
// deletions, substitutions and transpositions of adjacent runes each cost 1.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// Three rows suffice for the transposition lookback.
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
