package policies

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/riskgate/riskgate/internal/suggest"
)

// Reading YAML nodes: positions, descriptions of what a node holds, mappings
// with known keys, and scalar readers that report a wrong type at the value.

func pos(n *yaml.Node) Pos { return Pos{Line: n.Line, Column: n.Column} }

// deref follows aliases (*name) to the anchored node.
func deref(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// clip shortens a user's string for an error message, which stays one
// readable line however long the input.
func clip(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}

// describe names a YAML value for messages: `string "x"`, `number 5`, `a list`.
func describe(n *yaml.Node) string {
	n = deref(n)
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		v := clip(n.Value)
		switch n.ShortTag() {
		case "!!str":
			return fmt.Sprintf("string %q", v)
		case "!!int", "!!float":
			return "number " + v
		case "!!bool":
			return "boolean " + v
		case "!!null":
			return "an empty value"
		case "!!timestamp":
			return "date " + v
		}
		return fmt.Sprintf("%s %q", n.ShortTag(), v)
	}
	return "an unknown value"
}

func isNull(n *yaml.Node) bool {
	n = deref(n)
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// entry is one key: value pair of a mapping.
type entry struct{ key, val *yaml.Node }

// mapping is a checked YAML mapping: only known keys, no duplicates, the
// required keys present. Optional keys with an empty value count as absent.
type mapping struct {
	node    *yaml.Node
	path    string
	entries map[string]entry
	// misspelt are the valid keys an unknown key was taken for a typo of; a
	// missing key that is one of them is not reported again.
	misspelt map[string]bool
}

func (m *mapping) get(name string) (entry, bool) {
	e, ok := m.entries[name]
	return e, ok
}

func child(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// where names a mapping for messages about its keys.
func where(path string) string {
	if path == "" {
		return "at the top level"
	}
	return "in " + path
}

func (ps *parser) mapping(n *yaml.Node, path, what string, fields []field) (*mapping, bool) {
	n = deref(n)
	if n.Kind != yaml.MappingNode {
		ps.errorf(n, path, "expected %s (a mapping of keys: %s), got %s", what, strings.Join(fieldNames(fields), ", "), describe(n))
		return nil, false
	}
	m := &mapping{node: n, path: path, entries: map[string]entry{}, misspelt: map[string]bool{}}
	names := fieldNames(fields)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		kd := deref(k)
		if kd.Kind != yaml.ScalarNode {
			ps.errorf(k, "", "a key must be a plain name, got %s %s (valid: %s)", describe(kd), where(path), strings.Join(names, ", "))
			continue
		}
		if kd.ShortTag() == "!!merge" {
			ps.errorf(k, path, "merge keys (<<) are not supported; write the keys out")
			continue
		}
		name := kd.Value
		fi := slices.Index(names, name)
		if fi < 0 {
			ps.errorf(k, "", "unknown key %q %s%s (valid: %s)", clip(name), where(path), suggest.DidYouMean(name, names), strings.Join(names, ", "))
			if s := suggest.Closest(name, names); s != "" {
				m.misspelt[s] = true
			}
			continue
		}
		if prev, dup := m.entries[name]; dup {
			ps.errorf(k, child(path, name), "key given twice (first at line %d)", prev.key.Line)
			continue
		}
		if isNull(v) && !fields[fi].required {
			continue
		}
		m.entries[name] = entry{key: k, val: v}
	}
	for _, f := range fields {
		if _, ok := m.entries[f.name]; f.required && !ok && !m.misspelt[f.name] {
			ps.errorf(n, path, "missing required key %q (%s)", f.name, f.doc)
		}
	}
	return m, true
}

func (ps *parser) str(e entry, path string) (string, bool) {
	v := deref(e.val)
	if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!str" {
		hint := ""
		if v.Kind == yaml.ScalarNode && v.ShortTag() != "!!null" {
			hint = fmt.Sprintf(" (quote it: %q)", clip(v.Value))
		}
		ps.errorf(v, path, "expected a string, got %s%s", describe(v), hint)
		return "", false
	}
	return v.Value, true
}

func (ps *parser) nonEmpty(e entry, path string) (string, bool) {
	s, ok := ps.str(e, path)
	if ok && strings.TrimSpace(s) == "" {
		ps.errorf(deref(e.val), path, "must not be empty")
		return "", false
	}
	return s, ok
}

// ident reads a policy name, rule id or waiver rule reference.
var identRE = regexp.MustCompile(idPattern)

func (ps *parser) ident(e entry, path string) (string, bool) {
	s, ok := ps.str(e, path)
	if ok && !identRE.MatchString(s) {
		ps.errorf(deref(e.val), path, "%q is not a valid name (valid: 1 to 64 letters, digits, _ . -, starting with a letter or digit)", clip(s))
		return "", false
	}
	return s, ok
}

func (ps *parser) number(e entry, path string) (float64, bool) {
	return ps.numberNode(e.val, path)
}

func (ps *parser) numberNode(n *yaml.Node, path string) (float64, bool) {
	v := deref(n)
	tag := v.ShortTag()
	if v.Kind != yaml.ScalarNode || (tag != "!!int" && tag != "!!float") {
		hint := ""
		if v.Kind == yaml.ScalarNode && tag == "!!str" {
			if _, err := strconv.ParseFloat(v.Value, 64); err == nil {
				hint = " (remove the quotes)"
			}
		}
		ps.errorf(v, path, "expected a number, got %s%s", describe(v), hint)
		return 0, false
	}
	var f float64
	if err := v.Decode(&f); err != nil {
		ps.errorf(v, path, "expected a number, got %s", describe(v))
		return 0, false
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		ps.errorf(v, path, "expected a finite number, got %s", v.Value)
		return 0, false
	}
	return f, true
}

func (ps *parser) boolean(e entry, path string) (bool, bool) {
	v := deref(e.val)
	if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!bool" {
		hint := ""
		if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!str" && (strings.EqualFold(v.Value, "true") || strings.EqualFold(v.Value, "false")) {
			hint = " (remove the quotes)"
		}
		ps.errorf(v, path, "expected true or false, got %s%s", describe(v), hint)
		return false, false
	}
	var b bool
	if err := v.Decode(&b); err != nil {
		ps.errorf(v, path, "expected true or false, got %s", describe(v))
		return false, false
	}
	return b, true
}

func (ps *parser) integer(e entry, path string, min, max int64) (int64, bool) {
	v := deref(e.val)
	if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!int" {
		ps.errorf(v, path, "expected a whole number, got %s", describe(v))
		return 0, false
	}
	var i int64
	if err := v.Decode(&i); err != nil {
		ps.errorf(v, path, "expected a whole number from %d to %d, got %s", min, max, v.Value)
		return 0, false
	}
	if i < min || i > max {
		if max == math.MaxInt64 {
			ps.errorf(v, path, "expected a whole number of at least %d, got %d", min, i)
		} else {
			ps.errorf(v, path, "expected a whole number from %d to %d, got %d", min, max, i)
		}
		return 0, false
	}
	return i, true
}

func (ps *parser) enum(e entry, path string, valid []string) (string, bool) {
	s, ok := ps.str(e, path)
	if !ok {
		return "", false
	}
	if !slices.Contains(valid, s) {
		ps.errorf(deref(e.val), path, "unknown value %q%s (valid: %s)", clip(s), suggest.DidYouMean(s, valid), strings.Join(valid, ", "))
		return "", false
	}
	return s, true
}

func (ps *parser) list(e entry, path, what string) ([]*yaml.Node, bool) {
	v := deref(e.val)
	if v.Kind != yaml.SequenceNode {
		ps.errorf(v, path, "expected a list of %s, got %s", what, describe(v))
		return nil, false
	}
	return v.Content, true
}

func (ps *parser) date(e entry, path string) (time.Time, bool) {
	v := deref(e.val)
	tag := v.ShortTag()
	if v.Kind != yaml.ScalarNode || (tag != "!!timestamp" && tag != "!!str") {
		ps.errorf(v, path, "expected a date YYYY-MM-DD, got %s", describe(v))
		return time.Time{}, false
	}
	t, err := time.Parse(dateLayout, v.Value)
	if err != nil {
		ps.errorf(v, path, "invalid date %q (valid: a calendar date YYYY-MM-DD, e.g. 2026-12-31)", clip(v.Value))
		return time.Time{}, false
	}
	return t, true
}

// stringList reads a list of distinct non-empty strings.
func (ps *parser) stringList(e entry, path, what string) ([]string, []Pos, bool) {
	items, ok := ps.list(e, path, what)
	if !ok {
		return nil, nil, false
	}
	if len(items) == 0 {
		ps.errorf(deref(e.val), path, "the list is empty; give at least one of %s", what)
		return nil, nil, false
	}
	var out []string
	var at []Pos
	good := true
	for i, item := range items {
		ipath := fmt.Sprintf("%s[%d]", path, i)
		s, ok := ps.nonEmpty(entry{val: item}, ipath)
		if !ok {
			good = false
			continue
		}
		if j := slices.Index(out, s); j >= 0 {
			ps.errorf(deref(item), ipath, "%q is listed twice (first at line %d)", clip(s), at[j].Line)
			good = false
			continue
		}
		out = append(out, s)
		at = append(at, pos(deref(item)))
	}
	return out, at, good
}

func enumStrings[T ~string](values []T) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}
