package gate

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// progress shows on standard error what the gate is doing during long work:
// on a terminal a one-line spinner with the elapsed time, redrawn in place
// and erased when done, appearing only once the work has taken progressDelay;
// with --progress on something else (a CI log) one line per phase. It is off
// on a terminal in CI (the CI variable set) unless --progress, and whenever
// standard error is not a terminal without --progress. A nil *progress is off.
type progress struct {
	w     io.Writer
	lines bool // one line per phase, no redrawing

	mu    sync.Mutex
	phase string
	start time.Time
	shown bool
	stop  chan struct{}
	done  chan struct{}
}

// progressDelay is how long work runs before the spinner appears.
const progressDelay = 400 * time.Millisecond

// newProgress returns the progress display for errw, or nil when off.
func newProgress(errw io.Writer, forced bool) *progress {
	term := isTerminal(errw)
	switch {
	case forced && !term:
		return &progress{w: errw, lines: true}
	case forced, term && os.Getenv("CI") == "" && os.Getenv("TERM") != "dumb":
		p := &progress{w: errw, start: time.Now(), stop: make(chan struct{}), done: make(chan struct{})}
		go p.spin()
		return p
	}
	return nil
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	for {
		u, ok := w.(interface{ Unwrap() io.Writer })
		if !ok {
			break
		}
		w = u.Unwrap()
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// Phase says what the gate starts doing now.
func (p *progress) Phase(what string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if what == p.phase {
		return
	}
	p.phase = what
	if p.lines {
		fmt.Fprintf(p.w, "riskgate: %s…\n", what)
	}
}

func (p *progress) spin() {
	defer close(p.done)
	frames := []rune("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for i := 0; ; i++ {
		select {
		case <-p.stop:
			return
		case <-tick.C:
		}
		p.mu.Lock()
		if elapsed := time.Since(p.start); elapsed >= progressDelay && p.phase != "" {
			fmt.Fprintf(p.w, "\r\x1b[K%c riskgate: %s… %.1fs", frames[i%len(frames)], p.phase, elapsed.Seconds())
			p.shown = true
		}
		p.mu.Unlock()
	}
}

// Done stops the display and erases the spinner's line.
func (p *progress) Done() {
	if p == nil || p.lines {
		return
	}
	close(p.stop)
	<-p.done
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// useColor reports whether to colour output on w: a terminal, NO_COLOR unset
// (https://no-color.org), and a TERM that is not "dumb".
func useColor(w io.Writer) bool {
	return isTerminal(w) && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
}
