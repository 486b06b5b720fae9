package secrets_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/secrets"
	"github.com/skillkit-go/skillkit/skill"
)

var update = flag.Bool("update", false, "rewrite testdata/sealed_v1.txt")

func TestSealOpenRoundTrip(t *testing.T) {
	kr := keyring(t, deriveKey(t, oldSecret))
	for _, v := range []string{"", "sk-123", "a value with spaces\nand lines", "密钥🔑", strings.Repeat("x", secrets.MaxValueLen)} {
		sealed, err := kr.Seal("pdf", "API_KEY", []byte(v))
		if err != nil {
			t.Fatal(err)
		}
		if len(sealed) != len(v)+secrets.Overhead || sealed[0] != secrets.FormatVersion {
			t.Fatalf("sealed %d bytes for %d: want version byte and %d bytes overhead", len(sealed), len(v), secrets.Overhead)
		}
		if id, err := secrets.SealedKeyID(sealed); err != nil || id != kr.Primary().ID() {
			t.Fatalf("SealedKeyID = %x, %v", id, err)
		}
		if len(v) > 4 && bytes.Contains(sealed, []byte(v)) {
			t.Fatal("the plaintext is in the sealed value")
		}
		got, err := kr.Open("pdf", "API_KEY", sealed)
		if err != nil || string(got) != v {
			t.Fatalf("Open: %v", err)
		}
	}
	a, _ := kr.Seal("pdf", "API_KEY", []byte("same"))
	b, _ := kr.Seal("pdf", "API_KEY", []byte("same"))
	if bytes.Equal(a, b) {
		t.Fatal("two seals of one value are equal: the nonce is not random")
	}
	if _, err := kr.Seal("pdf", "API_KEY", make([]byte, secrets.MaxValueLen+1)); !errors.Is(err, secrets.ErrValueTooLong) {
		t.Fatalf("an over-long value: %v", err)
	}
}

func TestOpenRefuses(t *testing.T) {
	kr := keyring(t, deriveKey(t, oldSecret))
	other := keyring(t, deriveKey(t, newSecret))
	sealed, err := kr.Seal("pdf", "API_KEY", []byte("sk-secret-value"))
	if err != nil {
		t.Fatal(err)
	}
	mustNotOpen := func(what string, kr *secrets.Keyring, skillName, name string, data []byte) {
		t.Helper()
		got, err := kr.Open(skillName, name, data)
		if !errors.Is(err, secrets.ErrCannotOpen) || got != nil {
			t.Errorf("%s: %q, %v; want ErrCannotOpen", what, got, err)
		}
		if err != nil && strings.Contains(err.Error(), "sk-secret-value") {
			t.Errorf("%s: the error shows the plaintext", what)
		}
	}
	mustNotOpen("wrong key", other, "pdf", "API_KEY", sealed)
	mustNotOpen("another skill", kr, "ocr", "API_KEY", sealed)
	mustNotOpen("another variable", kr, "pdf", "OTHER_KEY", sealed)
	mustNotOpen("names shifted", kr, "pd", "fAPI_KEY", sealed)
	for bit := range len(sealed) * 8 {
		flipped := bytes.Clone(sealed)
		flipped[bit/8] ^= 1 << (bit % 8)
		mustNotOpen("bit "+strconv.Itoa(bit)+" flipped", kr, "pdf", "API_KEY", flipped)
	}
	for n := range len(sealed) {
		mustNotOpen("truncated to "+strconv.Itoa(n), kr, "pdf", "API_KEY", sealed[:n])
	}
	mustNotOpen("a byte appended", kr, "pdf", "API_KEY", append(bytes.Clone(sealed), 0))
	// The id rewritten to a key the keyring holds: the wrong key and the
	// header in the additional data both refuse it.
	both := keyring(t, deriveKey(t, oldSecret), deriveKey(t, newSecret))
	moved := bytes.Clone(sealed)
	id := deriveKey(t, newSecret).ID()
	moved[1], moved[2], moved[3], moved[4] = byte(id>>24), byte(id>>16), byte(id>>8), byte(id)
	mustNotOpen("key id rewritten", both, "pdf", "API_KEY", moved)

	if _, err := kr.Open("../pdf", "API_KEY", sealed); !errors.Is(err, skill.ErrInvalidName) {
		t.Errorf("invalid skill name: %v", err)
	}
	if _, err := kr.Seal("pdf", "LD_PRELOAD", []byte("x")); !errors.Is(err, skill.ErrInvalidEnvName) {
		t.Errorf("loader variable: %v", err)
	}
}

// TestGoldenSealedValue opens a value sealed when the format was written:
// the format, the key derivation and the key id must never change.
func TestGoldenSealedValue(t *testing.T) {
	kr := keyring(t, deriveKey(t, "skillkit golden test vector secret"))
	file := filepath.Join("testdata", "sealed_v1.txt")
	if *update {
		sealed, err := kr.Seal("pdf-tools", "OCR_API_KEY", []byte("golden value ✓"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(hex.EncodeToString(sealed)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := hex.DecodeString(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	if id, _ := secrets.SealedKeyID(sealed); id != 0x419c0a97 || kr.Primary().ID() != 0x419c0a97 {
		t.Fatalf("key id %#x", id)
	}
	got, err := kr.Open("pdf-tools", "OCR_API_KEY", sealed)
	if err != nil || string(got) != "golden value ✓" {
		t.Fatalf("the golden value does not open: %q %v", got, err)
	}
}
