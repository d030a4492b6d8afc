package gate

import (
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/policies"
	"github.com/urfave/cli/v3"
)

// topicsFileOptions are the flags of a topics file (scores.TopicAttributes):
// the segments of each topic and optionally its weight. A command that
// rules per segment adds flags() to its flags and calls load (or, with a
// policy, forPolicy) with the topics of its scores.
type topicsFileOptions struct {
	File string // --topics-file; "" when none
	// Unsegmented puts a topic of the scores the file does not list in
	// segment "unsegmented" instead of refusing it.
	Unsegmented bool
}

func (o *topicsFileOptions) flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "topics-file", Destination: &o.File,
			Usage: "CSV or TSV `FILE` of topic attributes: a topic column, one or more segment columns, optionally a weight column (overrides the policy's inputs.topics_file)"},
		&cli.BoolFlag{Name: "unsegmented", Destination: &o.Unsegmented,
			Usage: `put topics the --topics-file does not list in segment "unsegmented" instead of refusing them`},
	}
}

// load reads the topics file, if one is named, and checks it against the
// topics of the scores; it returns nil attributes when none is named, and
// the warnings (topics of the file without scores) to print.
func (o *topicsFileOptions) load(topics []string) (*scores.TopicAttributes, []string, error) {
	a, _, warnings, err := o.loadFile(o.File, topics)
	return a, warnings, err
}

// forPolicy reads the topics file of a gate with policy p — --topics-file,
// else the policy's inputs.topics_file (relative to the policy's folder) —
// and checks it against the topics of the scores and the dimensions of the
// policy's by: rules: a by: rule without a topics file, or naming a
// dimension the file lacks, is an error at the rule's by: key. It returns
// nil attributes when neither names a file, the file's Source (an input of
// the decision) and the warnings: topics of the file without scores, and
// topics of the scores put in segment unsegmented.
func (o *topicsFileOptions) forPolicy(p *policies.Policy, topics []string) (*scores.TopicAttributes, *scores.Source, []string, error) {
	path := o.File
	if path == "" {
		path = p.TopicsFilePath()
	}
	if path == "" {
		return nil, nil, nil, p.CheckDimensions(nil)
	}
	a, src, warnings, err := o.loadFile(path, topics)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := p.CheckDimensions(a.Dimensions); err != nil {
		return nil, nil, nil, err
	}
	return a, src, warnings, nil
}

// loadFile reads the topics file path and covers the topics of the scores
// with it (scores.TopicAttributes.Cover).
func (o *topicsFileOptions) loadFile(path string, topics []string) (*scores.TopicAttributes, *scores.Source, []string, error) {
	if path == "" {
		return nil, nil, nil, nil
	}
	a, src, err := scores.LoadTopicAttributesSource(path)
	if err != nil {
		return nil, nil, nil, err
	}
	warnings, err := a.Cover(topics, o.Unsegmented)
	if err != nil {
		return nil, nil, nil, err
	}
	return a, &src, warnings, nil
}
