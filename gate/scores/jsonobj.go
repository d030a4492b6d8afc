package scores

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonKeys are the keys of a JSON Lines record, matched as encoding/json
// matches struct fields: exactly or, failing that, case-insensitively.
var jsonKeys = [...]string{"system", "topic", "measure", "score"}

// jsonRow is one JSON Lines record: the raw value of each key of jsonKeys,
// nil when absent.
type jsonRow [len(jsonKeys)][]byte

func (r *jsonRow) system() []byte  { return r[0] }
func (r *jsonRow) topic() []byte   { return r[1] }
func (r *jsonRow) measure() []byte { return r[2] }
func (r *jsonRow) score() []byte   { return r[3] }

// decodeJSONRow reads one JSON object. It differs from encoding/json in
// refusing what would make a record ambiguous: a key given twice (also in
// two spellings that match one field, "score" and "Score"), and a key that
// is not valid UTF-8 or holds a lone UTF-16 surrogate. Keys of nested
// objects, which riskgate ignores, are not checked. seen is scratch space,
// reused across lines.
func decodeJSONRow(text []byte, seen *[]string) (jsonRow, error) {
	var row jsonRow
	if !json.Valid(text) {
		var v any
		err := json.Unmarshal(text, &v)
		if err == nil {
			err = errors.New("not one JSON value")
		}
		return row, fmt.Errorf("invalid JSON: %v", err)
	}
	*seen = (*seen)[:0]
	var index map[string]bool   // past a few keys, instead of scanning seen
	i := skipSpace(text, 0) + 1 // past '{': the caller checked it is there
	for {
		i = skipSpace(text, i)
		if text[i] == '}' {
			return row, nil
		}
		end := skipJSONValue(text, i)
		key, err := jsonString(text[i:end])
		if err != nil {
			return row, fmt.Errorf("key %s %v", excerpt(string(text[i+1:end-1])), err)
		}
		if dup := index[key] || index == nil && containsString(*seen, key); dup {
			return row, fmt.Errorf("key %q is given twice", key)
		}
		if *seen = append(*seen, key); len(*seen) > 16 {
			if index == nil {
				index = make(map[string]bool, 32)
				for _, k := range *seen {
					index[k] = true
				}
			}
			index[key] = true
		}
		i = skipSpace(text, end) + 1 // past ':'
		i = skipSpace(text, i)
		end = skipJSONValue(text, i)
		for f, name := range jsonKeys {
			if !strings.EqualFold(key, name) {
				continue
			}
			if row[f] != nil {
				return row, fmt.Errorf("keys %q and %q both give the %s", spelling(*seen, name, key), key, name)
			}
			row[f] = text[i:end]
		}
		i = skipSpace(text, end)
		if text[i] == ',' {
			i++
		}
	}
}

// spelling returns the key among seen (other than last) that matches name.
func spelling(seen []string, name, last string) string {
	for _, k := range seen[:len(seen)-1] {
		if strings.EqualFold(k, name) {
			return k
		}
	}
	return last
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipJSONValue returns the end of the value starting at b[i], which is
// known to be valid JSON.
func skipJSONValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		return skipJSONString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = skipJSONString(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return i
	}
	for i < len(b) && !endsScalar(b[i]) {
		i++
	}
	return i
}

// endsScalar reports a byte that ends a number or a literal.
func endsScalar(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\r', '\n':
		return true
	}
	return false
}

// skipJSONString returns the end of the string starting at b[i] (its
// opening quote), past its closing quote.
func skipJSONString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

// jsonString decodes a JSON string (with its quotes) that is known to be
// valid JSON. Unlike encoding/json, which puts U+FFFD in their place, it
// refuses bytes that are not valid UTF-8 and escapes of lone UTF-16
// surrogates, so that two distinct byte strings never decode alike.
func jsonString(raw []byte) (string, error) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", errors.New("is not a string")
	}
	s := raw[1 : len(raw)-1]
	if bytes.IndexByte(s, '\\') < 0 {
		if i := invalidUTF8(string(s)); i >= 0 {
			return "", fmt.Errorf("is not valid UTF-8 (byte %d of the string)", i+1)
		}
		return string(s), nil
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			r, size := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && size == 1 {
				return "", fmt.Errorf("is not valid UTF-8 (byte %d of the string)", i+1)
			}
			b.Write(s[i : i+size])
			i += size
			continue
		}
		switch e := s[i+1]; e {
		case 'u':
			r := hex4(s[i+2 : i+6])
			i += 6
			if utf16.IsSurrogate(r) {
				if r < 0xDC00 && i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
					if r2 := hex4(s[i+2 : i+6]); 0xDC00 <= r2 && r2 < 0xE000 {
						b.WriteRune(utf16.DecodeRune(r, r2))
						i += 6
						continue
					}
				}
				return "", fmt.Errorf("holds the lone UTF-16 surrogate \\u%04X, which is not a character", r)
			}
			b.WriteRune(r)
		default:
			b.WriteByte(unescape(e))
			i += 2
		}
	}
	return b.String(), nil
}

// unescape returns the byte a one-character JSON escape stands for.
func unescape(e byte) byte {
	switch e {
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	}
	return e // '"', '\\' and '/' stand for themselves
}

// hex4 reads the four hexadecimal digits of a \u escape (known valid).
func hex4(h []byte) rune {
	v, _ := strconv.ParseUint(string(h), 16, 32)
	return rune(v)
}
