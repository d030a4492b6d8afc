package trec

import (
	"bytes"
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/inputerr"
	"github.com/riskgate/riskgate/internal/linelimit"
)

// Fuzz targets for the rest of what riskgate eval reads (FuzzReadRun and
// FuzzReadQrels read the files): its command line, the -m measure specs,
// the numbers of -l, -M and -N (C's atol), and the bound on a line of a run
// or qrels file however the file is cut into chunks and parts.

// FuzzParseCommandLine: any argument list (NUL-separated) is parsed without
// a panic into a usable command line or a one-line *UsageError; one that
// parses names a qrels file that is not standard input and at least one
// run, standard input at most once, and -M not below 0.
func FuzzParseCommandLine(f *testing.F) {
	for _, s := range []string{"-q\x00qrels\x00run", "-qc\x00-l2\x00-mP.10\x00qrels\x00run\x00-", "--measure=map\x00--level_for_rel\x003\x00q\x00r",
		"-M\x00-5\x00q\x00r", "--\x00-q\x00r", "-R\x00prefs\x00q\x00r", "--Judged\x00q\x00r\x00r", "-h", "--vers", "-Z1", "q\x00-\x00-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args := strings.Split(s, "\x00")
		c, err := ParseCommandLine(args)
		if err != nil {
			var ue *UsageError
			if !errors.As(err, &ue) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q (%T): want a one-line *UsageError", err, err)
			}
			return
		}
		if c.Help || c.Version {
			return
		}
		stdin := 0
		for _, r := range c.Runs {
			if r == "-" {
				stdin++
			}
		}
		if c.Qrels == "-" || len(c.Runs) == 0 || stdin > 1 || c.MaxDocs < 0 {
			t.Fatalf("accepted %q: qrels %q, runs %q, -M %d", args, c.Qrels, c.Runs, c.MaxDocs)
		}
		if o := c.Options(); o.RelLevel != c.RelLevel || o.MaxDocs != c.MaxDocs || (o.Missing == MissingZero) != c.Complete {
			t.Fatalf("options %+v of %+v", o, c)
		}
	})
}

// FuzzParseMeasures: any -m specs (space-separated) parse without a panic
// into measures every topic can be scored and printed with, or into a
// one-line error.
func FuzzParseMeasures(f *testing.F) {
	for _, s := range []string{"official", "all_trec", "P.5,10 ndcg_cut.10", "iprec_at_recall..1,.5", "ndcg.1=3,2=9", "utility.2,-1,0,0",
		"rbp.p=0.8", "relstring.3", "gm_bpref", "P.", "ndcg_cut.", "set map", "P.1e400", "ndcg.1=nan", "success.-1", "Rndcg.0"} {
		f.Add(s)
	}
	q, err := ReadQrels(strings.NewReader(fuzzQrels), "qrels")
	if err != nil {
		f.Fatal(err)
	}
	run, err := ReadRun(strings.NewReader(fuzzRun), "run")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 300 {
			return
		}
		ms, err := ParseMeasures(strings.Fields(s))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q is not one line", err)
			}
			return
		}
		for _, missing := range []MissingTopics{MissingZero, MissingSkip} {
			opt := DefaultOptions()
			opt.Missing = missing
			if out, ok := evaluateOutput(t, q, run, ms, opt); ok && !bytes.HasSuffix(out, []byte("\n")) {
				t.Fatalf("output does not end a line: %q", out)
			}
		}
	})
}

// atolDecimal is the part of a string strconv reads as C's atol does
// (leading C white space, a sign, at most 18 digits: no overflow).
var atolDecimal = regexp.MustCompile(`^[ \t\n\v\f\r]*([+-]?[0-9]{1,18})([^0-9]|$)`)

// FuzzAtol: atol reads what C's atol reads (glibc's strtol: the longest
// prefix of white space, sign and digits; 0 without digits; saturated on
// overflow), checked against strconv on the prefixes that cannot overflow,
// and saturation beyond.
func FuzzAtol(f *testing.F) {
	for _, s := range []string{"1", " \t-42abc", "+7", "99999999999999999999", "-99999999999999999999", "9223372036854775807", "-9223372036854775808", "x1", "", "- 1", "1.9", "0x10"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := atol([]byte(s))
		if m := atolDecimal.FindStringSubmatch(s); m != nil {
			want, err := strconv.ParseInt(m[1], 10, 64)
			if err != nil || got != want {
				t.Fatalf("atol(%q) = %d; strconv %d (%v)", s, got, want, err)
			}
			return
		}
		trimmed := strings.TrimLeft(s, " \t\n\v\f\r")
		digits := strings.TrimLeft(trimmed, "+-")
		if len(trimmed)-len(digits) > 1 || digits == "" || digits[0] < '0' || digits[0] > '9' {
			if got != 0 {
				t.Fatalf("atol(%q) = %d; want 0 (no digits)", s, got)
			}
			return
		}
		// 19 digits or more: saturated when over the range.
		n := len(digits) - len(strings.TrimLeft(digits, "0123456789"))
		v, err := strconv.ParseInt(trimmed[:len(trimmed)-len(digits)+n], 10, 64)
		switch {
		case err == nil && got != v:
			t.Fatalf("atol(%q) = %d; strconv %d", s, got, v)
		case err != nil && strings.HasPrefix(trimmed, "-") && got != math.MinInt64:
			t.Fatalf("atol(%q) = %d; want the minimum, saturated", s, got)
		case err != nil && !strings.HasPrefix(trimmed, "-") && got != math.MaxInt64:
			t.Fatalf("atol(%q) = %d; want the maximum, saturated", s, got)
		}
	})
}

// FuzzLineLimit: a run or qrels file with lines over a small bound reads
// the same in any chunks and parts, and when it fails at the bound, it
// names the first line over it (no earlier line being bad); a line within
// the bound is never refused for its length.
func FuzzLineLimit(f *testing.F) {
	f.Add([]byte("q1 Q0 a 1 1 r\nq1 Q0 bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb 2 1 r\n"), uint8(20))
	f.Add([]byte("q1 0 a 1\n\n#"+strings.Repeat(" ", 40)+"\nq1 0 b 1"), uint8(16))
	f.Add([]byte(strings.Repeat("x", 100)), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, bound uint8) {
		maxLine := 8 + int(bound)%120
		first := 0 // the first line over the bound, 1-based
		for i, line := range bytes.Split(data, []byte("\n")) {
			if len(line) > maxLine {
				first = i + 1
				break
			}
		}
		check := func(what string, err error) {
			t.Helper()
			var ie *inputerr.Error
			isLimit := errors.As(err, &ie) && ie.Msg == linelimit.Message
			switch {
			case isLimit && ie.Line != first:
				t.Fatalf("%s: line %d refused as too long; the first over %d bytes is %d", what, ie.Line, maxLine, first)
			case err != nil && !isLimit && errors.As(err, &ie) && first > 0 && ie.Line >= first:
				t.Fatalf("%s: %v, at or after line %d, which is over the bound", what, err, first)
			case err == nil && first > 0:
				t.Fatalf("%s: read whole, with line %d over %d bytes", what, first, maxLine)
			}
		}
		want := runFingerprint(readRun(bytes.NewReader(data), "run", reading{1 << 20, maxLine}))
		for _, chunk := range []int{1, 7, maxLine} {
			got := runFingerprint(readRun(bytes.NewReader(data), "run", reading{chunk, maxLine}))
			if got != want {
				t.Fatalf("chunks of %d:\n%s\nin one piece:\n%s", chunk, got, want)
			}
			if got := runFingerprint(readRunParts(bytes.NewReader(data), int64(len(data)), "run", 3, reading{chunk, maxLine})); got != want {
				t.Fatalf("3 parts, chunks of %d:\n%s\nin one piece:\n%s", chunk, got, want)
			}
		}
		_, err := readRun(bytes.NewReader(data), "run", reading{5, maxLine})
		check("run", err)
		_, err = readQrels(bytes.NewReader(data), "qrels", reading{5, maxLine})
		check("qrels", err)
	})
}
