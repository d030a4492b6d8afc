package gate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/riskgate/riskgate/gate/report"
	"github.com/riskgate/riskgate/internal/atomicfile"
)

// errorMarker is the file a gate run that ended in an error writes into
// --out: the reports beside it, if any, are an earlier run's.
const errorMarker = "error.json"

// reportSetNames are the files a report folder may hold.
var reportSetNames = append(append([]string{}, report.FileNames...), errorMarker, worklistName)

// openReportSet locks --out for this run (see atomicfile.Set).
func openReportSet(dir string) (*atomicfile.Set, error) {
	set, err := atomicfile.OpenSet(dir, reportSetNames)
	switch {
	case errors.Is(err, atomicfile.ErrLocked):
		return nil, fmt.Errorf("--out %s: another riskgate is writing this folder; expected one gate per report folder at a time", dir)
	case errors.Is(err, atomicfile.ErrNotOwned):
		return nil, fmt.Errorf("--out %v; riskgate replaces the whole folder: expected a new or empty folder, or one an earlier gate wrote", err)
	case err != nil:
		return nil, fmt.Errorf("--out %s: %v", dir, err)
	}
	return set, nil
}

// writeReportFile writes the report file name's bytes to w, the file's
// place in the set being written.
func writeReportFile(w io.Writer, name string, data []byte) error {
	_, err := w.Write(data)
	return err
}

// writeReportSet swaps the whole set of reports into --out, each file
// written by write (writeReportFile).
func writeReportSet(ctx context.Context, set *atomicfile.Set, reports map[string][]byte, write func(w io.Writer, name string, data []byte) error) error {
	names := report.FileNames
	if _, ok := reports[worklistName]; ok {
		names = append(slices.Clone(names), worklistName)
	}
	files := make([]atomicfile.SetFile, len(names))
	for i, name := range names {
		files[i] = atomicfile.SetFile{Name: name, Write: func(w io.Writer) error { return write(w, name, reports[name]) }}
	}
	if err := set.Replace(ctx, files); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("--out %s: writing the reports: %v; the previous reports, if any, are left as they were", set.Dir(), err)
	}
	return nil
}

// runError is error.json.
type runError struct {
	Error string `json:"error"`
	// ExitStatus is the run's; null while it has not finished (or when it
	// was killed before it could say).
	ExitStatus *int   `json:"exit_status"`
	StartedAt  string `json:"started_at"`
	Note       string `json:"note"`
}

// markReportSetStarted marks --out before the run decides anything, with an
// error.json saying that the run has not finished, so that the reports there
// are an earlier run's to every reader until this run's set replaces them —
// also when the run is killed, or when the disk is full by the time it
// ends (the marker is replaced by the run's error, or stays). When the
// marker's bytes cannot be written it is created empty, with a warning; when
// not even that can be done, the run is refused: nothing could mark the
// earlier reports as not its own.
func markReportSetStarted(set *atomicfile.Set, start time.Time, errw io.Writer) error {
	e := runError{Error: "this gate run has not finished: it is still running, or it was killed before it could say why",
		StartedAt: start.UTC().Format(time.RFC3339),
		Note:      "a gate run started on this folder has not written its reports; any other file in this folder is from an earlier run, not this run's verdict"}
	err := set.Mark(errorMarker, encodeRunError(e))
	switch {
	case errors.Is(err, atomicfile.ErrUnmarked):
		return fmt.Errorf("--out %s: cannot mark the folder before the run (%v); expected a folder riskgate can write into", set.Dir(), err)
	case err != nil:
		fmt.Fprintf(errw, "riskgate: warning: --out %s: %s could not be written (%v); it is there, empty, marking the reports there as an earlier run's\n",
			set.Dir(), errorMarker, err)
	}
	return nil
}

// markReportSetError writes error.json into --out for a run that ended in
// err before its reports were written. When it cannot be written (a full
// disk), standard error says so: the marker written when the run started is
// then still there.
func markReportSetError(ctx context.Context, set *atomicfile.Set, err error, start time.Time, errw io.Writer) {
	status := exitError
	e := runError{Error: err.Error(), StartedAt: start.UTC().Format(time.RFC3339),
		Note: "this gate run ended in an error and wrote no reports; any other file in this folder is from an earlier run, not this run's verdict"}
	var se *statusError
	switch {
	case ctx.Err() != nil:
		e.Error, status = "interrupted; nothing was decided", exitInterrupted
	case errors.As(err, &se):
		status = se.Code
	}
	e.ExitStatus = &status
	switch merr := set.Mark(errorMarker, encodeRunError(e)); {
	case errors.Is(merr, atomicfile.ErrUnmarked):
		fmt.Fprintf(errw, "riskgate: warning: --out %s: %s could not be written (%v): nothing marks the reports there as an earlier run's; do not publish them\n",
			set.Dir(), errorMarker, merr)
	case merr != nil:
		fmt.Fprintf(errw, "riskgate: warning: --out %s: %s could not be updated with this run's error (%v); it still marks the reports there as an earlier run's\n",
			set.Dir(), errorMarker, merr)
	}
}

func encodeRunError(e runError) func(io.Writer) error {
	return func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(e)
	}
}
