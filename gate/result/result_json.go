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
		Decision *policies.Decision `json:"decision"`
	}{resultJSON: resultJSON{plainResult: (*plainResult)(r), Provenance: provenanceJSON{plainProvenance: (*plainProvenance)(&r.Provenance)}}}
	if err := json.Unmarshal(data, &aux); err != nil {
		return withoutAlias(err)
	}
	r.SchemaVersion, r.Tool, r.Decision = aux.SchemaVersion, aux.Tool, aux.Decision
	if d := r.Decision; d != nil && d.Selected == nil {
		d.Selected = []string{} // as Evaluate makes it: the digest covers it
	}
	r.Provenance.Inputs, r.DecisionSHA256 = aux.Provenance.Inputs, aux.DecisionSHA256
	p := aux.Provenance
	r.written = &derived{Verdict: aux.Verdict, ExitStatus: aux.ExitStatus, ToolVersion: p.ToolVersion, PolicyFile: p.PolicyFile,
		PolicySHA256: p.PolicySHA256, Seed: p.Seed}
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
