// Package pipelines holds the tests of the files riskgate ships for CI and
// release pipelines: the GitHub Action (action.yml), the workflows under
// .github/workflows, and the recipes under docs/recipes that docs/ci.md
// shows. Each file is parsed, and its shell is run against stub riskgate,
// go and curl commands with a fake environment.
package pipelines
