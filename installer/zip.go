package installer

import (
	"context"
	"fmt"
	"io"
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
func (in *Installer) fetchZip(ctx context.Context, plan fetchPlan, tree string, rec *registry.Record, held *archive.Held) (archive.Report, error) {
	z := plan.zip
	if plan.packaged {
		// An archive skillkit packed holds the skill at its top; its
		// signer is the kept version's, which the record already has.
		return archive.ExtractZipFolderHeld(ctx, z.Zip, z.ZipSize, "", tree, in.dir.Limits(), held)
	}
	if z.ZipFile == "" {
		rep, err := archive.ExtractZipFolderHeld(ctx, z.Zip, z.ZipSize, plan.origin.Subdir, tree, in.dir.Limits(), held)
		if err == nil {
			rec.Signer, err = in.zipSignature(bundleOf(z.Bundle), z.Zip, z.ZipSize, "archive", "the ZIP archive")
		}
		return rep, err
	}
	bundle := bundleOf(z.Bundle)
	if bundle == nil {
		var err error
		if bundle, err = provenance.ReadBundle(z.ZipFile + provenance.BundleSuffix); err != nil {
			return archive.Report{}, fmt.Errorf("%w: %w", ErrBadSignature, err)
		}
	}
	var rep archive.Report
	err := archive.WithFile(z.ZipFile, func(f *os.File, size int64) (err error) {
		if rep, err = archive.ExtractZipFolderHeld(ctx, f, size, plan.origin.Subdir, tree, in.dir.Limits(), held); err != nil {
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

// zipSignature checks bundle (nil: none, and no signer) over the size
// bytes r reads, against Options.Publishers; object names them in the
// record, what in an error.
func (in *Installer) zipSignature(bundle []byte, r io.ReaderAt, size int64, object, what string) (*registry.Signer, error) {
	if bundle == nil {
		return nil, nil
	}
	sig, err := in.opt.signers.VerifyBundleOver(bundle, io.NewSectionReader(r, 0, size))
	if err != nil {
		return nil, fmt.Errorf("installer: hashing %s: %w", what, err)
	}
	if sig.State == provenance.Broken {
		return nil, fmt.Errorf("%w: %s: its Sigstore bundle: %s", ErrBadSignature, what, sig.Reason)
	}
	return signerOf(sig, object), nil
}
