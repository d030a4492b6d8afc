package policies

import (
	"bytes"
	"sort"

	"gopkg.in/yaml.v3"
)

// blockContextErrors are yaml.v3's parser errors about a block mapping or
// sequence that meets a token it cannot hold: a key indented to no level of
// the blocks around it ("did not find expected key"), or a key where a
// sequence expects its next "- " item. yaml.v3 numbers them at the line
// where the block starts (its context mark), not at the token that is wrong
// (its problem mark, which the error leaves out): a key mis-indented on
// line 6 of a rule list that starts on line 4 is reported at line 4.
var blockContextErrors = []string{"did not find expected key", "did not find expected '-' indicator"}

// problemLine is the line of the token a block-context error is about: the
// first line from context on at which the document's first lines fail with
// the same error (yaml.v3's whole message, its context line with it). The
// lines before the wrong token parse, or fail otherwise (a block the
// truncation left open); with it, they fail as the whole file does — so a
// binary search finds it in log₂(lines) parses. When no such line is found
// (yaml.v3 reports something else for every prefix), it is context.
func problemLine(data []byte, context int, yamlMsg string) int {
	starts := lineStarts(data)
	if context < 1 || context > len(starts) {
		return context
	}
	fails := func(line int) bool { // the first line lines, as one document
		end := len(data)
		if line < len(starts) {
			end = starts[line]
		}
		var n yaml.Node
		err := decodePrefix(data[:end], &n)
		return err != nil && err.Error() == yamlMsg
	}
	// The smallest line in [context, len(starts)] whose prefix fails.
	i := sort.Search(len(starts)-context+1, func(i int) bool { return fails(context + i) })
	if i > len(starts)-context {
		return context
	}
	return context + i
}

// decodePrefix decodes the first document of data, recovering from a panic
// of yaml.v3 (a prefix is still untrusted input).
func decodePrefix(data []byte, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = nil
		}
	}()
	return yaml.NewDecoder(bytes.NewReader(data)).Decode(n)
}

// lineStarts are the byte offsets at which data's lines start.
func lineStarts(data []byte) []int {
	starts := []int{0}
	for i, b := range data {
		if b == '\n' && i+1 < len(data) {
			starts = append(starts, i+1)
		}
	}
	return starts
}
