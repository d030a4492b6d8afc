package policies

import (
	"bytes"
	"encoding/json"
	"slices"
)

// SchemaID is the $id of the policy JSON Schema.
const SchemaID = "https://github.com/riskgate/riskgate/policies/policy-v1.schema.json"

// Schema returns the JSON Schema (draft 2020-12) of policy files, generated
// from the same key lists and quantity registry the parser uses. Editors use
// it for completion and checks; it covers the shape of a policy (keys, types,
// enums, ranges, which parameters and bounds each quantity takes) but not the
// checks across keys that only the parser makes: unique rule ids, waivers
// naming existing rules, a loss weight for rules that weigh losses.
func Schema() []byte {
	defs := obj{
		"inputs":       objectSchema(inputFields, "score inputs; command-line flags override each key"),
		"model":        objectSchema(modelFields, "settings of the Bayesian fits"),
		"requirements": objectSchema(requirementFields, "data the rules need"),
		"rule":         ruleSchema(),
		"waiver":       objectSchema(waiverFields, "a time-limited exemption of one rule for matching challengers"),
		"quantity":     quantitySchema(),
	}
	root := objectSchema(topFields, "A riskgate policy: which challenger rankers may replace the champion, "+
		"judged by rules on statistics of their per-topic scores.")
	root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	root["$id"] = SchemaID
	root["title"] = "riskgate policy"
	root["not"] = obj{"required": []any{"loss_weight", "alpha"}}
	root["$defs"] = defs
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // keep "P(S_challenger > S_champion)" readable
	enc.SetIndent("", "  ")
	if err := enc.Encode(root); err != nil {
		panic(err) // the schema is built from constants; failing to marshal is a bug
	}
	return buf.Bytes()
}

func withDoc(s obj, doc string) obj {
	out := obj{}
	for k, v := range s {
		out[k] = v
	}
	if doc != "" {
		out["description"] = doc
	}
	return out
}

func objectSchema(fields []field, doc string) obj {
	props := obj{}
	var required []any
	for _, f := range fields {
		props[f.name] = withDoc(f.schema, f.doc)
		if f.required {
			required = append(required, f.name)
		}
	}
	s := obj{"type": "object", "additionalProperties": false, "properties": props, "description": doc}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

func quantitySchema() obj {
	var alts []any
	for _, q := range registry {
		alts = append(alts, obj{"const": q.Name, "description": q.Reference()})
	}
	return obj{"type": "string", "description": "a quantity computed per challenger", "oneOf": alts}
}

// ruleSchema is a rule: its keys, exactly one bound, and per quantity the
// parameters it accepts and the bounds that fit its kind.
func ruleSchema() obj {
	s := objectSchema(ruleFields, "a check every challenger must pass")
	s["oneOf"] = []any{
		obj{"required": []any{string(AtLeast)}},
		obj{"required": []any{string(AtMost)}},
		obj{"required": []any{string(In)}},
	}
	s["not"] = obj{"required": []any{string(ParamLossWeight), string(ParamAlpha)}}
	s["dependentRequired"] = obj{"segments": []any{"by"}} // segments: says how a by: rule's segments combine
	var perQuantity []any
	for _, q := range registry {
		props := obj{}
		for _, p := range params {
			switch {
			case !q.Accepts(p):
				props[string(p)] = false
			case p == ParamCorrection:
				props[string(p)] = enumSchema(q.Corrections)
			}
		}
		switch q.Kind {
		case KindCategory:
			props[string(AtLeast)] = false
			props[string(AtMost)] = false
			props[string(In)] = obj{"type": "array", "items": enumSchema(q.Outcomes), "minItems": 1, "uniqueItems": true}
		default:
			value := kindSchema(q.Kind)
			props[string(AtLeast)] = value
			props[string(AtMost)] = value
			props[string(In)] = obj{"type": "array", "prefixItems": []any{value, value}, "minItems": 2, "maxItems": 2}
		}
		then := obj{"properties": props}
		if len(q.Required) > 0 {
			then["required"] = anyStrings(paramNames(q.Required))
		}
		perQuantity = append(perQuantity, obj{
			"if":   obj{"properties": obj{"quantity": obj{"const": q.Name}}, "required": []any{"quantity"}},
			"then": then,
		})
	}
	s["allOf"] = perQuantity
	return s
}

func kindSchema(k Kind) obj {
	switch k {
	case KindProbability:
		return obj{"type": "number", "minimum": 0, "maximum": 1}
	case KindCount:
		return obj{"type": "integer", "minimum": 0}
	}
	return obj{"type": "number"}
}

func anyStrings(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range slices.Clone(ss) {
		out[i] = s
	}
	return out
}
