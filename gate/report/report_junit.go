package report

import (
	"encoding/xml"
	"fmt"
	"io"

	"github.com/riskgate/riskgate/gate/result"

	"github.com/riskgate/riskgate/internal/escape"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/policies"
)

// The JUnit XML report (junit.xml): one test suite per challenger, one test
// case per rule, for CI systems that show test results (GitLab, Jenkins).
// Only a failed rule is a <failure>: it is what makes the gate fail. A rule
// that warned, was inconclusive or was waived is <skipped> with a message
// saying which, so that a CI system does not count it as a failure (the exit
// status carries the verdict); a passed rule is a plain test case. Each
// suite's properties lead with the challenger's summary (means, Δ, Δ%,
// W/T/L, P(better), the policy's risk figure).

type JUnitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitMessage `xml:"failure"`
	Skipped   *junitMessage `xml:"skipped"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// JUnit writes the JUnit XML report of r. A CI system shows its text as
// plain text: every string is made plain (escape.Plain, as every plain-text
// channel is) and encoding/xml escapes what XML would read.
func JUnit(w io.Writer, r *result.Result) error {
	d := r.Decision
	out := JUnitSuites{Name: "riskgate gate: policy " + r.Policy.Name}
	sum := newSummary(r)
	for i, c := range d.Challengers {
		s := junitSuite{Name: c.Name, Properties: []junitProperty{
			{"verdict", string(c.Verdict)}, {"reason", c.Reason}, {"selected", fmt.Sprint(c.Selected)},
			{"policy", r.Policy.Name}, {"champion", r.Data.Champion},
		}}
		if wt := r.WeightingText(); wt != "" {
			s.Properties = append(s.Properties, junitProperty{"weighting", wt})
		}
		if i < len(sum.Rows) {
			row := sum.Rows[i]
			s.Properties = append(s.Properties, junitProperty{"champion_mean", meanText(row.ChampionMean)}, junitProperty{"mean", meanText(row.Mean)},
				junitProperty{"diff", numfmt.Signed(float64(row.Diff))}, junitProperty{"diff_percent", signedPct(float64(row.DiffPercent))},
				junitProperty{"wins_ties_losses", wtlText(row)}, junitProperty{"p_better: " + sum.PBetterHead, pBetterText(row)}, junitProperty{"risk: " + sum.RiskHead, sum.riskText(row)})
			if ws := worstSegmentText(row); ws != "" {
				s.Properties = append(s.Properties, junitProperty{"worst_segment", ws})
			}
		}
		for _, rr := range c.Rules {
			tc := junitCase{
				Name:      fmt.Sprintf("%s: %s %s", rr.Rule, rr.Query.String(), rr.BoundWords),
				Classname: "riskgate." + r.Policy.Name + "." + c.Name,
				SystemOut: fmt.Sprintf("%s (severity %s): %s", rr.Outcome, rr.Severity, rr.Reason),
			}
			// A by: rule is one test case; its message names the segments
			// that did not pass, and its output every segment's outcome.
			if seg := ruleSegmentsText(rr); seg != "" {
				tc.SystemOut += "\n" + seg
				for _, sr := range rr.Segments {
					tc.SystemOut += fmt.Sprintf("\n  %s (%s): %s, observed %s", sr.Segment, numfmt.Plural(sr.Topics, "topic"), sr.Outcome, observedText(sr.Observed, rr.Bound))
				}
			}
			msg := &junitMessage{Message: string(rr.Outcome) + ": " + rr.Reason, Type: string(rr.Outcome)}
			if failing := failingSegments(rr); failing != "" {
				msg.Message += "; segments that did not pass: " + failing
			}
			if rr.Waiver != nil && rr.Waiver.Note != "" {
				msg.Message += "; " + rr.Waiver.Note
			}
			switch rr.Outcome {
			case policies.OutcomePass:
			case policies.OutcomeFail:
				tc.Failure = msg
				s.Failures++
			default:
				tc.Skipped = msg
				s.Skipped++
			}
			s.Tests++
			s.Cases = append(s.Cases, tc)
		}
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Skipped += s.Skipped
		out.Suites = append(out.Suites, s)
	}
	out.plain()
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// plain makes every string of the report plain text (escape.Plain).
func (out *JUnitSuites) plain() {
	out.Name = escape.Plain(out.Name, false)
	for i := range out.Suites {
		s := &out.Suites[i]
		s.Name = escape.Plain(s.Name, false)
		for j := range s.Properties {
			p := &s.Properties[j]
			p.Name, p.Value = escape.Plain(p.Name, false), escape.Plain(p.Value, false)
		}
		for j := range s.Cases {
			c := &s.Cases[j]
			c.Name, c.Classname, c.SystemOut = escape.Plain(c.Name, false), escape.Plain(c.Classname, false), escape.Plain(c.SystemOut, true)
			for _, m := range []*junitMessage{c.Failure, c.Skipped} {
				if m != nil {
					m.Message, m.Type, m.Text = escape.Plain(m.Message, false), escape.Plain(m.Type, false), escape.Plain(m.Text, true)
				}
			}
		}
	}
}
