package schema

import (
	"bytes"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// benchSchema is the shape of a compute skill's interface: a few typed
// properties, an enum, bounds, an array, a nested object and defaults.
const benchSchema = `{"type":"object","properties":{
	"text":{"type":"string","minLength":1,"maxLength":10000},
	"mode":{"type":"string","enum":["fast","exact"],"default":"fast"},
	"top":{"type":"integer","minimum":1,"maximum":100,"default":5},
	"urls":{"type":"array","items":{"type":"string","pattern":"^https://"},"maxItems":20},
	"options":{"type":"object","properties":{"scale":{"type":"number"},"label":{"type":"string"}},"additionalProperties":false}},
	"required":["text"],"additionalProperties":false}`

const benchDoc = `{"text":"the quick brown fox","mode":"exact","top":3,"urls":["https://a.example","https://b.example"],"options":{"scale":1.5,"label":"x"}}`

// BenchmarkCompile and BenchmarkValidate compare this package with the
// jsonschema library it replaced (kept as a test oracle).
func BenchmarkCompile(b *testing.B) {
	b.Run("skillkit", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Compile("bench", []byte(benchSchema)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("jsonschema-v6", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := oracleCompile([]byte(benchSchema)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkValidate(b *testing.B) {
	b.Run("skillkit", func(b *testing.B) {
		s := MustCompile("bench", benchSchema)
		b.ReportAllocs()
		for b.Loop() {
			if p := s.ValidateJSON([]byte(benchDoc)); p != nil {
				b.Fatal(p)
			}
		}
	})
	b.Run("jsonschema-v6", func(b *testing.B) {
		s, err := oracleCompile([]byte(benchSchema))
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(benchDoc)))
			if err != nil {
				b.Fatal(err)
			}
			if err := s.Validate(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
}
