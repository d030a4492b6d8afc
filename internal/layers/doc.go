// Package layers holds the test that keeps riskgate's imports pointing one
// way, as docs/architecture.md draws them; it has no code of its own.
package layers
