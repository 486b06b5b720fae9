package wellknown_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/skillkit-go/skillkit/wellknown"
)

// A site publishes one skill in its discovery index; a client reads the
// index, picks the skill, and fetches it verified against its digest (to
// install it, pass the Remote to the installer as installer.Source.Remote).
func ExampleRead() {
	md := []byte("---\nname: code-review\ndescription: Review code for bugs.\n---\nRead the diff first.\n")
	sum := sha256.Sum256(md)
	index := fmt.Sprintf(`{"$schema":%q,"skills":[{"name":"code-review","type":"skill-md",`+
		`"description":"Review code for bugs.","url":"code-review/SKILL.md","digest":"sha256:%s"}]}`,
		wellknown.Schema, hex.EncodeToString(sum[:]))
	mux := http.NewServeMux()
	mux.HandleFunc(wellknown.IndexPath, func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, index) })
	mux.HandleFunc("/.well-known/agent-skills/code-review/SKILL.md", func(w http.ResponseWriter, _ *http.Request) { w.Write(md) })
	site := httptest.NewServer(mux) // plain http: allowed on loopback only
	defer site.Close()

	ctx := context.Background()
	ix, err := wellknown.Read(ctx, site.URL, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range ix.Skills {
		fmt.Println(e.Name, e.Type, "-", e.Description)
	}
	remote, err := ix.Remote("code-review", nil)
	if err != nil {
		log.Fatal(err)
	}
	fsys, version, err := remote.Fetch(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	f, _ := fsys.Open("SKILL.md")
	st, _ := f.Stat()
	fmt.Println(st.Size(), "bytes, version", version[:15])
	// Output:
	// code-review skill-md - Review code for bugs.
	// 82 bytes, version sha256:857d388e
}
