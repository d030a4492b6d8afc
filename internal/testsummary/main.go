// Command testsummary reads `go test -json` on standard input, prints what a
// plain `go test` would (each package's result line, and the whole output of
// a failed test or package), and ends with one summary of the tests that
// skipped: each with its package and the reason it gave. .ci/run pipes the
// suite through it, so that a contributor sees what did not run:
//
//	set -o pipefail
//	go test -json ./... | go run ./internal/testsummary
//
// Its exit status is 0 whatever the tests did (the pipeline's status is go
// test's, under pipefail); 2 when standard input cannot be read.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

func main() {
	if err := summarize(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		os.Exit(2)
	}
}

// event is one line of go test -json (cmd/test2json's TestEvent).
type event struct {
	Action     string
	Package    string
	Test       string
	Output     string
	ImportPath string // build-output and build-fail events name the package being built
}

// skip is one skipped test and the reason it logged.
type skip struct {
	pkg, test, reason string
}

// summary follows the stream: per package, the output not attributed to a
// test and each top-level test's output (its subtests' included) until the
// test ends.
type summary struct {
	w       io.Writer
	pkgOut  map[string][]string
	testOut map[string]map[string][]string // package → top-level test → its and its subtests' lines
	ownOut  map[string][]string            // package + "\x00" + test → the test's own lines
	skips   []skip
	failed  int
	tests   int
}

func summarize(r io.Reader, w io.Writer) error {
	s := &summary{w: w, pkgOut: map[string][]string{}, testOut: map[string]map[string][]string{}, ownOut: map[string][]string{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<26)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			fmt.Fprintf(w, "%s\n", line) // not an event (go vet's or the go command's own lines)
			continue
		}
		s.add(e)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	s.writeSkips()
	return nil
}

func (s *summary) add(e event) {
	switch e.Action {
	case "build-output":
		fmt.Fprint(s.w, e.Output)
		return
	case "output":
		if e.Test == "" {
			s.pkgOut[e.Package] = append(s.pkgOut[e.Package], e.Output)
			return
		}
		top, _, _ := strings.Cut(e.Test, "/")
		if s.testOut[e.Package] == nil {
			s.testOut[e.Package] = map[string][]string{}
		}
		s.testOut[e.Package][top] = append(s.testOut[e.Package][top], e.Output)
		s.ownOut[e.Package+"\x00"+e.Test] = append(s.ownOut[e.Package+"\x00"+e.Test], e.Output)
		return
	case "pass", "fail", "skip":
	default:
		return
	}
	if e.Test == "" { // the package's end
		s.endPackage(e)
		return
	}
	s.tests++
	if e.Action == "fail" {
		s.failed++
	}
	own := e.Package + "\x00" + e.Test
	if e.Action == "skip" {
		s.skips = append(s.skips, skip{e.Package, e.Test, skipReason(s.ownOut[own])})
	}
	delete(s.ownOut, own)
	if e.Test != topName(e.Test) {
		return // a subtest: its lines stay with its top-level test's
	}
	if e.Action == "fail" {
		fmt.Fprint(s.w, strings.Join(s.testOut[e.Package][e.Test], ""))
	}
	delete(s.testOut[e.Package], e.Test)
}

// endPackage prints a package's own lines: all of them when it failed (a
// panic, a timeout, a build error), else all but go test's "PASS" and
// "no tests to run" (the result line, and what a TestMain printed).
func (s *summary) endPackage(e event) {
	lines := s.pkgOut[e.Package]
	delete(s.pkgOut, e.Package)
	if e.Action == "fail" {
		// Output of tests still running when the package failed (a
		// timeout or a panic stops them).
		for test, out := range s.testOut[e.Package] {
			fmt.Fprintf(s.w, "%s (unfinished):\n%s", test, strings.Join(out, ""))
		}
		fmt.Fprint(s.w, strings.Join(lines, ""))
	} else {
		for _, l := range lines {
			if l != "PASS\n" && l != "testing: warning: no tests to run\n" {
				fmt.Fprint(s.w, l)
			}
		}
	}
	delete(s.testOut, e.Package)
}

func topName(test string) string {
	top, _, _ := strings.Cut(test, "/")
	return top
}

// skipReason is the t.Skip message among a skipped test's own lines: the
// last message logged ("    file.go:12: text", continuation lines indented
// four more spaces) before its "--- SKIP" line, on one line.
func skipReason(lines []string) string {
	var msg []string
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimRight(lines[i], "\n")
		framing := strings.HasPrefix(strings.TrimSpace(l), "--- ") || strings.HasPrefix(l, "=== ")
		switch {
		case framing:
			if len(msg) > 0 {
				return "(no reason given)"
			}
		case strings.HasPrefix(l, "        "): // a continuation line
			msg = append(msg, strings.TrimSpace(l))
		case strings.HasPrefix(l, "    "): // the message's first line
			msg = append(msg, strings.TrimSpace(l))
			slices.Reverse(msg)
			return strings.Join(msg, " / ")
		}
	}
	return "(no reason given)"
}

// writeSkips prints the summary: every skipped test by package and name.
func (s *summary) writeSkips() {
	if s.tests == 0 {
		return
	}
	slices.SortFunc(s.skips, func(a, b skip) int {
		return strings.Compare(a.pkg+"\x00"+a.test, b.pkg+"\x00"+b.test)
	})
	fmt.Fprintf(s.w, "\n%d of %d tests skipped", len(s.skips), s.tests)
	if s.failed > 0 {
		fmt.Fprintf(s.w, ", %d failed", s.failed)
	}
	if len(s.skips) == 0 {
		fmt.Fprintln(s.w, ".")
		return
	}
	fmt.Fprintln(s.w, ", each with its reason:")
	const module = "github.com/riskgate/riskgate/"
	pkg := ""
	for _, k := range s.skips {
		if k.pkg != pkg {
			pkg = k.pkg
			fmt.Fprintf(s.w, "%s\n", strings.TrimPrefix(pkg, module))
		}
		fmt.Fprintf(s.w, "  %s: %s\n", k.test, k.reason)
	}
}
