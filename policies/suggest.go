package policies

import "github.com/riskgate/riskgate/internal/suggest"

// didYouMean and suggestion are internal/suggest's, shared with the command
// line's did-you-mean for commands, flags and measures.
var (
	didYouMean = suggest.DidYouMean
	suggestion = suggest.Closest
)
