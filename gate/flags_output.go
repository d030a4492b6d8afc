package gate

import (
	"bytes"
	"io"
	"strings"

	"github.com/riskgate/riskgate/internal/atomicfile"

	"github.com/urfave/cli/v3"
)

// How every command writes what it reports: the output flags (--format,
// -o/--output), the atomic writing of the result, and how numbers are spelled
// in JSON, CSV, text and markdown. Commands render into a writer;
// writeOutput sends the result whole to standard output or atomically to a
// file, so that an error never leaves half a report behind.

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

// writeOutput renders a report with write and sends it to path, or to stdout
// when path is "" or "-" (the value of -o/--output). Standard output gets the
// report only once it is complete; a file is written by atomicfile.Write.
func writeOutput(stdout io.Writer, path string, write func(io.Writer) error) error {
	if path != "" && path != "-" {
		return atomicfile.Write(path, write)
	}
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return err
	}
	_, err := stdout.Write(b.Bytes())
	return err
}
