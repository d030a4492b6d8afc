package gate

// Stand-ins for the helpers the cleanup branch consolidates in output.go
// (JSONFloat, jsonFloatPtr). They are aliases, not copies: when cleanup lands
// its definitions replace this file, and the gate's code is unchanged.

// JSONFloat is a float64 whose JSON form is null when it is NaN or ±Inf.
type JSONFloat = CompareFloat

// jsonFloatPtr returns a pointer to v as a JSONFloat, for optional fields.
func jsonFloatPtr(v float64) *JSONFloat { return compareFloatPtr(v) }
