// Package linelimit is the one bound on the length of a line of every text
// input riskgate reads — score files, TREC runs and qrels, in riskgate gate
// and riskgate eval alike — so that an input with no line ending (/dev/zero,
// a file of one 3 GB line) is refused after at most about Max bytes of it
// are held, never read whole into memory.
package linelimit

import "fmt"

// Max is the longest line, in bytes without its line ending, that an input
// may have: no real score, run or qrels line comes near it (a run line is
// about 40 bytes; a wide CSV row of 10,000 systems about 200 kB).
const Max = 16 << 20

// Error is a line longer than Max.
type Error struct {
	Line int // its 1-based number in the file (0 when unknown)
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, Message)
	}
	return Message
}

// Message says what is wrong, as an input error's message after file:line
// (16 MB is Max: TestMessageNamesMax).
const Message = "line longer than 16 MB; expected one record per line"
