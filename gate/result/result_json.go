package result

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/riskgate/riskgate/internal/inputerr"
	"github.com/riskgate/riskgate/policies"
)

// Reading result.json back into a Result. Result's JSON form is written by
// encoding/json; two of its parts come from package policies, which writes
// them in their own forms and does not read them: an Observation
// ({"number": v}, {"category": c} or {"unavailable": reason}) and a Bound
// ({"at_least": v}, {"at_most": v}, {"in": [lo, hi]} or {"in": [outcomes]}).
// The readers below turn those forms back into the values they came from, so
// that a Result read from its JSON writes the same JSON again (a test checks).

// WriteJSON writes r as indented JSON, the form of result.json, with its
// decision's digest (DecisionSHA256).
func WriteJSON(w io.Writer, r *Result) error {
	digest, err := r.DecisionDigest()
	if err != nil {
		return err
	}
	r.DecisionSHA256 = digest
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// Read parses result.json. Errors are positioned in file; a result of
// another schema version is refused, and so is one whose derived fields
// (the top-level verdict and exit status, the provenance's copies of the
// tool's version and of the policy's file, digest and seed) are not what
// the result's own records give.
func Read(file string, data []byte) (*Result, error) {
	var r Result
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&r); err != nil {
		return nil, JSONError(file, data, dec.InputOffset(), err)
	}
	if dec.More() {
		return nil, JSONError(file, data, dec.InputOffset(), errors.New("unexpected data after the result object"))
	}
	switch {
	case r.SchemaVersion == 0:
		return nil, inputerr.At(file, 0, "not a riskgate gate result: no schema_version (write it with riskgate gate --out DIR)")
	case r.SchemaVersion != SchemaVersion:
		return nil, inputerr.At(file, 0, "result schema_version %d: this riskgate reads version %d; publish with the riskgate that computed it", r.SchemaVersion, SchemaVersion)
	case r.Decision == nil:
		return nil, inputerr.At(file, 0, "the result has no decision")
	}
	if err := r.written.agrees(r.derive()); err != nil {
		return nil, inputerr.At(file, 0, "the result is inconsistent, refused: %v", err)
	}
	r.written = nil
	return &r, nil
}

// derived are the fields of result.json that are derived when written:
// copies, for the readers of the file, of what the result holds elsewhere.
type derived struct {
	Verdict      policies.Verdict // the decision's
	ExitStatus   int              // the verdict's
	ToolVersion  string           // Tool.Version
	PolicyFile   string           // Policy.File
	PolicySHA256 string           // Policy.SHA256
	Seed         uint64           // Policy.Seed
}

// derive is what r's derived fields are.
func (r *Result) derive() derived {
	return derived{Verdict: r.Verdict(), ExitStatus: r.ExitStatus(), ToolVersion: r.Tool.Version,
		PolicyFile: r.Policy.File, PolicySHA256: r.Policy.SHA256, Seed: r.Policy.Seed}
}

// agrees says which field of w, as a file holds them, is not what the
// result gives (want); nil when every one is.
func (w *derived) agrees(want derived) error {
	switch {
	case w == nil:
		return nil
	case w.Verdict != want.Verdict:
		return fmt.Errorf("verdict %s, but the decision's is %s", w.Verdict, want.Verdict)
	case w.ExitStatus != want.ExitStatus:
		return fmt.Errorf("exit_status %d, but the verdict %s gives %d", w.ExitStatus, want.Verdict, want.ExitStatus)
	case w.ToolVersion != want.ToolVersion:
		return fmt.Errorf("provenance.tool_version %q, but tool.version is %q", w.ToolVersion, want.ToolVersion)
	case w.PolicyFile != want.PolicyFile:
		return fmt.Errorf("provenance.policy_file %q, but policy.file is %q", w.PolicyFile, want.PolicyFile)
	case w.PolicySHA256 != want.PolicySHA256:
		return fmt.Errorf("provenance.policy_sha256 %q, but policy.sha256 is %q", w.PolicySHA256, want.PolicySHA256)
	case w.Seed != want.Seed:
		return fmt.Errorf("provenance.seed %d, but policy.seed is %d", w.Seed, want.Seed)
	}
	return nil
}

// result.json's layout is Result's own fields, with the derived ones at
// their places: plainResult and plainProvenance are Result and Provenance
// without their JSON methods, embedded in the layouts below, whose own
// fields come first or, shadowing the embedded ones of the same name,
// last (encoding/json orders fields by position and lets the shallower of
// two of one name win).
type (
	plainResult     Result
	plainProvenance Provenance
)

type resultJSON struct {
	SchemaVersion int              `json:"schema_version"`
	Tool          Tool             `json:"tool"`
	Verdict       policies.Verdict `json:"verdict"`
	ExitStatus    int              `json:"exit_status"`
	*plainResult
	Provenance     provenanceJSON `json:"provenance"`
	DecisionSHA256 string         `json:"decision_sha256,omitempty"`
}

type provenanceJSON struct {
	ToolVersion  string      `json:"tool_version"`
	PolicyFile   string      `json:"policy_file"`
	PolicySHA256 string      `json:"policy_sha256"`
	Inputs       []InputFile `json:"inputs"`
	Seed         uint64      `json:"seed"`
	*plainProvenance
}

// MarshalJSON writes r in result.json's layout, its derived fields derived.
func (r Result) MarshalJSON() ([]byte, error) {
	d := r.derive()
	plain, prov := plainResult(r), plainProvenance(r.Provenance)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // as WriteJSON: the encoder that calls this keeps the bytes
	err := enc.Encode(resultJSON{SchemaVersion: r.SchemaVersion, Tool: r.Tool, Verdict: d.Verdict, ExitStatus: d.ExitStatus, plainResult: &plain,
		Provenance: provenanceJSON{ToolVersion: d.ToolVersion, PolicyFile: d.PolicyFile, PolicySHA256: d.PolicySHA256,
			Inputs: r.Provenance.Inputs, Seed: d.Seed, plainProvenance: &prov},
		DecisionSHA256: r.DecisionSHA256})
	return b.Bytes(), err
}

// UnmarshalJSON reads a Result, including its policies.Decision, and keeps
// the derived fields as written for Read to check.
func (r *Result) UnmarshalJSON(data []byte) error {
	aux := struct {
		resultJSON
		Decision *decisionJSON `json:"decision"`
	}{resultJSON: resultJSON{plainResult: (*plainResult)(r), Provenance: provenanceJSON{plainProvenance: (*plainProvenance)(&r.Provenance)}}}
	if err := json.Unmarshal(data, &aux); err != nil {
		return withoutAlias(err)
	}
	r.SchemaVersion, r.Tool, r.Decision = aux.SchemaVersion, aux.Tool, aux.Decision.decision()
	r.Provenance.Inputs, r.DecisionSHA256 = aux.Provenance.Inputs, aux.DecisionSHA256
	p := aux.Provenance
	r.written = &derived{Verdict: aux.Verdict, ExitStatus: aux.ExitStatus, ToolVersion: p.ToolVersion, PolicyFile: p.PolicyFile,
		PolicySHA256: p.PolicySHA256, Seed: p.Seed}
	return nil
}

// UnmarshalJSON reads a rule, including its policies.Bound.
func (rr *Rule) UnmarshalJSON(data []byte) error {
	type plain Rule
	aux := struct {
		*plain
		Bound boundJSON `json:"bound"`
	}{plain: (*plain)(rr)}
	if err := json.Unmarshal(data, &aux); err != nil {
		return withoutAlias(err)
	}
	rr.Bound = aux.Bound.Bound
	return nil
}

// withoutAlias drops the names of the alias and layout types above from
// the field path of a type error ("plain.policy" → "policy",
// "resultJSON.plainResult.warnings" → "warnings").
func withoutAlias(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		for _, alias := range []string{"resultJSON.", "plainResult.", "provenanceJSON.", "plainProvenance.", "plain."} {
			te.Field = strings.ReplaceAll(te.Field, alias, "")
		}
	}
	return err
}

// The JSON forms of policies.Decision and its parts, field for field.
type decisionJSON struct {
	Policy      string           `json:"policy"`
	Verdict     policies.Verdict `json:"verdict"`
	Raw         policies.Verdict `json:"raw_verdict"`
	Reason      string           `json:"reason"`
	Select      policies.Select  `json:"select"`
	RankBy      string           `json:"rank_by"`
	Selected    []string         `json:"selected"`
	Challengers []challengerJSON `json:"challengers"`
	Unmet       []policies.Unmet `json:"unmet_requirements"`
	Notes       []string         `json:"notes"`
}

type challengerJSON struct {
	Name     string           `json:"name"`
	Verdict  policies.Verdict `json:"verdict"`
	Reason   string           `json:"reason"`
	Rank     *observationJSON `json:"rank"`
	Selected bool             `json:"selected"`
	Rules    []ruleResultJSON `json:"rules"`
}

type ruleResultJSON struct {
	Rule          string              `json:"rule"`
	Description   string              `json:"description"`
	Quantity      string              `json:"quantity"`
	Measure       string              `json:"measure"`
	LowerIsBetter bool                `json:"lower_is_better"`
	Query         policies.Query      `json:"query"`
	Severity      policies.Severity   `json:"severity"`
	Bound         boundJSON           `json:"bound"`
	BoundWords    string              `json:"bound_words"`
	Observed      observationJSON     `json:"observed"`
	BeforeMargin  *observationJSON    `json:"before_margin"`
	Unadjusted    *observationJSON    `json:"unadjusted"`
	Correction    policies.Correction `json:"correction"`
	Outcome       policies.Outcome    `json:"outcome"`
	WaivedOutcome policies.Outcome    `json:"waived_outcome"`
	Reason        string              `json:"reason"`
	Waiver        *policies.WaiverUse `json:"waiver"`
	Assumed       assumedJSON         `json:"assumed"`
	// A by: rule's dimension, semantics, worst segment and segments.
	By          string                    `json:"by"`
	BySemantics policies.SegmentSemantics `json:"by_semantics"`
	Segment     string                    `json:"segment"`
	Segments    []segmentResultJSON       `json:"segments"`
}

// segmentResultJSON reads a policies.SegmentResult, its observations included.
type segmentResultJSON struct {
	Segment      string           `json:"segment"`
	Topics       int              `json:"topics"`
	Observed     observationJSON  `json:"observed"`
	BeforeMargin *observationJSON `json:"before_margin"`
	Unadjusted   *observationJSON `json:"unadjusted"`
	Outcome      policies.Outcome `json:"outcome"`
	Reason       string           `json:"reason"`
	Assumed      assumedJSON      `json:"assumed"`
}

func (s segmentResultJSON) segment() policies.SegmentResult {
	return policies.SegmentResult{Segment: s.Segment, Topics: s.Topics, Observed: s.Observed.Observation, BeforeMargin: s.BeforeMargin.observation(),
		Unadjusted: s.Unadjusted.observation(), Outcome: s.Outcome, Reason: s.Reason, Assumed: s.Assumed.outcomes()}
}

// assumedJSON reads a rule's or segment's policies.AssumedOutcome list,
// its observations included: without it a result whose rules were judged
// under other assumptions about unjudged documents would read back without
// them, and publish would refuse it as edited (its decision digest covers
// them).
type assumedJSON []struct {
	Assumption string           `json:"assumption"`
	Observed   observationJSON  `json:"observed"`
	Outcome    policies.Outcome `json:"outcome"`
}

func (a assumedJSON) outcomes() []policies.AssumedOutcome {
	if a == nil {
		return nil
	}
	out := make([]policies.AssumedOutcome, len(a))
	for i, x := range a {
		out[i] = policies.AssumedOutcome{Assumption: x.Assumption, Observed: x.Observed.Observation, Outcome: x.Outcome}
	}
	return out
}

func (d *decisionJSON) decision() *policies.Decision {
	if d == nil {
		return nil
	}
	out := &policies.Decision{
		Policy: d.Policy, Verdict: d.Verdict, Raw: d.Raw, Reason: d.Reason, Select: d.Select, RankBy: d.RankBy,
		Selected: d.Selected, Challengers: make([]policies.ChallengerDecision, len(d.Challengers)), Unmet: d.Unmet, Notes: d.Notes,
	}
	if out.Selected == nil {
		out.Selected = []string{}
	}
	for i, c := range d.Challengers {
		cd := policies.ChallengerDecision{Name: c.Name, Verdict: c.Verdict, Reason: c.Reason, Selected: c.Selected,
			Rank: c.Rank.observation(), Rules: make([]policies.RuleResult, len(c.Rules))}
		for j, r := range c.Rules {
			cd.Rules[j] = policies.RuleResult{
				Rule: r.Rule, Description: r.Description, Quantity: r.Quantity, Measure: r.Measure, LowerIsBetter: r.LowerIsBetter, Query: r.Query, Severity: r.Severity,
				Bound: r.Bound.Bound, BoundWords: r.BoundWords, Observed: r.Observed.Observation,
				BeforeMargin: r.BeforeMargin.observation(), Unadjusted: r.Unadjusted.observation(), Correction: r.Correction, Outcome: r.Outcome,
				WaivedOutcome: r.WaivedOutcome, Reason: r.Reason, Waiver: r.Waiver, Assumed: r.Assumed.outcomes(),
				By: r.By, BySemantics: r.BySemantics, Segment: r.Segment,
			}
			for _, sr := range r.Segments {
				cd.Rules[j].Segments = append(cd.Rules[j].Segments, sr.segment())
			}
		}
		out.Challengers[i] = cd
	}
	return out
}

// observationJSON reads what policies.Observation.MarshalJSON writes.
type observationJSON struct{ policies.Observation }

func (o *observationJSON) observation() *policies.Observation {
	if o == nil {
		return nil
	}
	obs := o.Observation
	return &obs
}

func (o *observationJSON) UnmarshalJSON(data []byte) error {
	var v struct {
		Number      *float64 `json:"number"`
		Category    *string  `json:"category"`
		Unavailable *string  `json:"unavailable"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	switch {
	case v.Number != nil && v.Category == nil && v.Unavailable == nil:
		o.Observation = policies.Number(*v.Number)
	case v.Category != nil && v.Number == nil && v.Unavailable == nil:
		o.Observation = policies.Category(*v.Category)
	case v.Unavailable != nil && v.Number == nil && v.Category == nil:
		o.Observation = policies.Unavailable(*v.Unavailable)
	default:
		return fmt.Errorf("an observation: expected one of {\"number\": …}, {\"category\": …} or {\"unavailable\": …}, got %s", clipJSON(data))
	}
	return nil
}

// boundJSON reads what policies.Bound.MarshalJSON writes.
type boundJSON struct{ policies.Bound }

func (b *boundJSON) UnmarshalJSON(data []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	bad := fmt.Errorf("a bound: expected {\"at_least\": v}, {\"at_most\": v}, {\"in\": [lo, hi]} or {\"in\": [outcome, …]}, got %s", clipJSON(data))
	if len(m) != 1 {
		return bad
	}
	for op, raw := range m {
		switch policies.BoundOp(op) {
		case policies.AtLeast, policies.AtMost:
			var v float64
			if json.Unmarshal(raw, &v) != nil {
				return bad
			}
			b.Bound = policies.Bound{Op: policies.BoundOp(op), Value: v}
		case policies.In:
			var pair []float64
			if json.Unmarshal(raw, &pair) == nil && len(pair) == 2 {
				b.Bound = policies.Bound{Op: policies.In, Lo: pair[0], Hi: pair[1]}
				return nil
			}
			var outcomes []string
			if json.Unmarshal(raw, &outcomes) != nil || outcomes == nil {
				return bad
			}
			b.Bound = policies.Bound{Op: policies.In, Outcomes: outcomes}
		default:
			return bad
		}
	}
	return nil
}

// clipJSON quotes at most 60 bytes of data for an error message.
func clipJSON(data []byte) string {
	if len(data) > 60 {
		return string(data[:60]) + "…"
	}
	return string(data)
}

// JSONError locates a JSON decoding error at its line and column.
func JSONError(file string, data []byte, offset int64, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	msg := err.Error()
	switch {
	case errors.As(err, &se):
		offset = se.Offset - 1 // the offending byte
		msg = "not valid JSON: " + se.Error()
	case errors.As(err, &te):
		offset = te.Offset
		msg = fmt.Sprintf("%s: expected %s, got JSON %s", te.Field, te.Type, te.Value)
	case errors.Is(err, io.EOF):
		msg = "empty file: expected a JSON result object"
	case strings.HasPrefix(msg, "json: unknown field "):
		// Point at the key, the last one so named before where decoding stopped.
		key := strings.TrimPrefix(msg, "json: unknown field ")
		offset = min(max(offset, 0), int64(len(data)))
		if i := bytes.LastIndex(data[:offset], []byte(key)); i >= 0 {
			offset = int64(i)
		}
		msg = "unknown field " + key
	}
	offset = min(max(offset, 0), int64(len(data)))
	line := 1 + bytes.Count(data[:offset], []byte("\n"))
	col := int(offset) - bytes.LastIndexByte(data[:offset], '\n')
	return inputerr.AtCol(file, line, col, "%s", msg)
}
