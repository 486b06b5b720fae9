package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"

	"github.com/skillkit-go/skillkit"
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

// publishersFile is the publishers file (--publishers, else
// $SKILLKIT_PUBLISHERS) when want, else "".
func publishersFile(c *cli, want bool) string {
	if !want {
		return ""
	}
	return cmp.Or(c.publishers, c.getenv("SKILLKIT_PUBLISHERS"))
}

// openKit opens the skills of dirs (or the default folder) as a host does,
// through skillkit.Open: the first folder is the Kit's skills folder (its
// registry and secrets), the others follow as read-only sources, with the
// flags' limits. So list, doctor, prompt and read see what a host's Kit
// sees, checks included. A DIR that is not a folder is an error: a host may
// open a folder before it exists, a person typing a path may not.
func openKit(ctx context.Context, c *cli, dirs []string, f *loaderFlags) (*skillkit.Kit, error) {
	dirs = append(append([]string{}, f.dirs...), dirs...)
	if len(dirs) == 0 {
		dirs = []string{resolveDir(c, "")}
	}
	for _, v := range []int64{int64(f.maxSkills), int64(f.maxDirs), int64(f.maxDepth), f.maxFileBytes} {
		if v <= 0 {
			return nil, fmt.Errorf("limits must be positive")
		}
	}
	var sources []loader.Source
	seen := map[string]bool{}
	for _, d := range dirs {
		st, err := os.Stat(d)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("%s is not a folder", d)
		}
		if seen[d] {
			continue
		}
		seen[d] = true
		if d != dirs[0] {
			sources = append(sources, loader.Source{Name: d, Dir: d})
		}
	}
	kit, err := c.open(ctx, skillkit.Options{
		Dir:     dirs[0],
		DirName: dirs[0],
		Sources: sources,
		// The commands read the skills once and exit: nothing is kept
		// for a rescan.
		Loader: &loader.Options{MaxSkills: f.maxSkills, MaxDirs: f.maxDirs, MaxDepth: f.maxDepth, MaxFileBytes: f.maxFileBytes, OneShot: true},
		Getenv: c.getenv,
		Logger: c.logger,
		// Every command opening the Kit this way reads the skills at once.
		ScanOnOpen:     true,
		PublishersFile: publishersFile(c, f.publishers),
	})
	// The scan's garbage goes before the command builds its output: left
	// to the pacer, the output's allocations meet it and lift the peak
	// (docs/decisions.md).
	runtime.GC()
	return kit, err
}
