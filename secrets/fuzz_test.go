package secrets

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/internal/installid"
	"github.com/skillkit-go/skillkit/skill"
)

func fuzzKeyring(f *testing.F) *Keyring {
	k, err := DeriveKey([]byte("skillkit golden test vector secret"))
	if err != nil {
		f.Fatal(err)
	}
	kr, err := NewKeyring(k)
	if err != nil {
		f.Fatal(err)
	}
	return kr
}

// FuzzOpen feeds arbitrary bytes and bindings to Open: it must never panic,
// and every refusal must be ErrCannotOpen or a name or install id error.
func FuzzOpen(f *testing.F) {
	kr := fuzzKeyring(f)
	for _, tt := range []struct{ file, install string }{{"sealed_v1.txt", ""}, {"sealed_v2.txt", "GOLDENINSTALL234567ABCDEFG"}} {
		golden, err := os.ReadFile("testdata/" + tt.file)
		if err != nil {
			f.Fatal(err)
		}
		sealed, err := hex.DecodeString(strings.TrimSpace(string(golden)))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(sealed, "pdf-tools", tt.install, "OCR_API_KEY")
		f.Add(sealed[:Overhead], "pdf-tools", tt.install, "OCR_API_KEY")
	}
	f.Add([]byte{FormatVersion, 0, 0, 0, 0, 200}, "a", "", "B")
	f.Add([]byte{}, "", "", "")
	f.Fuzz(func(t *testing.T, data []byte, skillName, install, name string) {
		b := Binding{Skill: skillName, Install: install, Variable: name}
		plain, err := kr.Open(b, data)
		if h, herr := ReadHeader(data); herr == nil && h.InstallID != "" && h.Version != FormatVersion {
			t.Fatalf("a version %d header carries an install id", h.Version)
		}
		if err == nil {
			// Only the golden values open: nothing else carries a valid tag.
			if skillName != "pdf-tools" || name != "OCR_API_KEY" || string(plain) != "golden value ✓" {
				t.Fatalf("opened something that was never sealed: %q", plain)
			}
			return
		}
		if plain != nil {
			t.Fatal("a refusal returned bytes")
		}
		if !errors.Is(err, ErrCannotOpen) && !errors.Is(err, skill.ErrInvalidName) && !errors.Is(err, skill.ErrInvalidEnvName) &&
			!errors.Is(err, installid.ErrInvalid) {
			t.Fatalf("unexpected error %v", err)
		}
	})
}

// FuzzSealOpen seals arbitrary values under arbitrary bindings and checks
// they open, that they do not open for another install, and that one flipped
// bit, chosen by the fuzzer, makes them not open.
func FuzzSealOpen(f *testing.F) {
	kr := fuzzKeyring(f)
	f.Add([]byte("sk-123"), "pdf", "", "API_KEY", uint(0))
	f.Add([]byte{}, "数据", "X2", "_", uint(1000))
	f.Fuzz(func(t *testing.T, plain []byte, skillName, install, name string, bit uint) {
		b := Binding{Skill: skillName, Install: install, Variable: name}
		sealed, err := kr.Seal(b, plain)
		if err != nil {
			if b.check() == nil && len(plain) <= MaxValueLen {
				t.Fatalf("Seal refused valid input: %v", err)
			}
			return
		}
		got, err := kr.Open(b, sealed)
		if err != nil || !bytes.Equal(got, plain) {
			t.Fatalf("round trip: %v", err)
		}
		other := b
		other.Install += "x"
		if _, err := kr.Open(other, sealed); err == nil {
			t.Fatal("opened for another install")
		}
		bit %= uint(len(sealed) * 8)
		sealed[bit/8] ^= 1 << (bit % 8)
		if _, err := kr.Open(b, sealed); !errors.Is(err, ErrCannotOpen) {
			t.Fatalf("bit %d flipped: %v", bit, err)
		}
	})
}

// FuzzOpenLegacy feeds arbitrary blobs to the legacy parser.
func FuzzOpenLegacy(f *testing.F) {
	key, err := NewLegacyKey([]byte("legacy secret"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(LegacySealForTest(key, []byte(`{"A":"1"}`)))
	f.Add("")
	f.Add("====")
	f.Add(strings.Repeat("A", 44))
	f.Fuzz(func(t *testing.T, blob string) {
		values, err := openLegacy(key, blob)
		if err == nil {
			for name := range values {
				if !plainName(name) {
					t.Fatalf("accepted name %q", name)
				}
			}
			return
		}
		if !errors.Is(err, ErrCannotOpen) || values != nil {
			t.Fatalf("unexpected %v, %v", values, err)
		}
	})
}

// FuzzLegacyPlaintext encrypts arbitrary text in the seed's format and
// checks that openLegacy accepts exactly the JSON objects of strings with
// plain names and no duplicates, and reads them as encoding/json does.
func FuzzLegacyPlaintext(f *testing.F) {
	key, err := NewLegacyKey([]byte("legacy secret"))
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{`{"A":"1"}`, `{}`, `{"A":"1","A":"2"}`, `{"A":1}`, `[]`, `null`, `{"A":"\u0000"}`, ` {"B" : "x\ny"} `, `{"a-b":"c"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, plain []byte) {
		got, err := openLegacy(key, LegacySealForTest(key, plain))
		var want map[string]string
		ok := json.Unmarshal(plain, &want) == nil && want != nil && checkDuplicateKeys(plain) == nil
		for name := range want {
			ok = ok && plainName(name)
		}
		if ok != (err == nil) {
			t.Fatalf("encoding/json ok=%v, openLegacy err=%v", ok, err)
		}
		if err == nil && !maps.Equal(got, want) {
			t.Fatalf("got %q, want %q", got, want)
		}
		if err != nil && !errors.Is(err, ErrCannotOpen) {
			t.Fatalf("error does not wrap ErrCannotOpen: %v", err)
		}
	})
}
