package scores

// RoleTopics is the Source role of a topics file (LoadTopicAttributesSource).
const RoleTopics = "topics"

// LoadTopicAttributesSource is LoadTopicAttributes with the file's Source:
// its digest taken as the parser reads, and the file checked not to change
// while it is read (and by VerifySources later), as every other input of a
// gate — the topics file is part of the decision's provenance.
func LoadTopicAttributesSource(path string) (*TopicAttributes, Source, error) {
	t, err := opener{}.open(path, RoleTopics, nil)
	if err != nil {
		return nil, Source{}, err
	}
	defer t.close()
	a, err := readTopicAttributes(t, path)
	if err != nil {
		return nil, Source{}, err
	}
	src, err := t.finish()
	if err != nil {
		return nil, Source{}, err
	}
	return a, src, nil
}
