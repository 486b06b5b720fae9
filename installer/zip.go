package installer

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/skillkit-go/skillkit/internal/archive"
	"github.com/skillkit-go/skillkit/provenance"
	"github.com/skillkit-go/skillkit/registry"
)

// fetchZip extracts plan's ZIP archive (the skill in its Subdir) into tree
// and checks the Sigstore bundle published with it, if any, over the
// bytes extracted (the same open file): the answer goes to rec.Signer; a
// bundle that does not verify is an error wrapping ErrBadSignature.
func (in *Installer) fetchZip(ctx context.Context, plan fetchPlan, tree string, rec *registry.Record) (archive.Report, error) {
	z := plan.zip
	if z.ZipFile == "" {
		rep, err := archive.ExtractZipFolder(ctx, z.Zip, z.ZipSize, plan.origin.Subdir, tree, in.dir.Limits())
		if err == nil {
			rec.Signer, err = in.zipSignature(bundleOf(z.Bundle), z.Zip, z.ZipSize, "archive", "the ZIP archive")
		}
		return rep, err
	}
	bundle := []byte(z.Bundle)
	if z.Bundle == "" {
		var err error
		if bundle, err = readBundle(z.ZipFile + provenance.BundleSuffix); err != nil {
			return archive.Report{}, err
		}
	}
	var rep archive.Report
	err := archive.WithFile(z.ZipFile, func(f *os.File, size int64) (err error) {
		if rep, err = archive.ExtractZipFolder(ctx, f, size, plan.origin.Subdir, tree, in.dir.Limits()); err != nil {
			return err
		}
		rec.Signer, err = in.zipSignature(bundle, f, size, "archive "+filepath.Base(z.ZipFile), z.ZipFile)
		return err
	})
	return rep, err
}

// bundleOf is a Source.Bundle's bytes, nil for none.
func bundleOf(s string) []byte {
	if s == "" {
		return nil
	}
	return []byte(s)
}

// readBundle reads the bundle file name; nil when there is none. At most
// provenance.MaxBundleBytes and one byte are read: a longer one is refused
// by the check.
func readBundle(name string) ([]byte, error) {
	f, err := os.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("installer: the Sigstore bundle: %w", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: %s is not a regular file", ErrBadSignature, name)
	}
	data, err := io.ReadAll(io.LimitReader(f, provenance.MaxBundleBytes+1))
	if err != nil {
		return nil, fmt.Errorf("installer: the Sigstore bundle %s: %w", name, err)
	}
	return data, nil
}

// zipSignature checks bundle (nil: none, and no signer) over the size
// bytes r reads, against Options.Publishers; object names them in the
// record, what in an error.
func (in *Installer) zipSignature(bundle []byte, r io.ReaderAt, size int64, object, what string) (*registry.Signer, error) {
	if bundle == nil {
		return nil, nil
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(r, 0, size)); err != nil {
		return nil, fmt.Errorf("installer: hashing %s: %w", what, err)
	}
	sig := in.opt.signers.VerifyBundle(bundle, [sha256.Size]byte(h.Sum(nil)))
	if sig.State == provenance.Broken {
		return nil, fmt.Errorf("%w: %s: its Sigstore bundle: %s", ErrBadSignature, what, sig.Reason)
	}
	return signerOf(sig, object), nil
}
