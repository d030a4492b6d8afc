// Package buildinfo says which riskgate this is: the version stamped by a
// release build, or the module version Go recorded, or "(devel)".
package buildinfo

import "runtime/debug"

// version is set by release builds:
//
//	go build -ldflags "-X github.com/riskgate/riskgate/internal/buildinfo.version=v1.2.3" ./cmd/riskgate
var version = ""

// Version is the tool version printed by --version and recorded in provenance:
// the stamped release, else the module version of a `go install pkg@version`,
// else "(devel)".
func Version() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}
