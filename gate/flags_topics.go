package gate

import (
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/urfave/cli/v3"
)

// topicsFileOptions are the flags of a topics file (scores.TopicAttributes):
// the segments of each topic and optionally its weight. A command that
// rules per segment adds flags() to its flags and calls load with the
// topics of its scores.
type topicsFileOptions struct {
	File string // --topics-file; "" when none
	// Unsegmented puts a topic of the scores the file does not list in
	// segment "unsegmented" instead of refusing it.
	Unsegmented bool
}

func (o *topicsFileOptions) flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "topics-file", Destination: &o.File,
			Usage: "CSV or TSV `FILE` of topic attributes: a topic column, one or more segment columns, optionally a weight column"},
		&cli.BoolFlag{Name: "unsegmented", Destination: &o.Unsegmented,
			Usage: `put topics the --topics-file does not list in segment "unsegmented" instead of refusing them`},
	}
}

// load reads the topics file, if one is named, and checks it against the
// topics of the scores; it returns nil attributes when none is named, and
// the warnings (topics of the file without scores) to print.
func (o *topicsFileOptions) load(topics []string) (*scores.TopicAttributes, []string, error) {
	if o.File == "" {
		return nil, nil, nil
	}
	a, err := scores.LoadTopicAttributes(o.File)
	if err != nil {
		return nil, nil, err
	}
	warnings, err := a.Cover(topics, o.Unsegmented)
	if err != nil {
		return nil, nil, err
	}
	return a, warnings, nil
}
