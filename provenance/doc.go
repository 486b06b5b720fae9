// Package provenance tells who signed what a skill is installed from: the
// git commit or tag an install fetched, checked against the publishers a
// host trusts.
//
// Publishers are listed in git's allowed-signers format (the file
// gpg.ssh.allowedSignersFile names: principals, options, an SSH public
// key). [Signers.VerifyCommit] and [Signers.VerifyTag] read a raw git
// object (as `git cat-file commit` prints it) and say whether it is
// unsigned, signed by a listed key (Verified, with the principals), signed
// by a key the list does not hold (UnknownSigner), signed with a signature
// that does not verify (Broken: the object or the signature was changed),
// or signed in a format this package does not check (Unsupported: OpenPGP
// and X.509). The SSH signature format (SSHSIG, namespace "git") is
// checked here, with golang.org/x/crypto/ssh's keys, so no ssh-keygen or
// gpg is needed.
//
// A ZIP archive is signed with Sigstore: a bundle (its JSON, published
// beside the archive with [BundleSuffix]) holds a short-lived certificate
// naming an identity and its OIDC issuer, the signature over the archive,
// and the transparency log's entry. [Signers.VerifyBundle] checks it
// offline with github.com/sigstore/sigstore-go against the trusted root
// and identities given to [Signers.WithSigstore], and answers with the same
// states. [ParsePublishers] and [LoadPublishers] read a host's publishers
// file: an allowed-signers file, or JSON naming one and the Sigstore
// identities with their trusted root. [Signers.Trusts] tells whether a
// signature found verified earlier would still be, for doctor.
package provenance
