package registry

import (
	"bytes"
	"encoding/json"
	"maps"
	"reflect"
	"testing"
)

// FuzzDecodeLock: any lock.json either fails with ErrCorrupt or decodes to
// entries that survive an encode and a second decode unchanged.
func FuzzDecodeLock(f *testing.F) {
	f.Add([]byte(`{"version":1,"skills":{"pdf":{"version":"1.0.0","fingerprint":"sha256:ab","installedAt":"2026-04-13T10:00:00Z"}}}`))
	f.Add([]byte(`{"version":1,"x":[1,2],"skills":{"a":{"version":2,"enabled":false,"pinned":true,"label":"A"}}}`))
	f.Add([]byte(`{"skills":{"a":null}}`))
	f.Add([]byte(`{"version":1,"skills":{"a":{"signer":{"state":"verified","principals":["p@e"],"key":"SHA256:x","object":"commit ab"}}}}`))
	f.Add([]byte(`{"version":1,"skills":{"a":{"signer":{"state":"verified","principals":["r@e"],"key":"r@e","object":"archive s.zip","format":"sigstore","issuer":"https://i","digest":"sha256:00"}}}}`))
	f.Add([]byte(`{"version":"1"}`))
	f.Add([]byte(``))
	f.Fuzz(func(t *testing.T, data []byte) {
		lf, err := decodeLock(data)
		if err != nil {
			return
		}
		out, err := lf.encode()
		if err != nil {
			t.Fatalf("encode after decode: %v", err)
		}
		back, err := decodeLock(out)
		if err != nil {
			t.Fatalf("decode of our own output: %v\n%s", err, out)
		}
		if !maps.EqualFunc(lf.skills, back.skills, jsonEqual) || !maps.EqualFunc(lf.other, back.other, jsonEqual) {
			t.Fatalf("round trip changed the file:\n%s\n%s", data, out)
		}
		for name := range lf.skills {
			e, err := back.entry(name)
			if err != nil {
				t.Fatal(err)
			}
			rec := join(name, e, nil)
			e2, _ := split(rec)
			if e2.Fingerprint != e.Fingerprint || string(e2.Version) != string(e.Version) || e2.Pinned != e.Pinned || !e2.Signer.Equal(e.Signer) {
				t.Fatalf("record round trip: %+v -> %+v", e, e2)
			}
		}
	})
}

// FuzzDecodeOrigin: no input panics, and a decoded origin encodes and decodes
// to itself.
func FuzzDecodeOrigin(f *testing.F) {
	f.Add([]byte(`{"version":1,"source":"github","url":"https://github.com/u/r","branch":"main","commitHash":"abc","installedAt":"2026-04-13T10:00:00Z"}`))
	f.Add([]byte(`{"version":3}`))
	f.Add([]byte(`{"source":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := decodeOrigin(data)
		if err != nil {
			return
		}
		out, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		back, err := decodeOrigin(out)
		if err != nil {
			t.Fatalf("decode of our own output: %v", err)
		}
		if back.Source != o.Source || back.URL != o.URL || back.Branch != o.Branch || !back.InstalledAt.Equal(o.InstalledAt) {
			t.Fatalf("round trip: %+v -> %+v", o, back)
		}
	})
}

// jsonEqual compares two JSON values by meaning; numbers stay text, so
// 1e400 compares too.
func jsonEqual(a, b json.RawMessage) bool {
	decode := func(data []byte) (any, bool) {
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		var v any
		return v, d.Decode(&v) == nil
	}
	x, okx := decode(a)
	y, oky := decode(b)
	return okx && oky && reflect.DeepEqual(x, y)
}
