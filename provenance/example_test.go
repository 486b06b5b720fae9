package provenance_test

import (
	"bytes"
	"fmt"
	"os"

	"github.com/skillkit-go/skillkit/provenance"
)

// A host lists the publishers it trusts and checks the commit an install
// fetched (the raw object, as `git cat-file commit` prints it).
func Example() {
	allowed, _ := os.ReadFile("testdata/allowed_signers")
	signers, err := provenance.ParseAllowedSigners(allowed)
	if err != nil {
		panic(err)
	}
	commit, _ := os.ReadFile("testdata/signed-commit")
	sig := signers.VerifyCommit(commit)
	fmt.Println(sig.State, sig.Principals)

	// The same commit with its message changed after signing.
	changed := bytes.Replace(commit, []byte("pdf-tools 1.0"), []byte("pdf-tools 1.1"), 1)
	fmt.Println(signers.VerifyCommit(changed).State)

	// Signed by a publisher the host does not list.
	stranger, _ := provenance.ParseAllowedSigners(nil)
	fmt.Println(stranger.VerifyCommit(commit).State)
	// Output:
	// verified [ada@example.com]
	// broken
	// unknown-signer
}

// A JSON publishers file names the allowed-signers file (and may list
// Sigstore identities with their trusted root); relative names are read
// from its folder.
func ExampleLoadPublishers() {
	publishers, err := provenance.LoadPublishers("testdata/publishers.json", nil)
	if err != nil {
		panic(err)
	}
	commit, _ := os.ReadFile("testdata/signed-commit")
	sig := publishers.VerifyCommit(commit)
	fmt.Println(sig.State, sig.Principals, publishers.Trusts(sig))
	// Output:
	// verified [ada@example.com] true
}
