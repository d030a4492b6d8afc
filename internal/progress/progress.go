// Package progress shows on standard error what a long command is doing.
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Display shows on standard error what the gate is doing during long work:
// on a terminal a one-line spinner with the elapsed time, redrawn in place
// and erased when done, appearing only once the work has taken delay;
// with --progress on something else (a CI log) one line per phase. It is off
// on a terminal in CI (the CI variable set) unless --progress, and whenever
// standard error is not a terminal without --progress. A nil *Display is off.
type Display struct {
	w     io.Writer
	lines bool // one line per phase, no redrawing

	mu    sync.Mutex
	phase string
	start time.Time
	shown bool
	stop  chan struct{}
	done  chan struct{}
}

// delay is how long work runs before the spinner appears.
const delay = 400 * time.Millisecond

// New returns the progress display for errw, or nil when off.
func New(errw io.Writer, forced bool) *Display {
	term := IsTerminal(errw)
	switch {
	case forced && !term:
		return &Display{w: errw, lines: true}
	case forced, term && os.Getenv("CI") == "" && os.Getenv("TERM") != "dumb":
		p := &Display{w: errw, start: time.Now(), stop: make(chan struct{}), done: make(chan struct{})}
		go p.spin()
		return p
	}
	return nil
}

// IsTerminal reports whether w is a character device (a terminal).
func IsTerminal(w io.Writer) bool {
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
func (p *Display) Phase(what string) {
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

func (p *Display) spin() {
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
		if elapsed := time.Since(p.start); elapsed >= delay && p.phase != "" {
			fmt.Fprintf(p.w, "\r\x1b[K%c riskgate: %s… %.1fs", frames[i%len(frames)], p.phase, elapsed.Seconds())
			p.shown = true
		}
		p.mu.Unlock()
	}
}

// Done stops the display and erases the spinner's line.
func (p *Display) Done() {
	if p == nil || p.lines {
		return
	}
	close(p.stop)
	<-p.done
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// UseColor reports whether to colour output on w: a terminal, NO_COLOR unset
// (https://no-color.org), and a TERM that is not "dumb".
func UseColor(w io.Writer) bool {
	return IsTerminal(w) && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
}
