package gate

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The docs test covers every command block (issue 30, item 4): a fenced
// block of README.md or docs/*.md that holds a command — a line starting
// "riskgate " or "$ ", or a shell language — is an sh block, which
// TestDocsCommands runs, or says on the line before it what covers it:
//
//	<!-- doctest: synopsis -->        a usage synopsis: its command exists, and every
//	                                   -flag it names is in that command's --help
//	<!-- doctest: skip REASON -->     not run, and why
//
// YAML and Groovy blocks are files (policies, workflows, recipes), not
// commands: internal/pipelines checks that docs/ci.md shows each recipe and
// workflow as it is, and runs them.

// docFence is one fenced block of any language.
type docFence struct {
	File   string
	Line   int // of the opening fence
	Lang   string
	Lines  []string
	Marker string // the doctest marker on the line before, without "<!-- doctest: " and " -->"
}

func docFences(t *testing.T, repo, rel string) []docFence {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repo, rel))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var out []docFence
	for i := 0; i < len(lines); i++ {
		open := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(open, "```") {
			continue
		}
		f := docFence{File: rel, Line: i + 1, Lang: strings.TrimPrefix(open, "```")}
		if i > 0 {
			if m := doctestMarker.FindStringSubmatch(strings.TrimSpace(lines[i-1])); m != nil {
				f.Marker = m[1]
			}
		}
		j := i + 1
		for ; j < len(lines) && strings.TrimSpace(lines[j]) != "```"; j++ {
			f.Lines = append(f.Lines, lines[j])
		}
		if j == len(lines) {
			t.Fatalf("%s:%d: the block is not closed", rel, i+1)
		}
		out = append(out, f)
		i = j
	}
	return out
}

// holdsCommand reports whether a block is a command block: a shell
// language, or an unlabelled block with a command line.
func (f docFence) holdsCommand() bool {
	if slices.Contains([]string{"sh", "bash", "shell", "console", "shell-session"}, f.Lang) {
		return true
	}
	if f.Lang != "" {
		return false // a file: YAML, Groovy, JSON
	}
	for _, l := range f.Lines {
		if s := strings.TrimSpace(l); strings.HasPrefix(s, "riskgate ") || strings.HasPrefix(s, "$ ") {
			return true
		}
	}
	return false
}

func TestDocsCommandBlocksCovered(t *testing.T) {
	t.Parallel()
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"README.md"}
	docs, _ := filepath.Glob(filepath.Join(repo, "docs", "*.md"))
	for _, d := range docs {
		files = append(files, filepath.Join("docs", filepath.Base(d)))
	}
	counts := map[string]int{}
	for _, file := range files {
		for _, f := range docFences(t, repo, file) {
			at := fmt.Sprintf("%s:%d", file, f.Line)
			switch {
			case !f.holdsCommand():
				counts["files (yaml, groovy, json, diagrams)"]++
			case f.Lang == "sh":
				counts["sh, run by TestDocsCommands"]++ // markers checked there
			case f.Lang != "":
				t.Errorf("%s: a %s block of commands; write it as ```sh so that TestDocsCommands runs it", at, f.Lang)
			case f.Marker == "synopsis":
				counts["synopsis, checked against --help"]++
				checkSynopsis(t, at, f.Lines)
			case strings.HasPrefix(f.Marker, "skip "):
				counts["skipped, with a reason"]++
			default:
				t.Errorf("%s: a block of commands the docs test does not run: make it ```sh, or mark it <!-- doctest: synopsis --> or <!-- doctest: skip REASON -->", at)
			}
		}
	}
	t.Logf("fenced blocks of README.md and docs/*.md: %v", counts)
}

// synopsisFlag is a flag a synopsis names: -x or --name, after a space, a
// bracket or a bar.
var synopsisFlag = regexp.MustCompile(`(?:^|[\s\[|(])(--?[A-Za-z][A-Za-z0-9-]*)`)

// checkSynopsis checks a usage synopsis ("riskgate compare --champion NAME
// [--level 0.95] …"): the command it names exists, and every flag it names
// is in that command's --help.
func checkSynopsis(t *testing.T, at string, lines []string) {
	t.Helper()
	words := strings.Fields(strings.Join(lines, " "))
	if len(words) < 2 || words[0] != "riskgate" {
		t.Errorf("%s: a synopsis starts with riskgate COMMAND, got %q", at, strings.Join(words[:min(len(words), 3)], " "))
		return
	}
	cmd := []string{words[1]}
	if len(words) > 2 && !strings.HasPrefix(words[2], "-") && !strings.HasPrefix(words[2], "[") && strings.ToLower(words[2]) == words[2] {
		cmd = append(cmd, words[2]) // a subcommand (policy validate)
	}
	code, help, errw := runMain(t, append(slices.Clone(cmd), "--help")...)
	if code != exitPass && len(cmd) > 1 { // the second word was an argument
		cmd = cmd[:1]
		code, help, errw = runMain(t, append(slices.Clone(cmd), "--help")...)
	}
	if code != exitPass {
		t.Errorf("%s: riskgate %s --help: exit %d, %s", at, strings.Join(cmd, " "), code, errw)
		return
	}
	for _, m := range synopsisFlag.FindAllStringSubmatch(strings.Join(lines, "\n"), -1) {
		flag := m[1]
		if !regexp.MustCompile(`(^|[\s,\[])` + regexp.QuoteMeta(flag) + `($|[\s,=\[.])`).MatchString(help) {
			t.Errorf("%s: the synopsis names %s, which riskgate %s --help does not", at, flag, strings.Join(cmd, " "))
		}
	}
}
