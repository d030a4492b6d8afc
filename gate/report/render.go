package report

import (
	"bytes"
	"fmt"

	"github.com/riskgate/riskgate/gate/result"
)

// FileNames are the files --out DIR receives, in the order they are written.
var FileNames = []string{"result.json", "report.md", "junit.xml", "report.html"}

// Files renders every report file of r.
func Files(r *result.Result) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, name := range FileNames {
		var b bytes.Buffer
		var err error
		switch name {
		case "result.json":
			err = result.WriteJSON(&b, r)
		case "report.md":
			err = Markdown(&b, r)
		case "junit.xml":
			err = JUnit(&b, r)
		case "report.html":
			err = HTML(&b, r)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out[name] = b.Bytes()
	}
	return out, nil
}
