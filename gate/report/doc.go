// Package report renders a result.Result: the terminal table, report.md
// (a pull-request comment), report.html (inline SVG figures from embedded
// templates), junit.xml, and the GitHub publication (Files, Text, GitHub). It
// depends on result, never on the engine: its tests render golden results.
package report
