package github

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/riskgate/riskgate/internal/escape"
)

// commandName maps an annotation level to its workflow command.
func commandName(level string) string {
	switch level {
	case LevelFailure:
		return "error"
	case LevelWarning:
		return "warning"
	}
	return "notice"
}

// writeCommands writes one ::error, ::warning or ::notice workflow command
// per annotation to the log.
func (p *Publisher) writeCommands(r Report) {
	for _, a := range r.Annotations {
		props := [][2]string{{"title", plainText(a.Title, annotationTitleLimit, false)}}
		if path := p.repoPath(a.Path); path != "" {
			start := max(a.StartLine, 1)
			props = append([][2]string{
				{"file", path},
				{"line", strconv.Itoa(start)},
				{"endLine", strconv.Itoa(max(a.EndLine, start))},
			}, props...)
		}
		msg := plainText(a.Message, annotationMsgLimit, true)
		writeCommand(p.Log, p.Env.Token.scrub(workflowCommand(commandName(a.Level), props, msg)))
	}
}

// writeOutputs appends the step outputs verdict, report-json and report-md
// to GITHUB_OUTPUT, each in the multi-line form name<<DELIMITER.
func (p *Publisher) writeOutputs(r Report) error {
	if p.Env.Output == "" {
		p.note("GITHUB_OUTPUT is not set: no step outputs")
		return nil
	}
	var b strings.Builder
	for _, kv := range [][2]string{{"verdict", r.Verdict}, {"report-json", r.JSONPath}, {"report-md", r.MarkdownPath}} {
		entry, err := outputEntry(kv[0], kv[1])
		if err != nil {
			return err
		}
		b.WriteString(entry)
	}
	return appendFile(p.Env.Output, p.Env.Token.scrub(b.String()))
}

// outputEntry formats one output as GitHub's file commands read it:
// name<<DELIM, the value, DELIM, with a random delimiter the value does
// not contain.
func outputEntry(name, value string) (string, error) {
	for {
		var buf [16]byte
		if _, err := rand.Read(buf[:]); err != nil {
			return "", err
		}
		delim := "ghadelimiter_" + hex.EncodeToString(buf[:])
		if !strings.Contains(value, delim) && !strings.Contains(name, delim) {
			return name + "<<" + delim + "\n" + value + "\n" + delim + "\n", nil
		}
	}
}

// writeSummary appends the report, cut to fit, and the failures so far to
// the job summary, ending in a blank line so that what the next step
// appends starts a new block.
func (p *Publisher) writeSummary(r Report, t target, res *Result) error {
	if p.Env.StepSummary == "" {
		p.note("GITHUB_STEP_SUMMARY is not set: no job summary")
		return nil
	}
	text, _ := fit(p.bodyOf(&r, t), SummaryLimit, cutNote(SummaryLimit, p.Options.Artifact, t.reportURL))
	var b strings.Builder
	b.WriteString(strings.TrimRight(text, "\n") + "\n\n")
	if len(res.Failures) > 0 {
		b.WriteString("> [!WARNING]\n> **riskgate could not publish everything to GitHub.** The verdict above stands; what failed:\n")
		for _, f := range res.Failures {
			b.WriteString("> - " + escape.Markdown(f) + "\n")
		}
		b.WriteString("\n")
	}
	return appendFile(p.Env.StepSummary, p.Env.Token.scrub(b.String()))
}

func appendFile(name, text string) error {
	f, err := os.OpenFile(name, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func (p *Publisher) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

// writeCommand writes one of riskgate's own workflow commands to log:
// through the guard that breaks every other line that would start one
// (escape.CommandGuard), when log is guarded.
func writeCommand(log io.Writer, line string) {
	if g, ok := log.(interface{ WriteCommand(string) error }); ok {
		g.WriteCommand(line)
		return
	}
	fmt.Fprintln(log, line)
}
