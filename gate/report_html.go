package gate

import (
	"html/template"
	"io"
)

// writeHTMLReport writes the HTML report of a gate run (report.html).
//
// Placeholder: the HTML report with SVG plots (the system-effect forest plot
// and topic-effect intervals, risk against loss weight, per-topic predictive
// intervals, posterior densities) is being written against Result on its
// own branch. Until it lands this page says what was decided and points to
// the other reports.
func writeHTMLReport(w io.Writer, r *Result) error {
	return htmlPlaceholder.Execute(w, r)
}

var htmlPlaceholder = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>riskgate: {{.Verdict}}</title></head>
<body>
<h1>riskgate: {{.Verdict}}</h1>
<p>Policy {{.Policy.Name}}. {{with .Decision}}{{.Reason}}{{end}}</p>
<p>The full report is in report.md and result.json beside this file.</p>
</body>
</html>
`))
