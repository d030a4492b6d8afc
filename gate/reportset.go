package gate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/riskgate/riskgate/gate/report"
	"github.com/riskgate/riskgate/internal/atomicfile"
)

// errorMarker is the file a gate run that ended in an error writes into
// --out: the reports beside it, if any, are an earlier run's.
const errorMarker = "error.json"

// reportSetNames are the files a report folder may hold.
var reportSetNames = append(append([]string{}, report.FileNames...), errorMarker)

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

// testHookWriteReport, when a test sets it, runs before each report file is
// written; an error it returns fails that write.
var testHookWriteReport func(name string) error

// writeReportSet swaps the whole set of reports into --out.
func writeReportSet(ctx context.Context, set *atomicfile.Set, reports map[string][]byte) error {
	files := make([]atomicfile.SetFile, len(report.FileNames))
	for i, name := range report.FileNames {
		files[i] = atomicfile.SetFile{Name: name, Write: func(w io.Writer) error {
			if testHookWriteReport != nil {
				if err := testHookWriteReport(name); err != nil {
					return err
				}
			}
			_, err := w.Write(reports[name])
			return err
		}}
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
	Error      string `json:"error"`
	ExitStatus int    `json:"exit_status"`
	StartedAt  string `json:"started_at"`
	Note       string `json:"note"`
}

// markReportSetError writes error.json into --out for a run that ended in
// err before its reports were written. A failure to write it is not
// reported: the run is failing with err already.
func markReportSetError(ctx context.Context, set *atomicfile.Set, err error, start time.Time) {
	e := runError{Error: err.Error(), ExitStatus: exitError, StartedAt: start.UTC().Format(time.RFC3339),
		Note: "this gate run ended in an error and wrote no reports; any other file in this folder is from an earlier run, not this run's verdict"}
	var se *statusError
	switch {
	case ctx.Err() != nil:
		e.Error, e.ExitStatus = "interrupted; nothing was decided", exitInterrupted
	case errors.As(err, &se):
		e.ExitStatus = se.Code
	}
	set.Mark(errorMarker, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(e)
	})
}
