package jsonfloat

// Float is a float64 in a JSON report: the shortest decimal that reads back
// as the same number, or null when it is NaN or ±Inf (Append, Parse).
type Float float64

// MarshalJSON writes the number, or null.
func (x Float) MarshalJSON() ([]byte, error) { return Append(nil, float64(x)), nil }

// UnmarshalJSON reads a number, or null as NaN.
func (x *Float) UnmarshalJSON(b []byte) error {
	v, err := Parse(b)
	*x = Float(v)
	return err
}

// Ptr returns a pointer to v as a Float, for optional fields.
func Ptr(v float64) *Float { x := Float(v); return &x }

// Floats converts xs to Floats; nil for an empty xs.
func Floats(xs []float64) []Float {
	if len(xs) == 0 {
		return nil
	}
	out := make([]Float, len(xs))
	for i, x := range xs {
		out[i] = Float(x)
	}
	return out
}
