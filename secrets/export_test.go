package secrets

import (
	"crypto/rand"
	"encoding/base64"
)

// LegacySealForTest writes the seed's format under key: base64(IV 16 bytes
// || ciphertext || tag 16 bytes). TestLegacyAgainstNode checks it against
// the seed's own code.
func LegacySealForTest(key LegacyKey, plaintext []byte) string {
	iv := make([]byte, legacyIVLen)
	rand.Read(iv)
	return base64.StdEncoding.EncodeToString(key.aead.Seal(iv, iv, plaintext, nil))
}
