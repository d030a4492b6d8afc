package policies

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/riskgate/riskgate/internal/inputerr"
	"gopkg.in/yaml.v3"
)

// MaxSize is the largest policy file Parse accepts.
const MaxSize = 1 << 20

// maxErrors caps how many problems one parse reports.
const maxErrors = 20

// Load reads and parses the policy file at path. Errors name the path.
func Load(path string) (*Policy, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return Parse(path, data)
}

// Parse parses and validates a policy. file names it in errors. Every problem
// is an *inputerr.Error at file:line:column saying what is wrong and what is
// valid; several problems come back joined (errors.Join, one per line, at most
// 20), so a user can fix them in one pass.
func Parse(file string, data []byte) (*Policy, error) {
	if len(data) > MaxSize {
		return nil, inputerr.At(file, 0, "policy file is larger than %d bytes", MaxSize)
	}
	root, err := decodeYAML(file, data)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	ps := &parser{file: file, p: &Policy{
		File: file, Digest: hex.EncodeToString(sum[:]),
		Seed: defaultSeed, Model: defaultModel, Select: SelectBest, RankBy: "mean_diff", OnInconclusive: Inconclusive,
	}}
	ps.top(root)
	if len(ps.errs) > 0 {
		return nil, ps.err()
	}
	return ps.p, nil
}

var yamlErrLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// decodeYAML parses data into the root mapping node, turning yaml.v3's
// errors into positioned one-line errors.
func decodeYAML(file string, data []byte) (root *yaml.Node, err error) {
	defer func() {
		// yaml.v3 is a port of libyaml; a malformed input must never crash riskgate.
		if r := recover(); r != nil {
			root, err = nil, inputerr.At(file, 0, "invalid YAML (%v)", r)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, inputerr.AtCol(file, 1, 1, "the policy is empty; expected a mapping with version, name and rules (riskgate policy init writes a starter)")
		}
		return nil, yamlError(file, err)
	}
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		return nil, inputerr.AtCol(file, next.Line, next.Column, "a policy file holds one YAML document, but a second one starts here")
	} else if !errors.Is(err, io.EOF) {
		return nil, yamlError(file, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, inputerr.AtCol(file, 1, 1, "the policy is empty; expected a mapping with version, name and rules (riskgate policy init writes a starter)")
	}
	return doc.Content[0], nil
}

func yamlError(file string, err error) error {
	msg := err.Error()
	if m := yamlErrLine.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		// yaml.v3 numbers lines from 1 in scanner errors but from 0 in parser
		// errors, which are the ones that say "did not find expected …".
		if strings.HasPrefix(m[2], "did not find expected") {
			line++
		}
		return inputerr.At(file, line, "invalid YAML: %s", m[2])
	}
	return inputerr.At(file, 0, "invalid YAML: %s", strings.TrimPrefix(msg, "yaml: "))
}

type parser struct {
	file    string
	p       *Policy
	errs    []error
	dropped int
	// policyWeightGiven: the top level sets loss_weight or alpha (even an
	// invalid one, already reported), so rules do not repeat the complaint.
	policyWeightGiven bool
}

func (ps *parser) err() error {
	// Report in file order, whatever order the checks ran in.
	slices.SortStableFunc(ps.errs, func(a, b error) int {
		ea, eb := a.(*inputerr.Error), b.(*inputerr.Error)
		if ea.Line != eb.Line {
			return ea.Line - eb.Line
		}
		return ea.Column - eb.Column
	})
	errs := ps.errs
	if ps.dropped > 0 {
		errs = append(slices.Clone(errs), inputerr.At(ps.file, 0, "%d more problems not shown; fix the ones above first", ps.dropped))
	}
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...)
}

// errorf records a problem at node n. path names the key ("rules[0].at_least").
func (ps *parser) errorf(n *yaml.Node, path, format string, args ...any) {
	if len(ps.errs) >= maxErrors {
		ps.dropped++
		return
	}
	msg := fmt.Sprintf(format, args...)
	if path != "" {
		msg = path + ": " + msg
	}
	ps.errs = append(ps.errs, inputerr.AtCol(ps.file, n.Line, n.Column, "%s", msg))
}

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
			ps.errorf(k, "", "unknown key %q %s%s (valid: %s)", clip(name), where(path), didYouMean(name, names), strings.Join(names, ", "))
			if s := suggestion(name, names); s != "" {
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

// Scalar readers. Each reports a wrong type at the value and returns ok=false.

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
		ps.errorf(deref(e.val), path, "unknown value %q%s (valid: %s)", clip(s), didYouMean(s, valid), strings.Join(valid, ", "))
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

// top parses the root mapping.
func (ps *parser) top(root *yaml.Node) {
	p := ps.p
	m, ok := ps.mapping(root, "", "a policy", topFields)
	if !ok {
		return
	}
	if e, ok := m.get("version"); ok {
		v := deref(e.val)
		if n, ok := ps.integer(e, "version", math.MinInt64, math.MaxInt64); ok {
			if n != Version {
				ps.errorf(v, "version", "unsupported policy version %d (valid: %d)", n, Version)
			}
			p.Version = int(n)
		}
	}
	if e, ok := m.get("name"); ok {
		p.Name, _ = ps.ident(e, "name")
	}
	if e, ok := m.get("description"); ok {
		p.Description, _ = ps.str(e, "description")
	}
	if e, ok := m.get("inputs"); ok {
		ps.inputs(e.val)
	}
	if e, ok := m.get("champion"); ok {
		if s, ok := ps.nonEmpty(e, "champion"); ok {
			p.Champion, p.ChampionPos = s, pos(deref(e.val))
		}
	}
	if e, ok := m.get("challengers"); ok {
		names, at, _ := ps.stringList(e, "challengers", "challenger names or globs")
		for i, s := range names {
			if s == p.Champion {
				ps.errorf(&yaml.Node{Line: at[i].Line, Column: at[i].Column}, fmt.Sprintf("challengers[%d]", i), "%q is the champion; a system cannot be both", clip(s))
				continue
			}
			p.Challengers = append(p.Challengers, Pattern{Text: s, Pos: at[i]})
		}
	}
	lw, hasLW := m.get("loss_weight")
	al, hasAlpha := m.get("alpha")
	switch {
	case hasLW && hasAlpha:
		second := al
		if al.key.Line < lw.key.Line || (al.key.Line == lw.key.Line && al.key.Column < lw.key.Column) {
			second = lw
		}
		ps.errorf(second.key, "", "give loss_weight or alpha, not both (loss_weight = 1 + alpha)")
	case hasLW:
		if w, ok := ps.lossWeight(lw, "loss_weight"); ok {
			p.LossWeight = w
		}
	case hasAlpha:
		if a, ok := ps.alpha(al, "alpha"); ok {
			p.LossWeight, p.FromAlpha = 1+a, true
		}
	}
	if e, ok := m.get("seed"); ok {
		v := deref(e.val)
		var s uint64
		if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!int" || v.Decode(&s) != nil {
			ps.errorf(v, "seed", "expected a whole number from 0 to %d, got %s", uint64(math.MaxUint64), describe(v))
		} else {
			p.Seed = s
		}
	}
	if e, ok := m.get("model"); ok {
		ps.model(e.val)
	}
	if e, ok := m.get("requirements"); ok {
		ps.requirements(e.val)
	}
	ps.policyWeightGiven = hasLW || hasAlpha
	if e, ok := m.get("rules"); ok {
		ps.rules(e)
	}
	if e, ok := m.get("select"); ok {
		if s, ok := ps.enum(e, "select", []string{string(SelectBest), string(SelectAll)}); ok {
			p.Select = Select(s)
		}
	}
	rankBy, hasRankBy := m.get("rank_by")
	if hasRankBy {
		if s, ok := ps.rankBy(rankBy); ok {
			p.RankBy, p.RankByPos = s, pos(deref(rankBy.val))
		}
	}
	if e, ok := m.get("on_inconclusive"); ok {
		if s, ok := ps.enum(e, "on_inconclusive", enumStrings(onInconclusiveValues)); ok {
			p.OnInconclusive = Verdict(s)
		}
	}
	if e, ok := m.get("waivers"); ok {
		ps.waivers(e)
	}

	// Checks across keys.
	if p.LossWeight == 0 && hasRankBy && p.Select == SelectBest {
		if q := LookupQuantity(p.RankBy); q != nil && q.Weighted() && !hasLW && !hasAlpha {
			ps.errorf(deref(rankBy.val), "rank_by", "%s weighs losses, but the policy sets no loss_weight; add loss_weight (losses count w times, e.g. loss_weight: 5) at the top level", q.Name)
		}
	}
	ids := make([]string, len(p.Rules))
	for i, r := range p.Rules {
		ids[i] = r.ID
	}
	for i, w := range p.Waivers {
		if w.Rule != "" && !slices.Contains(ids, w.Rule) && len(ids) > 0 {
			ps.errorf(&yaml.Node{Line: w.rulePos.Line, Column: w.rulePos.Column}, fmt.Sprintf("waivers[%d].rule", i),
				"no rule has id %q%s (valid: %s)", w.Rule, didYouMean(w.Rule, ids), strings.Join(ids, ", "))
		}
	}
}

func enumStrings[T ~string](values []T) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}

func (ps *parser) lossWeight(e entry, path string) (float64, bool) {
	w, ok := ps.number(e, path)
	if ok && w < 1 {
		hint := ""
		if w >= 0 {
			hint = fmt.Sprintf("; if you meant the extra weight alpha, write alpha: %s (= loss_weight %s)", formatNumber(w), formatNumber(1+w))
		}
		ps.errorf(deref(e.val), path, "must be at least 1 (losses count w times; 1 = no extra weight), got %s%s", formatNumber(w), hint)
		return 0, false
	}
	return w, ok
}

func (ps *parser) alpha(e entry, path string) (float64, bool) {
	a, ok := ps.number(e, path)
	if ok && a < 0 {
		ps.errorf(deref(e.val), path, "must be at least 0 (losses count 1 + alpha times), got %s", formatNumber(a))
		return 0, false
	}
	return a, ok
}

func (ps *parser) inputs(n *yaml.Node) {
	m, ok := ps.mapping(n, "inputs", "the inputs", inputFields)
	if !ok {
		return
	}
	in := &ps.p.Inputs
	if e, ok := m.get("paths"); ok {
		in.Paths, _, _ = ps.stringList(e, "inputs.paths", "score file paths")
	}
	if e, ok := m.get("format"); ok {
		in.Format, _ = ps.enum(e, "inputs.format", InputFormats)
	}
	if e, ok := m.get("qrels"); ok {
		in.Qrels, _ = ps.str(e, "inputs.qrels")
	}
	if e, ok := m.get("measure"); ok {
		in.Measure, _ = ps.str(e, "inputs.measure")
	}
	if e, ok := m.get("topics"); ok {
		in.Topics, _ = ps.enum(e, "inputs.topics", TopicModes)
	}
}

func (ps *parser) model(n *yaml.Node) {
	m, ok := ps.mapping(n, "model", "the model settings", modelFields)
	if !ok {
		return
	}
	md := &ps.p.Model
	if e, ok := m.get("family"); ok {
		if s, ok := ps.enum(e, "model.family", enumStrings(families)); ok {
			md.Family = Family(s)
		}
	}
	if e, ok := m.get("chains"); ok {
		if c, ok := ps.integer(e, "model.chains", 1, maxChains); ok {
			md.Chains = int(c)
		}
	}
	if e, ok := m.get("target_ess"); ok {
		if c, ok := ps.integer(e, "model.target_ess", minTargetESS, math.MaxInt32); ok {
			md.TargetESS = int(c)
		}
	}
	if e, ok := m.get("max_rhat"); ok {
		if r, ok := ps.number(e, "model.max_rhat"); ok {
			if r <= 1 {
				ps.errorf(deref(e.val), "model.max_rhat", "expected a number above 1 (e.g. 1.01), got %s", formatNumber(r))
			} else {
				md.MaxRhat = r
			}
		}
	}
}

func (ps *parser) requirements(n *yaml.Node) {
	m, ok := ps.mapping(n, "requirements", "the data requirements", requirementFields)
	if !ok {
		return
	}
	rq := &ps.p.Requirements
	if e, ok := m.get("min_topics"); ok {
		if v, ok := ps.integer(e, "requirements.min_topics", 0, math.MaxInt32); ok {
			rq.MinTopics = int(v)
		}
	}
	if e, ok := m.get("min_artifacts"); ok {
		if v, ok := ps.integer(e, "requirements.min_artifacts", 0, math.MaxInt32); ok {
			rq.MinArtifacts = int(v)
		}
	}
	if e, ok := m.get("min_topic_coverage"); ok {
		if v, ok := ps.number(e, "requirements.min_topic_coverage"); ok {
			if v < 0 || v > 1 {
				ps.errorf(deref(e.val), "requirements.min_topic_coverage", "expected a share from 0 to 1 (e.g. 0.9 for 90%%), got %s", formatNumber(v))
			} else {
				rq.MinTopicCoverage = v
			}
		}
	}
}

func (ps *parser) rankBy(e entry) (string, bool) {
	s, ok := ps.str(e, "rank_by")
	if !ok {
		return "", false
	}
	valid := rankableNames()
	if slices.Contains(valid, s) {
		return s, true
	}
	v := deref(e.val)
	if q := LookupQuantity(s); q != nil {
		ps.errorf(v, "rank_by", "cannot rank by %s: it is not a number that is better when higher or lower (valid: %s)", s, strings.Join(valid, ", "))
	} else {
		ps.errorf(v, "rank_by", "unknown quantity %q%s (valid: %s)", clip(s), didYouMean(s, valid), strings.Join(valid, ", "))
	}
	return "", false
}

func (ps *parser) waivers(e entry) {
	items, ok := ps.list(e, "waivers", "waivers")
	if !ok {
		return
	}
	for i, item := range items {
		path := fmt.Sprintf("waivers[%d]", i)
		m, ok := ps.mapping(item, path, "a waiver", waiverFields)
		if !ok {
			continue
		}
		w := &Waiver{Pos: pos(m.node)}
		good := true
		if e, ok := m.get("rule"); ok {
			w.Rule, ok = ps.ident(e, path+".rule")
			w.rulePos = pos(deref(e.val))
			good = good && ok
		}
		if e, ok := m.get("challenger"); ok {
			var s string
			s, ok = ps.nonEmpty(e, path+".challenger")
			w.Challenger = Pattern{Text: s, Pos: pos(deref(e.val))}
			good = good && ok
		}
		if e, ok := m.get("reason"); ok {
			w.Reason, ok = ps.nonEmpty(e, path+".reason")
			good = good && ok
		}
		if e, ok := m.get("approver"); ok {
			w.Approver, ok = ps.nonEmpty(e, path+".approver")
			good = good && ok
		}
		if e, ok := m.get("expires"); ok {
			w.Expires, ok = ps.date(e, path+".expires")
			good = good && ok
		}
		if good {
			ps.p.Waivers = append(ps.p.Waivers, w)
		}
	}
}
