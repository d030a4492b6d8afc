package github

import (
	"fmt"
	"io"
	"strings"
)

// Secret is a credential. It prints as "[redacted]" whatever the verb, and
// marshals to JSON the same way, so that logging an Env never shows it.
type Secret string

const redacted = "[redacted]"

func (Secret) String() string               { return redacted }
func (Secret) GoString() string             { return redacted }
func (Secret) Format(f fmt.State, _ rune)   { io.WriteString(f, redacted) }
func (Secret) MarshalJSON() ([]byte, error) { return []byte(`"` + redacted + `"`), nil }
func (s Secret) reveal() string             { return string(s) }
func (s Secret) set() bool                  { return s != "" }

// minRedactLen: shorter values are not scrubbed from text, where replacing
// them would mangle ordinary words; real tokens are 40 characters or more.
const minRedactLen = 8

// scrub replaces every occurrence of the secret in s.
func (s Secret) scrub(text string) string {
	if len(s) < minRedactLen {
		return text
	}
	return strings.ReplaceAll(text, string(s), redacted)
}
