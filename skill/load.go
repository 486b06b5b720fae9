package skill

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/internal/hardlink"
	"github.com/skillkit-go/skillkit/internal/osfs"
)

// The file names a skill folder is recognised by.
const (
	FileName      = "SKILL.md"
	FileNameLower = "skill.md" // accepted, like any other spelling of SKILL.md, with an info diagnostic
)

// Defaults for [LoadOptions].
const (
	DefaultMaxFileBytes = 256 << 10 // SKILL.md and skill.config.yaml
	DefaultMaxFiles     = 10_000    // attached files listed per skill
)

// LoadOptions tune [Load]. A nil *LoadOptions, or a zero field, means the
// default; zero never means "unlimited".
type LoadOptions struct {
	// Strict validates against the Agent Skills specification (see Parse).
	Strict bool
	// MaxFileBytes caps skill.config.yaml and SKILL.md's frontmatter
	// (default 256 KiB): over it, the skill is not loaded. A longer SKILL.md
	// loads with a FILE_TOO_LARGE warning and Body serves it up to the last
	// line within the cap.
	MaxFileBytes int64
	// MaxFiles caps the attached files listed (default 10,000).
	MaxFiles int
	// DiskRoot is where fsys's root is on disk, when it is on disk. It makes
	// Skill.DiskDir and diagnostic paths OS paths under it, spelled as given.
	DiskRoot string
	// KeepFS is the FS the Skill keeps to read its files later (Skill.FS,
	// Skill.Open), with the same root as fsys, when fsys serves only the
	// load (a loader's reader that remembers what one scan listed). Nil
	// means fsys.
	KeepFS fs.FS
}

func (o *LoadOptions) maxFileBytes() int64 {
	if o == nil || o.MaxFileBytes <= 0 {
		return DefaultMaxFileBytes
	}
	return o.MaxFileBytes
}

func (o *LoadOptions) maxFiles() int {
	if o == nil || o.MaxFiles <= 0 {
		return DefaultMaxFiles
	}
	return o.MaxFiles
}

// Skill is one loaded skill. Its instructions are not held in memory: Body
// reads them when needed.
type Skill struct {
	Name        string           `json:"name"` // NFKC form; the folder name when the frontmatter has none
	Description string           `json:"description"`
	Dir         string           `json:"dir"`                // slash path of the folder within its fs.FS
	DiskDir     string           `json:"disk_dir,omitempty"` // OS path of the folder, when on disk
	Source      string           `json:"source,omitempty"`   // the name of the source it was found in, set by the loader
	Origin      string           `json:"origin,omitempty"`   // who serves it when not the host (an MCP server), set by the loader
	File        string           `json:"file"`               // SKILL.md, or the other spelling it has (skill.md, Skill.md, ...)
	Frontmatter Frontmatter      `json:"frontmatter"`
	Config      *Config          `json:"config,omitempty"` // nil without a valid skill.config.yaml
	Class       Class            `json:"class"`
	Files       []string         `json:"files"`      // attached files, slash paths relative to Dir, sorted
	References  References       `json:"references"` // resolved: config > frontmatter > every attached file optional
	Env         []EnvVar         `json:"env,omitempty"`
	Diagnostics diagnostics.List `json:"diagnostics"`

	fsys fs.FS
	// bodyLimit caps the bytes of the skill file Body reads (0: no cap).
	bodyLimit int64
}

// Hidden reports whether the skill stays out of the catalog
// (disable-model-invocation); it can still be read by name.
func (s *Skill) Hidden() bool { return s.Frontmatter.DisableModelInvocation }

// Runnable reports whether execute_skill can run the skill: it is a
// compute-entry skill with a valid config and an entrypoint that exists.
func (s *Skill) Runnable() bool {
	return s.Class == ClassComputeEntry && s.Config != nil && !s.Diagnostics.Has(diagnostics.EntrypointMissing)
}

// FS returns the skill folder as a file system.
func (s *Skill) FS() (fs.FS, error) {
	if s.fsys == nil {
		return nil, errors.New("skill: not loaded from a file system")
	}
	return fs.Sub(s.fsys, s.Dir)
}

// ErrNotRegular is returned for a path that names neither a regular file nor
// a folder (a named pipe, a device, a socket): opening one could block or
// read endlessly, so it is refused without being opened.
var ErrNotRegular = errors.New("skill: not a regular file")

// ErrHardLink is returned for a regular file with more than one name on
// disk (a hard link): the other name may lie outside the skill folder, so
// the file is not served, as installs do not take it.
var ErrHardLink = errors.New("skill: hard-linked file")

// Open opens a file (or folder) of the skill by its slash path relative to
// the skill folder. The path must stay inside the folder (CleanRelPath), and
// so must every symbolic link on the way ([Skill.Resolve]): a link that
// points outside the folder, or to an absolute path, is refused with
// ErrUnsafePath, whatever the path looks like; links that stay inside are
// followed. For a skill on disk the operating system enforces it too,
// through os.Root. Named pipes, devices and sockets are refused with
// ErrNotRegular, without being opened; a regular file with more than one
// hard link with ErrHardLink.
func (s *Skill) Open(rel string) (fs.File, error) {
	fsys, done, err := s.linkFS()
	if err != nil {
		return nil, err
	}
	defer done()
	resolved, err := resolve(fsys, rel)
	if err != nil {
		return nil, err
	}
	st, err := fs.Stat(fsys, resolved)
	if err != nil {
		return nil, rootError(rel, err)
	}
	if !st.Mode().IsRegular() && !st.IsDir() {
		return nil, fmt.Errorf("%s: %w", rel, ErrNotRegular)
	}
	f, err := fsys.Open(resolved)
	if err != nil {
		return nil, rootError(rel, err)
	}
	// The count of the file opened, not of the one looked at before.
	if st, err = f.Stat(); err == nil && st.Mode().IsRegular() && hardlink.Count(st) > 1 {
		err = fmt.Errorf("%s: %w: it has %d names on disk, and another may lie outside the skill folder", rel, ErrHardLink, hardlink.Count(st))
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Resolve returns the slash path, relative to the skill folder, of what rel
// leads to once every symbolic link on the way is followed, the way Open
// follows them; "." is the skill folder itself. A caller that decides by
// name (which files are infrastructure) decides on this path, so a link
// cannot dress one file up as another. The errors are Open's: ErrUnsafePath
// for a path or link that leaves the folder, an absolute link or a loop,
// and the file system's error (fs.ErrNotExist, say) for a missing part.
// Links are seen in a skill on disk and in file systems that implement
// fs.ReadLinkFS; in others every name is taken as it is.
func (s *Skill) Resolve(rel string) (string, error) {
	fsys, done, err := s.linkFS()
	if err != nil {
		return "", err
	}
	defer done()
	return resolve(fsys, rel)
}

// linkFS returns the skill folder as a file system that reports symbolic
// links: through os.Root for a skill on disk (done closes it).
func (s *Skill) linkFS() (fsys fs.FS, done func(), err error) {
	if s.DiskDir == "" {
		fsys, err = s.FS()
		return fsys, func() {}, err
	}
	root, err := os.OpenRoot(s.DiskDir)
	if err != nil {
		return nil, nil, err
	}
	return osfs.Root(root), func() { root.Close() }, nil
}

// rootError turns os.Root's refusal of a path that escapes the root, which
// the os package does not export, into ErrUnsafePath.
func rootError(rel string, err error) error {
	if err != nil && strings.Contains(err.Error(), "path escapes from parent") {
		return fmt.Errorf("%w: %q leads outside the skill folder", ErrUnsafePath, rel)
	}
	return err
}

// ReadFile reads a file of the skill by its slash path relative to the skill
// folder, with the guarantees of Open.
func (s *Skill) ReadFile(rel string) ([]byte, error) {
	return s.ReadFileLimit(rel, -1)
}

// ReadFileLimit is ReadFile reading at most max bytes (max < 0: no limit).
func (s *Skill) ReadFileLimit(rel string, max int64) ([]byte, error) {
	f, err := s.Open(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if max >= 0 {
		r = io.LimitReader(f, max)
	}
	return io.ReadAll(r)
}

// Body reads the skill file again and returns its Markdown instructions
// without the frontmatter. A skill file over the size limit it was loaded
// with (LoadOptions.MaxFileBytes) is cut at the last line that fits.
func (s *Skill) Body() (string, error) {
	data, err := s.ReadFileLimit(s.File, s.bodyLimit+1)
	if s.bodyLimit <= 0 {
		data, err = s.ReadFile(s.File)
	}
	if err != nil {
		return "", err
	}
	if s.bodyLimit > 0 && int64(len(data)) > s.bodyLimit {
		data = data[:s.bodyLimit]
		if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
			data = data[:i+1]
		}
	}
	_, body, err := SplitFrontmatter(data)
	if err != nil {
		return "", fmt.Errorf("skill %s: %w", s.Name, err)
	}
	return strings.Trim(string(body), "\n"), nil
}

// Load reads the skill in folder dir of fsys: its SKILL.md (or another
// spelling of it), its skill.config.yaml and its file list. It returns nil
// when the skill cannot be loaded (no or unreadable frontmatter, no
// description, a file over the size limit); the diagnostics always say what was found, with Skill set to the
// skill's name (the folder name when it has none) and Path to the file
// concerned. In lenient mode (the default) a skill loads whenever a reader
// could make sense of it, as the Agent Skills client guide recommends.
func Load(fsys fs.FS, dir string, opts *LoadOptions) (*Skill, diagnostics.List) {
	dir = path.Clean(dir)
	strict := opts != nil && opts.Strict
	folder := NormalizeName(path.Base(dir))
	if dir == "." && opts != nil && opts.DiskRoot != "" {
		if abs, err := filepath.Abs(opts.DiskRoot); err == nil {
			folder = NormalizeName(filepath.Base(abs))
		}
	}
	var diags diagnostics.List
	finish := func(s *Skill) (*Skill, diagnostics.List) {
		name := folder
		if s != nil {
			name = s.Name
		}
		for i := range diags {
			if diags[i].Skill == "" {
				diags[i].Skill = name
			}
		}
		if s != nil {
			s.Diagnostics = diags
		}
		return s, diags
	}
	// failed names the skills nested in a folder whose own skill does not
	// load, so that they are not lost in silence with it.
	failed := func() (*Skill, diagnostics.List) {
		if files, _, _, err := listFiles(fsys, dir, opts.maxFiles()); err == nil {
			diags = append(diags, nestedSkills(folder, dir, files, opts, true)...)
		}
		return finish(nil)
	}

	head := headBuffers.Get().(*[]byte)
	file, data, listing, d := readSkillFile(fsys, dir, opts, (*head)[:0])
	diags = append(diags, d...)
	if data == nil {
		headBuffers.Put(head)
		if len(SkillFileNames(listing.entries)) == 0 {
			return finish(nil) // not a skill folder: nothing is nested in a skill
		}
		return failed()
	}
	filePath := &lazyPath{opts: opts, dir: dir, file: file}
	parsed, _, _, pd := parseFrontmatter(data, strict, true)
	if cap(data) <= maxPooledHead { // parseFrontmatter keeps nothing of data
		*head = data[:0]
		headBuffers.Put(head)
	}
	diags = append(diags, withLazyPath(pd, filePath)...)
	if parsed == nil {
		return failed()
	}
	fm := *parsed
	s := &Skill{
		Name:        NormalizeName(fm.Name),
		Description: fm.Description,
		Dir:         dir,
		File:        file,
		Frontmatter: fm,
		Class:       ClassPrompt,
		fsys:        fsys,
		bodyLimit:   opts.maxFileBytes(),
	}
	if opts != nil && opts.KeepFS != nil {
		s.fsys = opts.KeepFS
	}
	if opts != nil && opts.DiskRoot != "" {
		s.DiskDir = displayPath(opts, dir)
	}
	diags = append(diags, checkFields(s, folder, filePath, strict)...)
	if s.Description == "" || ValidateKey(s.Name) != nil {
		return failed()
	}

	files, truncated, deep, err := listFiles(fsys, dir, opts.maxFiles())
	if err != nil {
		diags = append(diags, diagnostics.New(diagnostics.ReadError, "", displayPath(opts, dir), "cannot list the skill's files: %v", err))
	}
	if truncated {
		diags = append(diags, diagnostics.New(diagnostics.LimitReached, "", displayPath(opts, dir),
			"the skill has more than %d files; only the first %d are listed", opts.maxFiles(), opts.maxFiles()).With("limit", "max_files"))
	}
	if deep != "" {
		diags = append(diags, diagnostics.New(diagnostics.LimitReached, "", displayPath(opts, dir),
			"the skill has folders more than %d levels deep (%s); they are not listed", MaxFolderDepth, deep).With("limit", "max_folder_depth"))
	}
	s.Files = files
	diags = append(diags, nestedSkills(s.Name, dir, files, opts, false)...)

	configPath := &lazyPath{opts: opts, dir: dir, file: ConfigFileName}
	var cfg *Config
	if entry, ok := listing.find(ConfigFileName); ok || !listing.complete {
		var cd diagnostics.List
		cfg, cd = readConfig(fsys, configPath.rel(), entry, opts)
		diags = append(diags, withLazyPath(cd, configPath)...)
	}
	if cfg != nil {
		s.Config = cfg
		s.Class = cfg.Class()
		if cfg.Entrypoint != "" && !exists(fsys, path.Join(dir, cfg.Entrypoint)) {
			diags = append(diags, diagnostics.New(diagnostics.EntrypointMissing, "", configPath.String(),
				"the entrypoint %s does not exist", cfg.Entrypoint).With("entrypoint", cfg.Entrypoint))
		}
	}
	s.Env = resolveEnv(cfg, fm)
	s.References = resolveReferences(cfg, fm, files)
	diags = append(diags, checkReferences(s, fsys, configPath, filePath, cfg != nil && cfg.References != nil)...)
	return finish(s)
}

// listing is the skill folder's listing, as Load read it.
type listing struct {
	entries  []fs.DirEntry // sorted by name
	complete bool          // read without error
}

// find returns the entry named name.
func (l listing) find(name string) (fs.DirEntry, bool) {
	i, ok := slices.BinarySearchFunc(l.entries, name, func(e fs.DirEntry, name string) int { return strings.Compare(e.Name(), name) })
	if !ok {
		return nil, false
	}
	return l.entries[i], true
}

// headBuffers hold the heads of skill files while their frontmatter is
// parsed: nothing of them is kept.
var headBuffers = sync.Pool{New: func() any { b := make([]byte, 0, headChunk); return &b }}

// maxPooledHead: larger heads are left to the garbage collector.
const maxPooledHead = 64 << 10

// lazyPath is a path as reported to users, made when first asked for:
// most loads report nothing.
type lazyPath struct {
	opts      *LoadOptions
	dir, file string // the slash path within the FS, joined when needed
	p         string
}

// rel is the slash path within the FS.
func (l *lazyPath) rel() string { return path.Join(l.dir, l.file) }

func (l *lazyPath) String() string {
	if l.p == "" {
		l.p = displayPath(l.opts, l.rel())
	}
	return l.p
}

func withLazyPath(diags diagnostics.List, p *lazyPath) diagnostics.List {
	if len(diags) == 0 {
		return diags
	}
	return withPath(diags, p.String())
}

// readSkillFile finds and reads the skill file within its size limit into
// buf: SKILL.md, else another spelling of it (skill.md, Skill.md, ...),
// reported; any other spelling beside the one read is named as ignored. It
// returns the folder's listing too.
func readSkillFile(fsys fs.FS, dir string, opts *LoadOptions, buf []byte) (string, []byte, listing, diagnostics.List) {
	var diags diagnostics.List
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil && len(entries) == 0 {
		if errors.Is(err, fs.ErrNotExist) {
			return "", nil, listing{}, diagnostics.List{diagnostics.New(diagnostics.FrontmatterInvalid, "", displayPath(opts, dir), "no %s in the skill folder", FileName)}
		}
		return "", nil, listing{}, diagnostics.List{diagnostics.New(diagnostics.ReadError, "", displayPath(opts, dir), "cannot list the skill folder: %v", err)}
	}
	l := listing{entries: entries, complete: err == nil}
	spellings := SkillFileNames(entries)
	if len(spellings) == 0 {
		return "", nil, l, diagnostics.List{diagnostics.New(diagnostics.FrontmatterInvalid, "", displayPath(opts, dir), "no %s in the skill folder", FileName)}
	}
	file := spellings[0]
	if file != FileName {
		d := diagnostics.New(diagnostics.SkillFileLowercase, "", displayPath(opts, path.Join(dir, file)),
			"the skill file is named %s; %s is the standard name", file, FileName)
		if opts != nil && opts.Strict && file != FileNameLower {
			// The specification's reference reader looks for SKILL.md,
			// then skill.md; on a case-sensitive file system it finds no
			// other spelling.
			d = diagnostics.New(diagnostics.SkillFileLowercase, "", d.Path,
				"the skill file is named %s; readers that follow the specification look for %s (or %s) and do not find it", file, FileName, FileNameLower).
				At(diagnostics.Warning)
		}
		diags = append(diags, d)
	}
	for _, other := range spellings[1:] {
		diags = append(diags, diagnostics.New(diagnostics.SkillFileLowercase, "", displayPath(opts, path.Join(dir, other)),
			"%s is ignored: the folder's skill file is %s", other, file).With("ignored", other))
	}
	name := path.Join(dir, file)
	entry, _ := l.find(file)
	f, err := openRegular(fsys, name, entry)
	if err != nil {
		return "", nil, l, append(diags, diagnostics.New(diagnostics.ReadError, "", displayPath(opts, name), "cannot open: %v", err))
	}
	max := opts.maxFileBytes()
	data, size, err := readHead(f, max, buf)
	if err != nil {
		code := diagnostics.ReadError
		if errors.Is(err, errTooLarge) {
			code = diagnostics.FileTooLarge
		}
		return "", nil, l, append(diags, diagnostics.New(code, "", displayPath(opts, name), "%v", err).With("limit_bytes", max))
	}
	if size > max {
		// The specification sets no size limit: a long skill file is the
		// host's concern, which loads it and serves what fits.
		diags = append(diags, diagnostics.New(diagnostics.FileTooLarge, "", displayPath(opts, name),
			"%d bytes, over the limit of %d: the skill loads, and its instructions are served up to the last line within the limit", size, max).
			At(diagnostics.Warning).With("limit_bytes", max).With("size_bytes", size))
	}
	return file, data, l, diags
}

// IsSkillFileName reports whether a file name is a spelling of SKILL.md in
// any case (SKILL.md, skill.md, Skill.md, ...).
func IsSkillFileName(name string) bool { return strings.EqualFold(name, FileName) }

// SkillFileNames returns the entries of a folder that may be its skill file,
// in the order they are preferred: SKILL.md, skill.md, then the other
// spellings in byte order. Files and links to files count; folders do not.
func SkillFileNames(entries []fs.DirEntry) []string {
	var names []string
	for _, e := range entries {
		if IsSkillFileName(e.Name()) && !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	rank := func(n string) int {
		switch n {
		case FileName:
			return 0
		case FileNameLower:
			return 1
		}
		return 2
	}
	slices.SortFunc(names, func(a, b string) int {
		if c := rank(a) - rank(b); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return names
}

// nestedSkills names the skill files below the top of a skill's folder:
// each is a skill of its own inside this one, which only a host asking for
// nested skills loads. failed says the outer skill itself does not load.
func nestedSkills(outer, dir string, files []string, opts *LoadOptions, failed bool) diagnostics.List {
	var diags diagnostics.List
	for _, f := range files {
		if !IsSkillFileName(path.Base(f)) {
			continue
		}
		var d diagnostics.Diagnostic
		if failed {
			d = diagnostics.New(diagnostics.NestedSkill, "", displayPath(opts, path.Join(dir, f)),
				"%s is the skill file of a skill nested inside %s, which does not load; it is not loaded either unless the host asks for nested skills",
				f, outer).At(diagnostics.Warning)
		} else {
			d = diagnostics.New(diagnostics.NestedSkill, "", displayPath(opts, path.Join(dir, f)),
				"%s is the skill file of a skill nested inside %s; it is one of %s's files, not loaded as a skill of its own unless the host asks for nested skills",
				f, outer, outer)
		}
		diags = append(diags, d.With("outer", outer).With("nested", path.Dir(f)))
	}
	return diags
}

// readConfig reads skill.config.yaml; entry is its folder entry, nil when
// the listing does not say.
func readConfig(fsys fs.FS, name string, entry fs.DirEntry, opts *LoadOptions) (*Config, diagnostics.List) {
	f, err := openRegular(fsys, name, entry)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, diagnostics.List{diagnostics.New(diagnostics.ConfigParseError, "", "", "cannot open %s: %v", ConfigFileName, err)}
	}
	data, err := readLimited(f, opts.maxFileBytes())
	if err != nil {
		code := diagnostics.ConfigParseError
		if errors.Is(err, errTooLarge) {
			code = diagnostics.FileTooLarge
		}
		return nil, diagnostics.List{diagnostics.New(code, "", "", "%s: %v", ConfigFileName, err)}
	}
	return ParseConfig(data)
}

var errTooLarge = errors.New("file is over the size limit")

// openRegular opens a file after checking it is a regular one: opening a
// named pipe left in a skill folder would block the scan. The folder entry,
// when given and a regular file, says so without a stat.
func openRegular(fsys fs.FS, name string, entry fs.DirEntry) (fs.File, error) {
	if entry == nil || !entry.Type().IsRegular() {
		st, err := fs.Stat(fsys, name)
		if err != nil {
			return nil, err
		}
		if !st.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: %w", name, ErrNotRegular)
		}
	}
	return fsys.Open(name)
}

// readLimited reads at most max bytes and fails if the file holds more.
// The buffer is sized from the file's reported size, so a file that does not
// change while it is read is read in one pass.
func readLimited(f fs.File, max int64) ([]byte, error) {
	defer f.Close()
	var buf bytes.Buffer
	if st, err := f.Stat(); err == nil {
		if st.IsDir() {
			return nil, errors.New("is a folder, not a file")
		}
		if st.Size() > max {
			return nil, fmt.Errorf("%w: %d bytes, limit %d", errTooLarge, st.Size(), max)
		}
		buf.Grow(int(st.Size()) + bytes.MinRead)
	}
	_, err := buf.ReadFrom(io.LimitReader(f, max+1))
	data := buf.Bytes()
	if data == nil {
		data = []byte{} // read, and empty: not the nil of a failed read
	}
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%w: over %d bytes", errTooLarge, max)
	}
	return data, nil
}

// headChunk is the first read of a skill file; most frontmatter fits.
const headChunk = 4 << 10

// readHead reads a skill file up to the end of its frontmatter: Load needs
// nothing after it, and Body reads the file again. It stops at the first
// complete line that closes the frontmatter, or once the first line shows
// there is none, and otherwise reads to the end, so SplitFrontmatter of the
// result answers as it would for the whole file. size is the file's size.
// A file over limit bytes is read when its head fits in limit (size tells
// the caller), and refused when it does not; without a size from Stat the
// whole file is read, and refused over limit, as readLimited does.
func readHead(f fs.File, limit int64, buf []byte) (data []byte, size int64, err error) {
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		data, err = readLimited(f, limit)
		return data, int64(len(data)), err
	}
	defer f.Close()
	data = buf[:0]
	if cap(data) == 0 {
		data = make([]byte, 0, min(int64(headChunk), st.Size()+1, limit+1))
	}
	for {
		if len(data) == cap(data) {
			data = slices.Grow(data, cap(data))
		}
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if int64(len(data)) > limit {
			if headComplete(data[:limit]) {
				return data[:limit], max(st.Size(), int64(len(data))), nil
			}
			return nil, 0, fmt.Errorf("%w: over %d bytes, and the frontmatter does not end within them", errTooLarge, limit)
		}
		if errors.Is(err, io.EOF) {
			return data, max(st.Size(), int64(len(data))), nil
		}
		if err != nil {
			return nil, 0, err
		}
		if headComplete(data) {
			return data, st.Size(), nil
		}
	}
}

// headComplete reports whether the complete lines of data already decide
// SplitFrontmatter: the frontmatter closes in them, or the first line is not
// its opening.
func headComplete(data []byte) bool {
	end := bytes.LastIndexByte(data, '\n')
	if end < 0 {
		return false
	}
	_, _, err := SplitFrontmatter(data[:end+1])
	return err == nil || errors.Is(err, ErrNoFrontmatter)
}

// listed reports whether rel is among the attached files (sorted), which
// exist by construction, so checking them costs no file system call.
func listed(files []string, rel string) bool {
	_, found := slices.BinarySearch(files, rel)
	return found
}

func exists(fsys fs.FS, name string) bool {
	_, err := fs.Stat(fsys, name)
	return err == nil
}

// displayPath turns a slash path within fsys into the path reported to users:
// under DiskRoot (spelled as given, OS separators) when set, else as is.
func displayPath(opts *LoadOptions, p string) string {
	if opts == nil || opts.DiskRoot == "" {
		return p
	}
	root := opts.DiskRoot
	if p == "." {
		return root
	}
	if !strings.HasSuffix(root, string(filepath.Separator)) && !strings.HasSuffix(root, "/") {
		root += string(filepath.Separator)
	}
	return root + filepath.FromSlash(p)
}

func withPath(diags diagnostics.List, p string) diagnostics.List {
	for i := range diags {
		if diags[i].Path == "" {
			diags[i].Path = p
		}
	}
	return diags
}

// checkFields applies the name, description and compatibility rules.
func checkFields(s *Skill, folder string, filePath *lazyPath, strict bool) diagnostics.List {
	var diags diagnostics.List
	add := func(d diagnostics.Diagnostic, specRule bool) {
		d.Path = filePath.String()
		if strict && specRule {
			d = d.At(diagnostics.Error)
		}
		diags = append(diags, d)
	}
	missing := s.Name == ""
	if missing {
		s.Name = folder
		add(diagnostics.New(diagnostics.NameInvalid, s.Name, "", "the frontmatter has no name; the folder name %q is used", folder), true)
	}
	if err := ValidateKey(s.Name); err != nil {
		d := diagnostics.New(diagnostics.NameInvalid, s.Name, "", "%v; the skill is skipped, since its name cannot identify it", err)
		diags = append(diags, withPath(diagnostics.List{d.At(diagnostics.Error)}, filePath.String())...)
	} else if err := ValidateName(s.Name); err != nil && !missing {
		add(diagnostics.New(diagnostics.NameInvalid, s.Name, "", "%v", err), true)
	}
	if s.Name != folder {
		add(diagnostics.New(diagnostics.NameMismatch, s.Name, "", "the name %q differs from its folder name %q", s.Name, folder).
			With("folder", folder), true)
	}
	if w := reservedWord(s.Name); w != "" {
		add(diagnostics.New(diagnostics.NameReserved, s.Name, "", "the name contains the reserved word %q, which Anthropic's API refuses", w), false)
	}
	desc := s.Description
	switch n := utf8.RuneCountInString(desc); {
	case n == 0:
		add(diagnostics.New(diagnostics.DescMissing, s.Name, "", "the description is missing or empty; the skill is skipped, since the model could not know when to use it"), false)
	case n > MaxDescriptionLength:
		add(diagnostics.New(diagnostics.DescTooLong, s.Name, "", "the description is %d characters, over the limit of %d", n, MaxDescriptionLength).
			With("length", n), true)
	}
	if tag := xmlTag().FindString(desc); tag != "" {
		add(diagnostics.New(diagnostics.DescHasXML, s.Name, "", "the description holds the XML-like tag %s, which Anthropic's API refuses", tag), false)
	}
	if n := utf8.RuneCountInString(s.Frontmatter.Compatibility); n > MaxCompatibilityLength {
		add(diagnostics.New(diagnostics.CompatTooLong, s.Name, "", "compatibility is %d characters, over the limit of %d", n, MaxCompatibilityLength).
			With("length", n), true)
	}
	return diags
}

// resolveEnv: the config's env declaration wins over the frontmatter's.
func resolveEnv(cfg *Config, fm Frontmatter) []EnvVar {
	if cfg != nil && len(cfg.Env) > 0 {
		return cfg.Env
	}
	return fm.Env
}

// resolveReferences applies the rule of docs/skill-config.md:
// skill.config.yaml wins over the frontmatter's metadata.references; with
// neither, every attached file is optional. Declared optional lists are
// kept as declared.
func resolveReferences(cfg *Config, fm Frontmatter, files []string) References {
	switch {
	case cfg != nil && cfg.References != nil:
		return *cfg.References
	case fm.References != nil:
		return *fm.References
	}
	return References{Optional: slices.Clone(files)}
}

// checkReferences reports declared references that do not exist.
func checkReferences(s *Skill, fsys fs.FS, configPath, filePath *lazyPath, fromConfig bool) diagnostics.List {
	var diags diagnostics.List
	where := filePath
	if fromConfig {
		where = configPath
	}
	seen := map[string]bool{}
	check := func(kind string, refs []string) {
		for _, ref := range refs {
			if seen[ref] {
				continue
			}
			seen[ref] = true
			clean, err := CleanRelPath(ref)
			if err == nil && (listed(s.Files, clean) || exists(fsys, path.Join(s.Dir, clean))) {
				continue
			}
			msg := fmt.Sprintf("the %s reference %s does not exist", kind, ref)
			if err != nil {
				msg = fmt.Sprintf("the %s reference %s is not a path inside the skill: %v", kind, ref, err)
			}
			diags = append(diags, diagnostics.Diagnostic{
				Level: diagnostics.ReferenceMissing.Level(), Code: diagnostics.ReferenceMissing,
				Message: msg, Path: where.String(), Detail: map[string]any{"reference": ref, "kind": kind},
			})
		}
	}
	check("required", s.References.Required)
	for _, r := range s.References.Routes {
		check("required", r.RequiredRefs)
	}
	check("optional", s.References.Optional)
	return diags
}
