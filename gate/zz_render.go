package gate

import (
	"bytes"
	"fmt"

	"github.com/riskgate/riskgate/gate/result"
)

// reportFiles are the files --out DIR receives, in the order they are written.
var reportFiles = []string{"result.json", "report.md", "junit.xml", "report.html"}

// renderReports renders every report file of r.
func renderReports(r *result.Result) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, name := range reportFiles {
		var b bytes.Buffer
		var err error
		switch name {
		case "result.json":
			err = result.WriteJSON(&b, r)
		case "report.md":
			err = writeMarkdownReport(&b, r)
		case "junit.xml":
			err = writeJUnitReport(&b, r)
		case "report.html":
			err = writeHTMLReport(&b, r)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out[name] = b.Bytes()
	}
	return out, nil
}
