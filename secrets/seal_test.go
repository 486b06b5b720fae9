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

var update = flag.Bool("update", false, "rewrite testdata/sealed_v2.txt")

func bind(skillName, install, name string) secrets.Binding {
	return secrets.Binding{Skill: skillName, Install: install, Variable: name}
}

func TestSealOpenRoundTrip(t *testing.T) {
	kr := keyring(t, deriveKey(t, oldSecret))
	for _, install := range []string{"", "INSTALL2345", strings.Repeat("x", secrets.MaxInstallIDLen)} {
		b := bind("pdf", install, "API_KEY")
		for _, v := range []string{"", "sk-123", "a value with spaces\nand lines", "密钥🔑", strings.Repeat("x", secrets.MaxValueLen)} {
			sealed, err := kr.Seal(b, []byte(v))
			if err != nil {
				t.Fatal(err)
			}
			if len(sealed) != len(v)+secrets.Overhead+len(install) || sealed[0] != secrets.FormatVersion {
				t.Fatalf("sealed %d bytes for %d: want version byte and %d bytes overhead", len(sealed), len(v), secrets.Overhead+len(install))
			}
			h, err := secrets.ReadHeader(sealed)
			if err != nil || h != (secrets.Header{Version: secrets.FormatVersion, KeyID: kr.Primary().ID(), InstallID: install}) {
				t.Fatalf("ReadHeader = %+v, %v", h, err)
			}
			if len(v) > 4 && bytes.Contains(sealed, []byte(v)) {
				t.Fatal("the plaintext is in the sealed value")
			}
			got, err := kr.Open(b, sealed)
			if err != nil || string(got) != v {
				t.Fatalf("Open: %v", err)
			}
			if len(sealed) > secrets.MaxSealedLen {
				t.Fatalf("%d bytes, over MaxSealedLen", len(sealed))
			}
		}
	}
	a, _ := kr.Seal(bind("pdf", "", "API_KEY"), []byte("same"))
	b, _ := kr.Seal(bind("pdf", "", "API_KEY"), []byte("same"))
	if bytes.Equal(a, b) {
		t.Fatal("two seals of one value are equal: the nonce is not random")
	}
	if _, err := kr.Seal(bind("pdf", "", "API_KEY"), make([]byte, secrets.MaxValueLen+1)); !errors.Is(err, secrets.ErrValueTooLong) {
		t.Fatalf("an over-long value: %v", err)
	}
	for _, bad := range []string{"a b", "../x", strings.Repeat("x", secrets.MaxInstallIDLen+1)} {
		if _, err := kr.Seal(bind("pdf", bad, "API_KEY"), []byte("v")); err == nil {
			t.Fatalf("install id %q accepted", bad)
		}
	}
}

func TestOpenRefuses(t *testing.T) {
	kr := keyring(t, deriveKey(t, oldSecret))
	other := keyring(t, deriveKey(t, newSecret))
	const install = "INSTALLA234"
	sealed, err := kr.Seal(bind("pdf", install, "API_KEY"), []byte("sk-secret-value"))
	if err != nil {
		t.Fatal(err)
	}
	mustNotOpen := func(what string, kr *secrets.Keyring, b secrets.Binding, data []byte) {
		t.Helper()
		got, err := kr.Open(b, data)
		if !errors.Is(err, secrets.ErrCannotOpen) || got != nil {
			t.Errorf("%s: %q, %v; want ErrCannotOpen", what, got, err)
		}
		if err != nil && strings.Contains(err.Error(), "sk-secret-value") {
			t.Errorf("%s: the error shows the plaintext", what)
		}
	}
	right := bind("pdf", install, "API_KEY")
	mustNotOpen("wrong key", other, right, sealed)
	mustNotOpen("another skill", kr, bind("ocr", install, "API_KEY"), sealed)
	mustNotOpen("another variable", kr, bind("pdf", install, "OTHER_KEY"), sealed)
	mustNotOpen("names shifted", kr, bind("pd", install, "fAPI_KEY"), sealed)
	mustNotOpen("another install", kr, bind("pdf", "INSTALLB234", "API_KEY"), sealed)
	mustNotOpen("no install", kr, bind("pdf", "", "API_KEY"), sealed)
	for bit := range len(sealed) * 8 {
		flipped := bytes.Clone(sealed)
		flipped[bit/8] ^= 1 << (bit % 8)
		mustNotOpen("bit "+strconv.Itoa(bit)+" flipped", kr, right, flipped)
	}
	for n := range len(sealed) {
		mustNotOpen("truncated to "+strconv.Itoa(n), kr, right, sealed[:n])
	}
	mustNotOpen("a byte appended", kr, right, append(bytes.Clone(sealed), 0))
	// The id rewritten to a key the keyring holds: the wrong key and the
	// header in the additional data both refuse it.
	both := keyring(t, deriveKey(t, oldSecret), deriveKey(t, newSecret))
	moved := bytes.Clone(sealed)
	id := deriveKey(t, newSecret).ID()
	moved[1], moved[2], moved[3], moved[4] = byte(id>>24), byte(id>>16), byte(id>>8), byte(id)
	mustNotOpen("key id rewritten", both, right, moved)
	// The install id in the header rewritten to the one the caller asks
	// for: the additional data refuses it.
	rebound := bytes.Replace(bytes.Clone(sealed), []byte(install), []byte("INSTALLB234"), 1)
	mustNotOpen("install id rewritten", kr, bind("pdf", "INSTALLB234", "API_KEY"), rebound)
	// A version 2 value with its install id cut out and its version set to
	// 1 does not open for "no install" either.
	asV1 := append([]byte{1}, sealed[1:5]...)
	asV1 = append(asV1, sealed[6+len(install):]...)
	mustNotOpen("rewritten as version 1", kr, bind("pdf", "", "API_KEY"), asV1)

	if _, err := kr.Open(bind("../pdf", install, "API_KEY"), sealed); !errors.Is(err, skill.ErrInvalidName) {
		t.Errorf("invalid skill name: %v", err)
	}
	if _, err := kr.Seal(bind("pdf", "", "LD_PRELOAD"), []byte("x")); !errors.Is(err, skill.ErrInvalidEnvName) {
		t.Errorf("loader variable: %v", err)
	}
}

// TestGoldenSealedValues opens values sealed when each format was written:
// the formats, the key derivation and the key id must never change.
// Version 1 (no install id) is what stores written before install ids hold;
// it opens only for a skill without an install id.
func TestGoldenSealedValues(t *testing.T) {
	kr := keyring(t, deriveKey(t, "skillkit golden test vector secret"))
	if *update {
		sealed, err := kr.Seal(bind("pdf-tools", goldenInstall, "OCR_API_KEY"), []byte("golden value ✓"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("testdata", "sealed_v2.txt"), []byte(hex.EncodeToString(sealed)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		file    string
		version int
		install string
	}{
		{"sealed_v1.txt", 1, ""},
		{"sealed_v2.txt", 2, goldenInstall},
	} {
		sealed := readGolden(t, tt.file)
		if h, err := secrets.ReadHeader(sealed); err != nil || h != (secrets.Header{Version: tt.version, KeyID: 0x419c0a97, InstallID: tt.install}) {
			t.Fatalf("%s: header %+v, %v", tt.file, h, err)
		}
		if kr.Primary().ID() != 0x419c0a97 {
			t.Fatalf("key id %#x", kr.Primary().ID())
		}
		got, err := kr.Open(bind("pdf-tools", tt.install, "OCR_API_KEY"), sealed)
		if err != nil || string(got) != "golden value ✓" {
			t.Fatalf("%s does not open: %q %v", tt.file, got, err)
		}
		if _, err := kr.Open(bind("pdf-tools", "SOMEINSTALL", "OCR_API_KEY"), sealed); !errors.Is(err, secrets.ErrCannotOpen) {
			t.Fatalf("%s opens for another install: %v", tt.file, err)
		}
	}
}

const goldenInstall = "GOLDENINSTALL234567ABCDEFG"

func readGolden(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := hex.DecodeString(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	return sealed
}
