package scan

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"path"
	"slices"
	"strings"
)

// The rules about binary files.
const (
	ruleExecutable = "executable-binary"
	ruleArchive    = "archive-or-bytecode"
)

// executableMagic names the executable format data starts with, or "".
func executableMagic(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("\x7fELF")):
		return "ELF"
	case len(data) >= 64 && bytes.HasPrefix(data, []byte("MZ")):
		off := binary.LittleEndian.Uint32(data[60:64])
		if int64(off)+4 <= int64(len(data)) && bytes.Equal(data[off:off+4], []byte("PE\x00\x00")) {
			return "PE (Windows)"
		}
		return "MS-DOS/PE (Windows)"
	case bytes.HasPrefix(data, []byte{0xfe, 0xed, 0xfa, 0xce}), bytes.HasPrefix(data, []byte{0xfe, 0xed, 0xfa, 0xcf}),
		bytes.HasPrefix(data, []byte{0xce, 0xfa, 0xed, 0xfe}), bytes.HasPrefix(data, []byte{0xcf, 0xfa, 0xed, 0xfe}):
		return "Mach-O (macOS)"
	case len(data) >= 8 && bytes.HasPrefix(data, []byte{0xca, 0xfe, 0xba, 0xbe}):
		// A universal Mach-O counts its architectures (a few); a Java class
		// file has its version there (45 and up).
		if binary.BigEndian.Uint32(data[4:8]) < 30 {
			return "Mach-O universal (macOS)"
		}
	}
	return ""
}

// documentArchives are ZIP files that are documents, not code.
var documentArchives = []string{".docx", ".xlsx", ".pptx", ".odt", ".ods", ".odp", ".epub", ".key", ".pages", ".numbers", ".sketch", ".fig", ".xmind"}

// checkBinary reports executables, bytecode and archives, which a reader
// cannot review and this scan cannot look into.
func (sc *skillScan) checkBinary(p string, data []byte) {
	ext := strings.ToLower(path.Ext(p))
	if what := executableMagic(data); what != "" {
		sc.add(Finding{Rule: ruleExecutable, Severity: High, File: p, Context: CtxFile, Match: magicMatch(data),
			Message: fmt.Sprintf("an executable program (%s); it cannot be reviewed", what)})
		return
	}
	add := func(sev Severity, msg string) {
		sc.add(Finding{Rule: ruleArchive, Severity: sev, File: p, Context: CtxFile, Match: magicMatch(data), Message: msg})
	}
	switch {
	case bytes.HasPrefix(data, []byte("PK\x03\x04")):
		if len(data) >= 8 && data[6]&1 == 1 {
			add(High, "a password-protected ZIP archive: nobody can check what is inside before it is opened")
			return
		}
		if !slices.Contains(documentArchives, ext) {
			add(Medium, "a ZIP archive (or a package built on ZIP); its contents are not scanned")
		}
	case bytes.HasPrefix(data, []byte{0xca, 0xfe, 0xba, 0xbe}):
		add(Medium, "a Java class file (compiled code); it cannot be reviewed")
	case bytes.HasPrefix(data, []byte("\x00asm")):
		add(Medium, "a WebAssembly module (compiled code); it cannot be reviewed")
	case ext == ".pyc" || ext == ".pyo":
		add(Medium, "compiled Python bytecode; it cannot be reviewed")
	case bytes.HasPrefix(data, []byte("7z\xbc\xaf\x27\x1c")), bytes.HasPrefix(data, []byte("Rar!\x1a\x07")):
		add(Medium, "a 7-Zip or RAR archive, which may be password-protected; its contents are not scanned")
	case bytes.HasPrefix(data, []byte{0x1f, 0x8b}), bytes.HasPrefix(data, []byte("\xfd7zXZ\x00")), bytes.HasPrefix(data, []byte("BZh")):
		add(Medium, "a compressed file; its contents are not scanned")
	}
}

// magicMatch shows a file's first bytes.
func magicMatch(data []byte) string {
	n := min(len(data), 8)
	return fmt.Sprintf("% x", data[:n])
}
