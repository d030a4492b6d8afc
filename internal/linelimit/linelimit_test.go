package linelimit

import (
	"fmt"
	"strings"
	"testing"
)

func TestMessageNamesMax(t *testing.T) {
	if want := fmt.Sprintf("line longer than %d MB;", Max>>20); !strings.HasPrefix(Message, want) || Max%(1<<20) != 0 {
		t.Errorf("Message %q does not name Max = %d bytes (%q)", Message, Max, want)
	}
	if got := (&Error{Line: 7}).Error(); got != "line 7: "+Message {
		t.Errorf("Error() = %q", got)
	}
}
