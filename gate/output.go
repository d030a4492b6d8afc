package gate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/urfave/cli/v3"
)

// How every command writes what it reports: the output flags (--format,
// -o/--output), the atomic writing of the result, and how numbers are spelled
// in JSON, CSV, text and markdown. Commands render into a writer;
// writeOutput sends the result whole to standard output or atomically to a
// file, so that an error never leaves half a report behind.

// reportFormats are the output formats of the report commands (compare, pair,
// classify); the first is the default.
var reportFormats = []string{"table", "md", "json", "csv"}

// formatFlag is --format, the output format: one of formats, the first by default.
func formatFlag(dst *string, formats []string) *cli.StringFlag {
	return &cli.StringFlag{Name: "format", Value: formats[0], Destination: dst,
		Usage: "output `FORMAT`: " + strings.Join(formats, ", ")}
}

// outputFlag is -o/--output, the file writeOutput writes instead of standard output.
func outputFlag(dst *string) *cli.StringFlag {
	return &cli.StringFlag{Name: "output", Aliases: []string{"o"}, Destination: dst,
		Usage: "write to `FILE` (atomically: a temporary file renamed into place) instead of standard output"}
}

// checkFormat checks a --format value against the formats a command offers.
func checkFormat(format string, formats []string) error {
	if slices.Contains(formats, format) {
		return nil
	}
	return fmt.Errorf("--format %q: expected one of %s", format, strings.Join(formats, ", "))
}

// writeOutput renders a report with write and sends it to path, or to stdout
// when path is "" or "-" (the value of -o/--output). Standard output gets the
// report only once it is complete; a file is written by writeFileAtomic.
func writeOutput(stdout io.Writer, path string, write func(io.Writer) error) error {
	if path != "" && path != "-" {
		return writeFileAtomic(path, write)
	}
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return err
	}
	_, err := stdout.Write(b.Bytes())
	return err
}

// writeFileAtomic writes the file path through a temporary file in the same
// folder, synced and then renamed over path, so that no reader ever sees a
// half-written file and a failure leaves nothing behind. The file gets mode
// 0644, as a shell redirection under the usual umask.
func writeFileAtomic(path string, write func(io.Writer) error) error {
	return atomicWrite(path, write, true)
}

// createFileAtomic is writeFileAtomic for a file that must not exist yet: it
// refuses to replace one, atomically (a hard link fails if the name exists),
// with an error that wraps fs.ErrExist.
func createFileAtomic(path string, write func(io.Writer) error) error {
	return atomicWrite(path, write, false)
}

func atomicWrite(path string, write func(io.Writer) error, replace bool) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		tmp.Close()           // a second close after success is harmless
		os.Remove(tmp.Name()) // gone after a rename or link+remove; cleaned up after a failure
	}()
	if err := write(tmp); err != nil {
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if replace {
		return os.Rename(tmp.Name(), path)
	}
	switch err := os.Link(tmp.Name(), path); {
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrExist):
		return fmt.Errorf("%s: %w", path, fs.ErrExist)
	default:
		// No hard links on this file system: check, then rename.
		if _, statErr := os.Lstat(path); statErr == nil {
			return fmt.Errorf("%s: %w", path, fs.ErrExist)
		}
		return os.Rename(tmp.Name(), path)
	}
}

// JSONFloat is a float64 in a JSON report: the shortest decimal that reads
// back as the same number, or null when it is NaN or ±Inf (internal/jsonfloat).
type JSONFloat float64

// MarshalJSON writes the number, or null.
func (x JSONFloat) MarshalJSON() ([]byte, error) { return jsonfloat.Append(nil, float64(x)), nil }

// UnmarshalJSON reads a number, or null as NaN.
func (x *JSONFloat) UnmarshalJSON(b []byte) error {
	v, err := jsonfloat.Parse(b)
	*x = JSONFloat(v)
	return err
}

// jsonFloatPtr returns a pointer to v as a JSONFloat, for optional fields.
func jsonFloatPtr(v float64) *JSONFloat { x := JSONFloat(v); return &x }
