package policies

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

func loadSchema(t *testing.T) map[string]any {
	t.Helper()
	var s map[string]any
	if err := json.Unmarshal(Schema(), &s); err != nil {
		t.Fatalf("schema is not JSON: %v", err)
	}
	return s
}

func TestSchemaGolden(t *testing.T) {
	s := loadSchema(t)
	if s["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %v", s["$schema"])
	}
	checkGolden(t, "schema.golden.json", Schema())
}

// schemaObjects maps each mapping of a policy to its schema object, and to a
// way of placing a YAML key inside that mapping of an otherwise valid policy.
var schemaObjects = []struct {
	name  string
	ref   string
	place func(kv string) string
}{
	{"top", "", func(kv string) string { return validBase + kv + "\n" }},
	{"inputs", "inputs", func(kv string) string { return validBase + "inputs:\n  " + kv + "\n" }},
	{"model", "model", func(kv string) string { return validBase + "model:\n  " + kv + "\n" }},
	{"requirements", "requirements", func(kv string) string { return validBase + "requirements:\n  " + kv + "\n" }},
	{"rule", "rule", func(kv string) string {
		return strings.Replace(validBase, "    at_least: 0.5\n", "    at_least: 0.5\n    "+kv+"\n", 1)
	}},
	{"waiver", "waiver", func(kv string) string {
		return validBase + "waivers:\n  - {rule: r, challenger: c, reason: x, approver: a, expires: 2030-01-01}\n" +
			"  - rule: r\n    challenger: c\n    reason: x\n    approver: a\n    expires: 2030-01-01\n    " + kv + "\n"
	}},
}

const validBase = `version: 1
name: base
rules:
  - id: r
    quantity: bayes.p_better
    at_least: 0.5
`

// sampleValues are valid values of every key, to check that the parser takes
// each key the schema lists. A key added to the schema needs a sample here.
var sampleValues = map[string]string{
	"top.version": "1", "top.name": "n", "top.description": "d", "top.inputs": "{}", "top.champion": "c",
	"top.challengers": "[x]", "top.loss_weight": "2", "top.alpha": "1", "top.seed": "7", "top.model": "{}",
	"top.requirements": "{}", "top.rules": "[{id: r, quantity: wins, at_least: 1}]", "top.select": "all",
	"top.rank_by": "mean", "top.on_inconclusive": "fail", "top.on_insufficient_pool": "inconclusive", "top.waivers": "[]",
	"inputs.paths": "[a.csv]", "inputs.format": "jsonl", "inputs.qrels": "q", "inputs.measure": "map", "inputs.topics": "keep", "inputs.lower_is_better": "[latency_ms]", "inputs.pool": "history", "inputs.pool_mismatch": "refuse", "inputs.topics_file": "topics.csv",
	"model.family": "skew_normal", "model.chains": "2", "model.target_ess": "1000", "model.max_rhat": "1.05", "model.max_draws": "5000", "model.early_stop": "false",
	"requirements.min_topics": "10", "requirements.min_artifacts": "5", "requirements.min_topic_coverage": "0.5", "requirements.min_topics_per_segment": "5",
	"rule.id": "r", "rule.quantity": "bayes.p_better", "rule.description": "d", "rule.severity": "warn", "rule.measure": "nDCG@10", "rule.judgments": "ignore", "rule.by": "origin", "rule.segments": "all_pass",
	"rule.at_least": "0.5", "rule.at_most": "0.5", "rule.in": "[0, 1]",
	"rule.level": "0.9", "rule.correction": "holm", "rule.rope": "[-0.01, 0.01]", "rule.loss_weight": "2",
	"rule.alpha": "1", "rule.alternative": "greater", "rule.margin": "0.02",
	"waiver.rule": "r", "waiver.challenger": "c", "waiver.reason": "x", "waiver.approver": "a", "waiver.expires": "2030-01-01",
}

func schemaProps(t *testing.T, s map[string]any, ref string) []string {
	t.Helper()
	o := s
	if ref != "" {
		o = s["$defs"].(map[string]any)[ref].(map[string]any)
	}
	var keys []string
	for k := range o["properties"].(map[string]any) {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

var validList = regexp.MustCompile(`\(valid: ([^)]*)\)$`)

// TestSchemaKeysMatchParser checks, for every mapping, that the keys the
// parser accepts (read from its unknown-key message) are exactly the keys
// the schema lists, and that the parser really takes each of them.
func TestSchemaKeysMatchParser(t *testing.T) {
	s := loadSchema(t)
	for _, o := range schemaObjects {
		t.Run(o.name, func(t *testing.T) {
			inSchema := schemaProps(t, s, o.ref)
			_, err := Parse("k.yaml", []byte(o.place("zz_no_such_key: 1")))
			if err == nil {
				t.Fatal("unknown key accepted")
			}
			m := validList.FindStringSubmatch(strings.Split(err.Error(), "\n")[0])
			if m == nil {
				t.Fatalf("no valid list in %q", err)
			}
			inParser := strings.Split(m[1], ", ")
			sort.Strings(inParser)
			if !slices.Equal(inParser, inSchema) {
				t.Errorf("parser accepts %v\nschema lists   %v", inParser, inSchema)
			}
			for _, k := range inSchema {
				v, ok := sampleValues[o.name+"."+k]
				if !ok {
					t.Errorf("no sample value for %s.%s", o.name, k)
					continue
				}
				// The key may clash with one already in the base policy (a second
				// bound, a repeated key); what matters is that it is not unknown.
				_, err := Parse("k.yaml", []byte(o.place(k+": "+v)))
				if err != nil && strings.Contains(err.Error(), fmt.Sprintf("unknown key %q", k)) {
					t.Errorf("parser does not take %s.%s: %v", o.name, k, err)
				}
			}
		})
	}
}

// TestExamplesMatchSchema validates the shipped policies against the schema.
func TestExamplesMatchSchema(t *testing.T) {
	s := loadSchema(t)
	for _, f := range append(slices.Clone(examplePolicies), "testdata/full.yaml") {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		v, err := yamlToJSONValue(data)
		if err != nil {
			t.Fatal(err)
		}
		if errs := validateSchema(s, s, v, "$"); len(errs) > 0 {
			t.Errorf("%s does not match the schema:\n%s", f, strings.Join(errs, "\n"))
		}
		if _, err := Parse(f, data); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// schemaBlind are the error cases the schema cannot see: checks across keys
// or values that JSON Schema does not express, and whole-file matters.
var schemaBlind = []string{
	"champion-is-challenger",               // a value compared with another key's
	"duplicate-rule-id",                    // uniqueness of a field across array items
	"numeric-in-reversed",                  // lo ≤ hi
	"rank-by-weighted-without-loss-weight", // a key required by another key's value
	"two-documents",                        // one YAML document per file
	"waiver-invalid-date",                  // format: date is only an annotation in 2020-12
	"waiver-unknown-rule",                  // a reference to a rule id
	"weighted-without-loss-weight",         // a key required at the top by a rule's quantity
}

// TestSchemaRejectsErrorCases checks that the schema is tight: every error
// case the parser rejects is also invalid under the schema, except the
// documented schemaBlind ones, which it must accept (so the list stays true).
func TestSchemaRejectsErrorCases(t *testing.T) {
	s := loadSchema(t)
	files, _ := filepath.Glob("testdata/errors/*.yaml")
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		v, err := yamlToJSONValue(data)
		rejected := err != nil || v == nil || len(validateSchema(s, s, v, "$")) > 0
		blind := slices.Contains(schemaBlind, name)
		switch {
		case blind && rejected:
			t.Errorf("%s is listed as invisible to the schema, but the schema rejects it", name)
		case !blind && !rejected:
			t.Errorf("the schema accepts %s, which the parser rejects", name)
		}
	}
}

// yamlToJSONValue decodes YAML into the values JSON would give: maps,
// slices, float64, string, bool, nil (dates as YYYY-MM-DD strings).
func yamlToJSONValue(data []byte) (any, error) {
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	return jsonify(v)
}

func jsonify(v any) (any, error) {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			j, err := jsonify(e)
			if err != nil {
				return nil, err
			}
			out[k] = j
		}
		return out, nil
	case map[any]any:
		return nil, fmt.Errorf("non-string key")
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			j, err := jsonify(e)
			if err != nil {
				return nil, err
			}
			out[i] = j
		}
		return out, nil
	case int:
		return float64(x), nil
	case int64:
		return float64(x), nil
	case uint64:
		return float64(x), nil
	case float64, string, bool, nil:
		return x, nil
	case time.Time:
		return x.Format("2006-01-02"), nil
	}
	return nil, fmt.Errorf("unexpected YAML value %T", v)
}

// validateSchema is a small JSON Schema (2020-12) validator covering exactly
// the keywords Schema uses; an unknown keyword fails the test rather than
// being ignored. It returns one message per violation.
func validateSchema(root, schema any, v any, path string) []string {
	switch s := schema.(type) {
	case bool:
		if !s {
			return []string{path + ": not allowed"}
		}
		return nil
	case map[string]any:
		var errs []string
		fail := func(format string, args ...any) { errs = append(errs, path+": "+fmt.Sprintf(format, args...)) }
		for kw, arg := range s {
			switch kw {
			case "$schema", "$id", "$defs", "title", "description", "format", "then":
			case "$ref":
				name := strings.TrimPrefix(arg.(string), "#/$defs/")
				errs = append(errs, validateSchema(root, root.(map[string]any)["$defs"].(map[string]any)[name], v, path)...)
			case "type":
				if !hasType(v, arg.(string)) {
					fail("expected %s, got %T", arg, v)
				}
			case "const":
				if !jsonEqual(v, arg) {
					fail("expected %v", arg)
				}
			case "enum":
				if !slices.ContainsFunc(arg.([]any), func(e any) bool { return jsonEqual(v, e) }) {
					fail("%v is not one of %v", v, arg)
				}
			case "properties":
				if m, ok := v.(map[string]any); ok {
					for k, sub := range arg.(map[string]any) {
						if e, ok := m[k]; ok {
							errs = append(errs, validateSchema(root, sub, e, path+"."+k)...)
						}
					}
				}
			case "additionalProperties":
				if m, ok := v.(map[string]any); ok && arg == false {
					props := s["properties"].(map[string]any)
					for k := range m {
						if _, ok := props[k]; !ok {
							fail("unknown property %q", k)
						}
					}
				}
			case "required":
				if m, ok := v.(map[string]any); ok {
					for _, k := range arg.([]any) {
						if _, ok := m[k.(string)]; !ok {
							fail("missing %q", k)
						}
					}
				}
			case "dependentRequired":
				if m, ok := v.(map[string]any); ok {
					for k, needs := range arg.(map[string]any) {
						if _, ok := m[k]; !ok {
							continue
						}
						for _, n := range needs.([]any) {
							if _, ok := m[n.(string)]; !ok {
								fail("%q without %q", k, n)
							}
						}
					}
				}
			case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
				if x, ok := v.(float64); ok {
					b := arg.(float64)
					if (kw == "minimum" && x < b) || (kw == "maximum" && x > b) || (kw == "exclusiveMinimum" && x <= b) || (kw == "exclusiveMaximum" && x >= b) {
						fail("%v violates %s %v", x, kw, b)
					}
				}
			case "minLength":
				if x, ok := v.(string); ok && float64(len([]rune(x))) < arg.(float64) {
					fail("shorter than %v", arg)
				}
			case "pattern":
				if x, ok := v.(string); ok && !regexp.MustCompile(arg.(string)).MatchString(x) {
					fail("%q does not match %s", x, arg)
				}
			case "items":
				if a, ok := v.([]any); ok {
					start := 0
					if p, ok := s["prefixItems"].([]any); ok {
						start = len(p)
					}
					for i := start; i < len(a); i++ {
						errs = append(errs, validateSchema(root, arg, a[i], fmt.Sprintf("%s[%d]", path, i))...)
					}
				}
			case "prefixItems":
				if a, ok := v.([]any); ok {
					for i, sub := range arg.([]any) {
						if i < len(a) {
							errs = append(errs, validateSchema(root, sub, a[i], fmt.Sprintf("%s[%d]", path, i))...)
						}
					}
				}
			case "minItems", "maxItems":
				if a, ok := v.([]any); ok {
					n := float64(len(a))
					if (kw == "minItems" && n < arg.(float64)) || (kw == "maxItems" && n > arg.(float64)) {
						fail("%d items violates %s %v", len(a), kw, arg)
					}
				}
			case "uniqueItems":
				if a, ok := v.([]any); ok && arg == true {
					for i := range a {
						for j := i + 1; j < len(a); j++ {
							if jsonEqual(a[i], a[j]) {
								fail("items %d and %d are equal", i, j)
							}
						}
					}
				}
			case "oneOf":
				n := 0
				for _, sub := range arg.([]any) {
					if len(validateSchema(root, sub, v, path)) == 0 {
						n++
					}
				}
				if n != 1 {
					fail("matches %d of oneOf, want exactly 1", n)
				}
			case "anyOf":
				if !slices.ContainsFunc(arg.([]any), func(sub any) bool { return len(validateSchema(root, sub, v, path)) == 0 }) {
					fail("matches none of anyOf")
				}
			case "allOf":
				for _, sub := range arg.([]any) {
					errs = append(errs, validateSchema(root, sub, v, path)...)
				}
			case "not":
				if len(validateSchema(root, arg, v, path)) == 0 {
					fail("matches a schema it must not")
				}
			case "if":
				if len(validateSchema(root, arg, v, path)) == 0 {
					if then, ok := s["then"]; ok {
						errs = append(errs, validateSchema(root, then, v, path)...)
					}
				}
			default:
				panic("validateSchema: unsupported keyword " + kw)
			}
		}
		return errs
	}
	panic(fmt.Sprintf("validateSchema: schema of type %T", schema))
}

func hasType(v any, typ string) bool {
	switch typ {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "number":
		x, ok := v.(float64)
		return ok && !math.IsNaN(x) && !math.IsInf(x, 0)
	case "integer":
		x, ok := v.(float64)
		return ok && x == math.Trunc(x) && !math.IsInf(x, 0)
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "null":
		return v == nil
	}
	panic("validateSchema: unknown type " + typ)
}

func jsonEqual(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}
