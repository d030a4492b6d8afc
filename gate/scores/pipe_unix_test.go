//go:build unix

package scores

import (
	"os"
	"slices"
	"syscall"
	"testing"
)

// A pipe such as <(command) can be read once only: it stays open from
// detection to parsing, while regular files are reopened.
func TestLoadPipe(t *testing.T) {
	inDir(t, map[string]string{"a.csv": "system,topic,score\nA,1,0.5\n"})
	if err := syscall.Mkfifo("pipe", 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	go func() {
		f, err := os.OpenFile("pipe", os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.WriteString("topic,B\n1,0.25\n")
		f.Close()
	}()
	tab, err := Load([]string{"a.csv", "pipe"}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cells(tab), []string{"A/1=0.5", "B/1=0.25"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A run is read by path, so it cannot come through a pipe.
func TestLoadRunPipe(t *testing.T) {
	inDir(t, nil)
	if err := syscall.Mkfifo("run", 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	go func() {
		f, err := os.OpenFile("run", os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.WriteString("301 Q0 d1 1 2.5 r\n")
		f.Close()
	}()
	_, err := Load([]string{"run"}, LoadOptions{Qrels: "q"})
	if want := "run: a TREC run is read from a regular file, not standard input or a pipe; expected the run file's path"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

// A file replaced by a named pipe between detection and parsing is refused,
// not read from the pipe.
func TestLoadRefusesFileReplacedByPipe(t *testing.T) {
	inDir(t, sourceFiles)
	replace := func(path, role string) {
		os.Remove(path)
		if err := syscall.Mkfifo(path, 0o600); err != nil {
			t.Skipf("no named pipes here: %v", err)
		}
	}
	_, _, _, err := LoadSources([]string{"a.csv"}, LoadOptions{beforeRead: replace})
	if err == nil || err.Error() != "a.csv: the file changed during the run (the path now names something other than a regular file); expected it unchanged until riskgate ends" {
		t.Errorf("error %v", err)
	}
}
