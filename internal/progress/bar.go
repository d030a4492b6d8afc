package progress

import (
	"fmt"
	"strings"
	"time"

	"github.com/riskgate/riskgate/internal/numfmt"
)

// Bar is a progress line: what, a bar of 20 cells, the share and count
// done, and the time left at the pace so far.
func Bar(what string, done, total int, elapsed time.Duration) string {
	frac := float64(done) / float64(max(total, 1))
	cells := int(frac * 20)
	line := fmt.Sprintf("%s [%s%s] %3.0f%% (%s of %s)", what, strings.Repeat("#", cells), strings.Repeat(".", 20-cells),
		100*frac, numfmt.Thousands(done), numfmt.Thousands(total))
	if done > 0 && done < total {
		left := time.Duration(float64(elapsed) * float64(total-done) / float64(done))
		line += ", about " + left.Round(time.Second).String() + " left"
	}
	return line
}
