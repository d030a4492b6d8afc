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

	"github.com/riskgate/riskgate/internal/inputerr"
	"github.com/riskgate/riskgate/internal/suggest"
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
	if err := checkText(file, data); err != nil {
		return nil, err
	}
	root, err := decodeYAML(file, data)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	ps := &parser{file: file, p: &Policy{
		File: file, Digest: hex.EncodeToString(sum[:]),
		Seed: defaultSeed, Model: defaultModel, Select: SelectBest, RankBy: "mean_diff", OnInconclusive: Inconclusive, OnInsufficientPool: Warn,
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
		return nil, yamlError(file, data, err)
	}
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		return nil, inputerr.AtCol(file, next.Line, next.Column, "a policy file holds one YAML document, but a second one starts here")
	} else if !errors.Is(err, io.EOF) {
		return nil, yamlError(file, data, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, inputerr.AtCol(file, 1, 1, "the policy is empty; expected a mapping with version, name and rules (riskgate policy init writes a starter)")
	}
	return doc.Content[0], nil
}

func yamlError(file string, data []byte, err error) error {
	msg := err.Error()
	if m := yamlErrLine.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		// yaml.v3 numbers lines from 1 in scanner errors but from 0 in parser
		// errors, which are the ones that say "did not find expected …".
		if strings.HasPrefix(m[2], "did not find expected") {
			line++
		}
		detail := ""
		if slices.Contains(blockContextErrors, m[2]) {
			if p := problemLine(data, line, msg); p != line {
				detail = fmt.Sprintf(" (the block it breaks starts at line %d; is this line indented as its siblings are?)", line)
				line = p
			}
		}
		line, col := yamlPosition(data, line, m[2])
		return inputerr.AtCol(file, line, col, "invalid YAML: %s%s", m[2], detail)
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	line, col := unnumberedPosition(data, msg)
	return inputerr.AtCol(file, line, col, "invalid YAML: %s", msg)
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

// Scalar readers. Each reports a wrong type at the value and returns ok=false.

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
			p.OnInconclusive, p.OnInconclusivePos = Verdict(s), pos(deref(e.val))
		}
	}
	if e, ok := m.get("on_insufficient_pool"); ok {
		if s, ok := ps.enum(e, "on_insufficient_pool", enumStrings(onInsufficientPoolValues)); ok {
			p.OnInsufficientPool = Verdict(s)
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
				"no rule has id %q%s (valid: %s)", w.Rule, suggest.DidYouMean(w.Rule, ids), strings.Join(ids, ", "))
		}
	}
}
