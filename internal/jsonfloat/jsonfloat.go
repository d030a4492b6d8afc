// Package jsonfloat is how riskgate writes a number in JSON: the shortest
// decimal that reads back as the same float64, or null for NaN and ±Inf,
// which JSON cannot hold (a value that is undefined, or an infinite
// statistic; the reports' warnings say why).
package jsonfloat

import (
	"encoding/json"
	"math"
	"strconv"
)

// Append appends the JSON form of x to b.
func Append(b []byte, x float64) []byte {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return append(b, "null"...)
	}
	return strconv.AppendFloat(b, x, 'g', -1, 64)
}

// Parse reads what Append writes: a JSON number, or null as NaN.
func Parse(b []byte) (float64, error) {
	if string(b) == "null" {
		return math.NaN(), nil
	}
	var x float64
	err := json.Unmarshal(b, &x)
	return x, err
}
