package provenance

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"strconv"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"
)

// State is what a signature check found.
type State string

// The states of a signature.
const (
	Unsigned      State = "unsigned"
	Verified      State = "verified"
	UnknownSigner State = "unknown-signer"
	Broken        State = "broken"
	Unsupported   State = "unsupported"
)

// Signature is what a git object's signature says.
type Signature struct {
	State State `json:"state"`
	// Format is the signature's kind: "ssh", "openpgp", "x509" or
	// "sigstore".
	Format string `json:"format,omitempty"`
	// Principals are the allowed signers' names for the key, or the
	// Sigstore identity (Verified).
	Principals []string `json:"principals,omitempty"`
	// Key is the signing key's fingerprint (SHA256:...), when the
	// signature names a key; for Sigstore, the certificate's identity (its
	// subject alternative name).
	Key string `json:"key,omitempty"`
	// Issuer is the OIDC issuer of a Sigstore certificate.
	Issuer string `json:"issuer,omitempty"`
	// Digest is what a Sigstore bundle was checked against: the artifact's
	// "sha256:<hex>".
	Digest string `json:"digest,omitempty"`
	// Reason says why a signature is Broken or Unsupported.
	Reason string `json:"reason,omitempty"`
}

// VerifyCommit checks the signature of a raw commit object.
func (s *Signers) VerifyCommit(raw []byte) Signature {
	payload, sig := splitCommit(raw)
	return s.verify(payload, sig, objectTime(raw, "committer "))
}

// VerifyTag checks the signature of a raw annotated tag object.
func (s *Signers) VerifyTag(raw []byte) Signature {
	for _, begin := range []string{"-----BEGIN SSH SIGNATURE-----", "-----BEGIN PGP SIGNATURE-----", "-----BEGIN SIGNED MESSAGE-----"} {
		if i := bytes.Index(raw, []byte(begin)); i >= 0 && (i == 0 || raw[i-1] == '\n') {
			return s.verify(raw[:i], raw[i:], objectTime(raw, "tagger "))
		}
	}
	return Signature{State: Unsigned}
}

// splitCommit takes the gpgsig header (and its continuation lines) out of
// a commit's headers: what remains is what was signed.
func splitCommit(raw []byte) (payload, sig []byte) {
	end := bytes.Index(raw, []byte("\n\n")) + 1 // the headers, each with its newline
	if end == 0 {
		end = len(raw)
	}
	var p, s bytes.Buffer
	lines := strings.SplitAfter(string(raw[:end]), "\n")
	inSig := false
	for _, line := range lines {
		switch {
		case strings.HasPrefix(line, "gpgsig ") || strings.HasPrefix(line, "gpgsig-sha256 "):
			_, v, _ := strings.Cut(line, " ")
			s.WriteString(v)
			inSig = true
		case inSig && strings.HasPrefix(line, " "):
			s.WriteString(line[1:])
		default:
			inSig = false
			p.WriteString(line)
		}
	}
	p.Write(raw[end:])
	return p.Bytes(), s.Bytes()
}

// objectTime is the time in the object's committer or tagger line.
func objectTime(raw []byte, header string) time.Time {
	end := bytes.Index(raw, []byte("\n\n"))
	if end < 0 {
		end = len(raw)
	}
	for line := range strings.Lines(string(raw[:end])) {
		if v, ok := strings.CutPrefix(line, header); ok {
			f := strings.Fields(v)
			if len(f) >= 2 {
				if sec, err := strconv.ParseInt(f[len(f)-2], 10, 64); err == nil {
					return time.Unix(sec, 0)
				}
			}
		}
	}
	return time.Time{}
}

func (s *Signers) verify(payload, armored []byte, at time.Time) Signature {
	text := strings.TrimSpace(string(armored))
	switch {
	case text == "":
		return Signature{State: Unsigned}
	case strings.HasPrefix(text, "-----BEGIN PGP SIGNATURE-----"):
		return Signature{State: Unsupported, Format: "openpgp", Reason: "OpenPGP signatures are not checked"}
	case strings.HasPrefix(text, "-----BEGIN SIGNED MESSAGE-----"):
		return Signature{State: Unsupported, Format: "x509", Reason: "X.509 signatures are not checked"}
	}
	body, ok := unarmor(text)
	if !ok {
		return Signature{State: Broken, Format: "ssh", Reason: "the signature is not an SSH signature"}
	}
	key, err := checkSSHSig(body, payload)
	if key == nil {
		return Signature{State: Broken, Format: "ssh", Reason: err.Error()}
	}
	fp := ssh.FingerprintSHA256(key)
	if err != nil {
		return Signature{State: Broken, Format: "ssh", Key: fp, Reason: err.Error()}
	}
	if principals := s.match(key, at); len(principals) > 0 {
		return Signature{State: Verified, Format: "ssh", Key: fp, Principals: principals}
	}
	return Signature{State: UnknownSigner, Format: "ssh", Key: fp}
}

func unarmor(text string) ([]byte, bool) {
	const begin, end = "-----BEGIN SSH SIGNATURE-----", "-----END SSH SIGNATURE-----"
	inner, ok := strings.CutPrefix(text, begin)
	if !ok {
		return nil, false
	}
	inner, ok = strings.CutSuffix(strings.TrimSpace(inner), end)
	if !ok {
		return nil, false
	}
	body, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(inner), ""))
	return body, err == nil
}

// checkSSHSig checks an SSHSIG blob over message in the git namespace and
// returns the key it names (nil when the blob does not parse) and why it
// does not verify (nil when it does).
func checkSSHSig(blob, message []byte) (ssh.PublicKey, error) {
	r := reader{b: blob}
	if !bytes.Equal(r.bytes(6), []byte("SSHSIG")) || r.uint32() != 1 {
		return nil, errors.New("not an SSH signature of version 1")
	}
	pubRaw, namespace, reserved, hashAlg, sigRaw := r.str(), r.str(), r.str(), r.str(), r.str()
	if r.err || len(r.b) != 0 {
		return nil, errors.New("the SSH signature is malformed")
	}
	key, err := ssh.ParsePublicKey(pubRaw)
	if err != nil {
		return nil, errors.New("the signature's key: " + err.Error())
	}
	if string(namespace) != "git" {
		return key, errors.New("the signature is not for git (namespace " + strconv.Quote(string(namespace)) + ")")
	}
	var digest []byte
	switch string(hashAlg) {
	case "sha256":
		h := sha256.Sum256(message)
		digest = h[:]
	case "sha512":
		h := sha512.Sum512(message)
		digest = h[:]
	default:
		return key, errors.New("unknown hash " + strconv.Quote(string(hashAlg)))
	}
	sr := reader{b: sigRaw}
	sig := &ssh.Signature{Format: string(sr.str()), Blob: sr.str()}
	if sr.err {
		return key, errors.New("the signature is malformed")
	}
	sig.Rest = sr.b
	var signed []byte
	signed = append(signed, "SSHSIG"...)
	for _, f := range [][]byte{namespace, reserved, hashAlg, digest} {
		signed = binary.BigEndian.AppendUint32(signed, uint32(len(f)))
		signed = append(signed, f...)
	}
	if err := key.Verify(signed, sig); err != nil {
		return key, errors.New("the signature does not match the signed object")
	}
	return key, nil
}

// reader reads the SSH wire format; err is set at the first short read.
type reader struct {
	b   []byte
	err bool
}

func (r *reader) bytes(n int) []byte {
	if r.err || n < 0 || n > len(r.b) {
		r.err = true
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) uint32() uint32 {
	b := r.bytes(4)
	if b == nil {
		return 0
	}
	return binary.BigEndian.Uint32(b)
}

func (r *reader) str() []byte {
	n := r.uint32()
	if r.err || uint64(n) > uint64(len(r.b)) {
		r.err = true
		return nil
	}
	return r.bytes(int(n))
}
