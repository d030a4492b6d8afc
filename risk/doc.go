// Package risk computes the frequentist risk-sensitive measures (URisk, TRisk,
// BCa intervals, ZRisk, GeoRisk) and the classical significance tests over
// per-topic scores. It does no I/O.
package risk
