package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/skillkit-go/skillkit/loader"
)

// defaultDir is the skills folder when no DIR is given and SKILLKIT_DIR is
// unset.
const defaultDir = "./skills"

// resolveDir is the skills folder every command uses: the --dir flag, else
// $SKILLKIT_DIR, else ./skills.
func resolveDir(c *cli, flagDir string) string {
	switch {
	case flagDir != "":
		return flagDir
	case c.getenv("SKILLKIT_DIR") != "":
		return c.getenv("SKILLKIT_DIR")
	}
	return defaultDir
}

// loaderFlags are the flags of the commands that load skills as a host
// would: list and doctor.
type loaderFlags struct {
	dirs         []string // --dir, repeatable
	maxSkills    int
	maxDirs      int
	maxDepth     int
	maxFileBytes int64
	// publishers makes openKit read the host's publishers file (--publishers,
	// $SKILLKIT_PUBLISHERS): doctor checks the recorded signers against it.
	publishers bool
}

func (f *loaderFlags) register(fs *flag.FlagSet) {
	fs.Func("dir", "a skills folder `DIR` (repeatable; default $SKILLKIT_DIR, else ./skills)", func(v string) error {
		f.dirs = append(f.dirs, v)
		return nil
	})
	fs.IntVar(&f.maxSkills, "max-skills", loader.DefaultMaxSkills, "load at most `N` skills in all")
	fs.IntVar(&f.maxDirs, "max-dirs", loader.DefaultMaxDirs, "visit at most `N` folders per DIR")
	fs.IntVar(&f.maxDepth, "max-depth", loader.DefaultMaxDepth, "load skills at most `N` folder levels below each DIR")
	fs.Int64Var(&f.maxFileBytes, "max-file-bytes", loader.DefaultMaxFileBytes, "serve at most `N` bytes of a SKILL.md; skip skills whose frontmatter or skill.config.yaml is larger")
}

// loaderHelp documents DIR and the limits for list and doctor.
const loaderHelp = `
DIR (or --dir DIR) is a skills folder; several are sources in precedence
order (the first that defines a name wins). Without one, $SKILLKIT_DIR, else
./skills.
The registry (.skillhub/) of the first DIR says which skills are disabled
and what their files looked like at install. The limits are the loader's:
skills past --max-skills, folders past --max-dirs, skills more than
--max-depth levels down and files over --max-file-bytes are left out with
a diagnostic that names them (folders past --max-depth are searched last,
within --max-dirs, only to name the skill files they hold).` + dbHelp

// loaderSources are the sources and loader options of the commands that
// load skills as a host does: the first of dirs (or the default folder) is
// the skills folder, which it returns, the others follow as read-only
// sources, with the flags' limits; the loader reads them once and keeps
// nothing for a rescan. A DIR that is not a folder is an error: a host may
// open a folder before it exists, a person typing a path may not.
func loaderSources(c *cli, dirs []string, f *loaderFlags) (first string, sources []loader.Source, opts *loader.Options, err error) {
	dirs = append(append([]string{}, f.dirs...), dirs...)
	if len(dirs) == 0 {
		dirs = []string{resolveDir(c, "")}
	}
	for _, v := range []int64{int64(f.maxSkills), int64(f.maxDirs), int64(f.maxDepth), f.maxFileBytes} {
		if v <= 0 {
			return "", nil, nil, fmt.Errorf("limits must be positive")
		}
	}
	seen := map[string]bool{}
	for _, d := range dirs {
		st, err := os.Stat(d)
		if err != nil {
			return "", nil, nil, err
		}
		if !st.IsDir() {
			return "", nil, nil, fmt.Errorf("%s is not a folder", d)
		}
		if seen[d] {
			continue
		}
		seen[d] = true
		if d != dirs[0] {
			sources = append(sources, loader.Source{Name: d, Dir: d})
		}
	}
	opts = &loader.Options{MaxSkills: f.maxSkills, MaxDirs: f.maxDirs, MaxDepth: f.maxDepth, MaxFileBytes: f.maxFileBytes, OneShot: true}
	return dirs[0], sources, opts, nil
}
