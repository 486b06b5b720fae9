package registry

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The fleet's key files are PKCS #8 as crypto/x509 and OpenSSL write and
// read them, though the package encodes them without crypto/x509.
func TestFleetKeyIsPKCS8(t *testing.T) {
	pemData, pub, err := NewFleetKey()
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(pemData)
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		t.Fatalf("crypto/x509 cannot read the key: %v", err)
	}
	if priv, ok := k.(ed25519.PrivateKey); !ok || !priv.Public().(ed25519.PublicKey).Equal(pub) {
		t.Fatalf("crypto/x509 reads another key: %T", k)
	}
	want, _ := x509.MarshalPKCS8PrivateKey(k)
	if !bytes.Equal(block.Bytes, want) {
		t.Errorf("the encoding differs from crypto/x509's:\n got %x\nwant %x", block.Bytes, want)
	}

	_, other, _ := ed25519.GenerateKey(rand.Reader)
	der, _ := x509.MarshalPKCS8PrivateKey(other)
	got, err := ParsePrivateKey(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	if err != nil || !got.Equal(other) {
		t.Fatalf("a key crypto/x509 wrote: %v", err)
	}

	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	der, _ = x509.MarshalPKCS8PrivateKey(ec)
	if _, err := ParsePrivateKey(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})); !errors.Is(err, ErrBadKey) {
		t.Errorf("an ECDSA key: %v", err)
	}
}

// A key OpenSSL generates (it may add the public key after the private
// one) is read, and OpenSSL reads the package's.
func TestFleetKeyOpenSSL(t *testing.T) {
	openssl, err := exec.LookPath("openssl")
	if err != nil {
		t.Skip("needs openssl")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "k.pem")
	if out, err := exec.Command(openssl, "genpkey", "-algorithm", "ed25519", "-out", path).CombinedOutput(); err != nil {
		t.Fatalf("openssl genpkey: %v\n%s", err, out)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParsePrivateKey(data); err != nil {
		t.Fatalf("OpenSSL's key: %v", err)
	}
	ours, pub, err := NewFleetKey()
	if err != nil {
		t.Fatal(err)
	}
	mine := filepath.Join(dir, "mine.pem")
	if err := os.WriteFile(mine, ours, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(openssl, "pkey", "-in", mine, "-pubout", "-outform", "DER").Output()
	if err != nil {
		t.Fatalf("openssl pkey: %v", err)
	}
	if !bytes.HasSuffix(out, pub) {
		t.Errorf("OpenSSL reads another public key: %x, want %x", out, pub)
	}
}

// ParsePrivateKey accepts what crypto/x509 accepts as an Ed25519 key, and
// then the same key; everything else is ErrBadKey.
func FuzzParsePrivateKey(f *testing.F) {
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	der, _ := x509.MarshalPKCS8PrivateKey(priv)
	f.Add(der)
	f.Add(append(bytes.Clone(der), 0))
	f.Add(der[:len(der)-1])
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ecDER, _ := x509.MarshalPKCS8PrivateKey(ec)
	f.Add(ecDER)
	f.Fuzz(func(t *testing.T, der []byte) {
		got, err := ParsePrivateKey(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
		if err != nil {
			if !errors.Is(err, ErrBadKey) {
				t.Fatalf("an error that is not ErrBadKey: %v", err)
			}
			return
		}
		k, xerr := x509.ParsePKCS8PrivateKey(der)
		if xerr != nil {
			t.Fatalf("accepted what crypto/x509 refuses (%v): %x", xerr, der)
		}
		if want, ok := k.(ed25519.PrivateKey); !ok || !want.Equal(got) {
			t.Fatalf("read another key than crypto/x509: %x", der)
		}
	})
}
