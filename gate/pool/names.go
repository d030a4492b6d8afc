package pool

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/riskgate/riskgate/gate/scores"
)

// Limits on the text an entry holds: names as the score loaders allow them
// (scores.MaxNameBytes), labels somewhat longer (a commit message's subject).
const (
	MaxLabelBytes = 1024
	// MaxFileBytes bounds an entry or lineage file that is read: a file
	// larger than this is refused before it is read whole, and a write that
	// would make one is refused too, so that every write can be read back.
	// 64 MiB holds 7,000 topics × 100 measures.
	MaxFileBytes = 64 << 20
)

// hashLen is how many hex digits of the name's SHA-256 a file name carries:
// 64 bits, so two names of a pool share a file name with probability about
// n²/2⁶⁵ (3·10⁻¹⁴ for 1,000 systems), and a shared name is still caught:
// the file holds its system's name, which a write and a read check.
const hashLen = 16

// slugLen bounds the readable part of a file name.
const slugLen = 40

// FileName is the name of the file that holds system's entry:
// "<slug>-<hash>.entry", where slug is the name's ASCII letters, digits, '-'
// and '_' (every other run of bytes becomes one '_', cut to 40 bytes;
// "system" when nothing is left) and hash the first 16 hex digits of the
// SHA-256 of the name's bytes. The slug makes a listing readable; the hash
// makes names differing only in case, punctuation or length different file
// names on every file system (case-insensitive ones, Windows' reserved CON
// or NUL, 255-byte limits). The name itself is stored inside the file, so it
// round-trips exactly.
func FileName(system string) string {
	return fileStem(system) + entryExt
}

// runFileName is the name of a kept run's copy in the runs folder.
func runFileName(system string) string {
	return fileStem(system) + runExt
}

func fileStem(system string) string {
	var b strings.Builder
	gap := false
	for i := 0; i < len(system) && b.Len() < slugLen; i++ {
		c := system[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' {
			if gap && b.Len() > 0 {
				b.WriteByte('_')
			}
			gap = false
			b.WriteByte(c)
			continue
		}
		gap = true
	}
	slug := b.String()
	if len(slug) > slugLen {
		slug = slug[:slugLen]
	}
	if slug == "" {
		slug = "system"
	}
	sum := sha256.Sum256([]byte(system))
	return slug + "-" + hex.EncodeToString(sum[:])[:hashLen]
}

// checkName says what is wrong with a system or topic name ("" when
// nothing): empty, not UTF-8, or longer than the loaders allow.
func checkName(kind, name string) string {
	switch {
	case strings.TrimSpace(name) == "":
		return fmt.Sprintf("empty %s; expected a name", kind)
	case !utf8.ValidString(name):
		return fmt.Sprintf("%s %q is not valid UTF-8", kind, name)
	case len(name) > scores.MaxNameBytes:
		return fmt.Sprintf("%s of %d bytes; expected at most %d", kind, len(name), scores.MaxNameBytes)
	}
	return ""
}

// checkMeasure says what is wrong with a measure's name ("" when nothing).
// The empty name is a measure: the one of score files that name none.
func checkMeasure(name string) string {
	switch {
	case !utf8.ValidString(name):
		return fmt.Sprintf("measure %q is not valid UTF-8", name)
	case len(name) > scores.MaxNameBytes:
		return fmt.Sprintf("measure of %d bytes; expected at most %d", len(name), scores.MaxNameBytes)
	}
	return ""
}

// checkLabel says what is wrong with a label ("" when nothing).
func checkLabel(label string) string {
	switch {
	case !utf8.ValidString(label):
		return fmt.Sprintf("label %q is not valid UTF-8", label)
	case len(label) > MaxLabelBytes:
		return fmt.Sprintf("label of %d bytes; expected at most %d", len(label), MaxLabelBytes)
	}
	return ""
}
