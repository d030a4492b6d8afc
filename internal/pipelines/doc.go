// Package pipelines holds the tests of the files riskgate ships for CI and
// release pipelines: the GitHub Action (action.yml), the workflows under
// .github/workflows, the recipes under docs/recipes that docs/ci.md shows,
// and the release files (.goreleaser.yaml, install.sh, Containerfile). Each
// file is parsed, and its shell is run against stub riskgate, go and curl
// commands with a fake environment — or, for install.sh and the Action's
// release path, against a release served from 127.0.0.1: goreleaser's
// snapshot when RISKGATE_SNAPSHOT_DIST names it (.ci/run does), else the
// host's archive built by the tests.
package pipelines
