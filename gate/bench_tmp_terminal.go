package gate

import (
	"io"
	"os"
)

// isTerminal reports whether w is a character device (a terminal).
// TEMPORARY: the gate branch defines it in gate_progress.go; removed at the merge.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
