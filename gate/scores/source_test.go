package scores

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/riskgate/riskgate/internal/inputerr"
)

func sha(data string) string {
	sum := sha256.Sum256([]byte(data))
	return hex.EncodeToString(sum[:])
}

// Files for the source tests: every format, runs and their qrels.
var sourceFiles = map[string]string{
	"a.csv":   "\ufeffsystem,topic,score\nA,q1,0.5\nA,q2,0.25\n",
	"w.csv":   "topic,W\nq1,0.5\nq2,0.75\n",
	"b.jsonl": `{"system":"B","topic":"q1","score":0.5}` + "\n" + `{"system":"B","topic":"q2","score":1}` + "\n",
	"c.txt":   "map\tq1\t0.1\nmap\tq2\t0.2\nrunid\tall\tC\nmap\tall\t0.15\n",
	"r.run":   "q1 Q0 d1 1 2 R\nq1 Q0 d2 2 1 R\nq2 Q0 d3 1 1 R\n",
	"q.qrels": "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 1\n",
}

// Every source's digest and size are those of the file's bytes (a byte
// order mark included), in the order of the paths, the qrels last.
func TestLoadSourcesDigests(t *testing.T) {
	inDir(t, sourceFiles)
	stdin := "\ufeffsystem,topic,score\nS,q1,0.5\n"
	paths := []string{"a.csv", "r.run", "w.csv", "b.jsonl", "c.txt", "-"}
	set, _, sources, err := LoadSources(paths, LoadOptions{Qrels: "q.qrels", Measures: []string{"map"}, UnnamedMeasure: "map", Stdin: strings.NewReader(stdin)})
	if err != nil {
		t.Fatal(err)
	}
	tab := set.Tables[0]
	if len(tab.Systems) != 6 {
		t.Errorf("systems %q", tab.Systems)
	}
	if len(sources) != len(paths)+1 {
		t.Fatalf("%d sources for %d paths and the qrels: %+v", len(sources), len(paths), sources)
	}
	for i, s := range sources {
		path, role, data, regular := "q.qrels", RoleQrels, sourceFiles["q.qrels"], true
		if i < len(paths) {
			path, role, data, regular = paths[i], RoleScores, sourceFiles[paths[i]], paths[i] != "-"
		}
		if path == "-" {
			data = stdin
		}
		if s.Path != path || s.Role != role || s.SHA256 != sha(data) || s.Bytes != int64(len(data)) || s.Regular != regular {
			t.Errorf("source %d: %+v; want %s %s, %d bytes, SHA-256 %s, regular %v", i, s, role, path, len(data), sha(data), regular)
		}
		// A run names the system it was scored as; no other input does.
		if want := map[bool]string{true: "R"}[path == "r.run"]; s.Run != want || tab.SystemIndex("R") < 0 {
			t.Errorf("source %d (%s): Run %q, want %q (the run_id of r.run)", i, path, s.Run, want)
		}
	}
	if err := VerifySources(sources); err != nil {
		t.Errorf("unchanged files: %v", err)
	}
	// Without runs the qrels file is not read, and not a source.
	_, _, sources, err = LoadSources([]string{"a.csv"}, LoadOptions{Qrels: "q.qrels"})
	if err != nil || len(sources) != 1 {
		t.Errorf("%v, %+v; want one source", err, sources)
	}
}

// change rewrites a file as one of the ways it can change under a run.
type change struct {
	name string
	do   func(t *testing.T, path string)
}

var changes = []change{
	{"rewritten in place", func(t *testing.T, path string) {
		// O_TRUNC and a shorter text, as an editor or a tool writing in place.
		if err := os.WriteFile(path, []byte("system,topic,score\nZ,q1,0.9\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}},
	{"rewritten in place, same size", func(t *testing.T, path string) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		// Same length, one byte changed: only the modification time tells.
		if _, err := f.WriteAt([]byte{data[len(data)-2] ^ 1}, int64(len(data)-2)); err != nil {
			t.Fatal(err)
		}
	}},
	{"appended to", func(t *testing.T, path string) {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		f.WriteString("\n")
	}},
	{"swapped", func(t *testing.T, path string) {
		// A new file renamed over the path: what is open stays the old file.
		if err := os.WriteFile(path+".new", []byte(sourceFiles[path]), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(path+".new", path); err != nil {
			t.Fatal(err)
		}
	}},
}

// backdate sets a file's modification time an hour back, so that a change
// now gets a different one whatever the file system's clock granularity.
func backdate(t *testing.T, path string) {
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
}

// A file that changes while Load reads it — before it is reopened after
// detection, or while the parser reads it — is refused with an input error;
// so is a run or a qrels file.
func TestLoadRefusesFileChangedWhileRead(t *testing.T) {
	cases := []struct {
		target string
		paths  []string
		// opening is the opening of target to change it at: detection is
		// the first, the parser's read the second (a qrels file is opened once).
		opening int
	}{
		{"a.csv", []string{"a.csv"}, 2},
		{"a.csv", []string{"a.csv"}, 1},
		{"b.jsonl", []string{"a.csv", "b.jsonl"}, 2},
		{"c.txt", []string{"c.txt"}, 2},
		{"r.run", []string{"r.run"}, 2},
		{"r.run", []string{"r.run"}, 1},
		{"q.qrels", []string{"r.run"}, 1},
	}
	for _, c := range cases {
		for _, ch := range changes {
			t.Run(c.target+"/"+ch.name+"/opening "+string(rune('0'+c.opening)), func(t *testing.T) {
				inDir(t, sourceFiles)
				backdate(t, c.target)
				opened := 0
				change := func(path, role string) {
					if path == c.target {
						if opened++; opened == c.opening {
							ch.do(t, path)
						}
					}
				}
				_, _, _, err := LoadSources(c.paths, LoadOptions{Qrels: "q.qrels", Measures: []string{"map"}, UnnamedMeasure: "map", beforeRead: change})
				if opened < c.opening {
					t.Fatalf("%s opened %d times, want at least %d", c.target, opened, c.opening)
				}
				var ie *inputerr.Error
				if !errors.As(err, &ie) || ie.File != c.target || !strings.Contains(err.Error(), "the file changed during the run") {
					t.Fatalf("error %v; want an input error saying %s changed", err, c.target)
				}
			})
		}
	}
}

// Verify refuses a file changed after it was read, even one rewritten with
// the same size and its modification time put back (only the digest tells).
func TestVerifySources(t *testing.T) {
	for _, ch := range append(changes, change{"removed", func(t *testing.T, path string) { os.Remove(path) }},
		change{"same size, time put back", func(t *testing.T, path string) {
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			changes[1].do(t, path)
			if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
		}}) {
		t.Run(ch.name, func(t *testing.T) {
			inDir(t, sourceFiles)
			backdate(t, "a.csv")
			_, _, sources, err := LoadSources([]string{"w.csv", "a.csv", "-"}, LoadOptions{Stdin: strings.NewReader("topic,S\nq1,1\n")})
			if err != nil {
				t.Fatal(err)
			}
			if err := VerifySources(sources); err != nil {
				t.Fatalf("before the change: %v", err)
			}
			ch.do(t, "a.csv")
			err = VerifySources(sources)
			var ie *inputerr.Error
			if !errors.As(err, &ie) || ie.File != "a.csv" || !strings.Contains(err.Error(), "the file changed during the run") {
				t.Errorf("error %v; want a.csv changed", err)
			}
		})
	}
}
