package secrets_test

import (
	"fmt"
	"testing"

	"github.com/skillkit-go/skillkit/secrets"
	"github.com/skillkit-go/skillkit/skill"
)

// benchValue is the size of a typical API key.
var benchValue = []byte("sk-proj-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGH")

func BenchmarkSeal(b *testing.B) {
	kr := keyring(b, deriveKey(b, oldSecret))
	b.SetBytes(int64(len(benchValue)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := kr.Seal(secrets.Binding{Skill: "pdf-tools", Install: "BENCHINSTALL234567ABCDEFGH", Variable: "OCR_API_KEY"}, benchValue); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkOpen(b *testing.B) {
	kr := keyring(b, deriveKey(b, oldSecret))
	sealed, err := kr.Seal(secrets.Binding{Skill: "pdf-tools", Install: "BENCHINSTALL234567ABCDEFGH", Variable: "OCR_API_KEY"}, benchValue)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(benchValue)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := kr.Open(secrets.Binding{Skill: "pdf-tools", Install: "BENCHINSTALL234567ABCDEFGH", Variable: "OCR_API_KEY"}, sealed); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkResolveEnv resolves a skill that declares 10 variables, 8 of
// them saved and 2 with defaults, from memory and from disk.
func BenchmarkResolveEnv(b *testing.B) {
	schema := make([]skill.EnvVar, 10)
	values := map[string]string{}
	for i := range schema {
		schema[i] = skill.EnvVar{Name: fmt.Sprintf("VAR_%02d", i), Required: true}
		if i < 8 {
			values[schema[i].Name] = string(benchValue)
		} else {
			schema[i].Default = ptr("default")
		}
	}
	for _, bc := range []struct {
		name  string
		store func(b *testing.B) secrets.Store
	}{
		{"mem", func(*testing.B) secrets.Store { return &secrets.MemStore{} }},
		{"fs", func(b *testing.B) secrets.Store { return secrets.NewFSStore(b.TempDir()) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			v := newVault(b, bc.store(b), keyring(b, deriveKey(b, oldSecret)))
			if err := v.Save(b.Context(), "pdf-tools", values); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				env, err := v.ResolveEnv(b.Context(), "pdf-tools", schema)
				if err != nil || len(env) != 10 {
					b.Fatal(len(env), err)
				}
			}
		})
	}
}
