// Package inputerr is the one error type for bad input: a file (or flag), a
// position in it, and what was expected. Every parser in riskgate returns it,
// so every bad-input message has the same one-line shape:
//
//	rb04.csv:12: score "abc" is not a number
//	policy.yaml:7:3: unknown key "treshold" (valid: at_least, at_most, in)
//
// gate.Main prints it and exits with status 2.
package inputerr

import (
	"fmt"
	"strings"
)

// Error locates a problem in an input. Line and Column are 1-based; zero means
// unknown (the message then names only the file).
type Error struct {
	File   string
	Line   int
	Column int
	Msg    string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&b, ":%d", e.Column)
		}
	}
	if e.File != "" || e.Line > 0 {
		b.WriteString(": ")
	}
	// A message is one line by contract; fold any newline a caller let through.
	b.WriteString(strings.ReplaceAll(e.Msg, "\n", " "))
	return b.String()
}

// At returns an *Error at file:line with a formatted message.
func At(file string, line int, format string, args ...any) *Error {
	return &Error{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// AtCol returns an *Error at file:line:column with a formatted message.
func AtCol(file string, line, col int, format string, args ...any) *Error {
	return &Error{File: file, Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}
