// Package result is the result of a gate run and its JSON contract,
// result.json (SchemaVersion; within a version fields are only added), read
// and written here; every report is rendered from a Result and nothing else.
//
// It is also the one definition of a fitted posterior's summary — Effect,
// Comparison, Estimate, Interval, Ranking and Quantity, built by NewEffect,
// NewComparison, NewEstimate, NewRanking and NewQuantity — used by the gate,
// fit, compare, pair, classify and the reports.
package result
