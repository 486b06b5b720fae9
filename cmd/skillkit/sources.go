package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/registry"
)

// defaultDir is the skills folder when no DIR is given and SKILLKIT_DIR is
// unset.
const defaultDir = "./skills"

// loaderFlags are the flags of the commands that load skills as a host
// would: list and doctor.
type loaderFlags struct {
	maxSkills    int
	maxDirs      int
	maxFileBytes int64
}

func (f *loaderFlags) register(fs *flag.FlagSet) {
	fs.IntVar(&f.maxSkills, "max-skills", loader.DefaultMaxSkills, "load at most N skills in all")
	fs.IntVar(&f.maxDirs, "max-dirs", loader.DefaultMaxDirs, "visit at most N folders per DIR")
	fs.Int64Var(&f.maxFileBytes, "max-file-bytes", loader.DefaultMaxFileBytes, "skip skills whose SKILL.md or skill.config.yaml is over N bytes")
}

// loaderHelp documents DIR and the limits for list and doctor.
const loaderHelp = `
DIR is a skills folder; several DIRs are sources in precedence order (the
first that defines a name wins). Without DIR, $SKILLKIT_DIR, else ./skills.
The registry (.skillhub/) of the first DIR says which skills are disabled
and what their files looked like at install. The limits are the loader's:
skills past --max-skills, folders past --max-dirs and files over
--max-file-bytes are left out with a diagnostic that names them.`

// openLoader loads the skills of dirs (or the default folder). A DIR that is
// not a folder is an error: a host may list a folder before it exists, a
// person typing a path may not.
func openLoader(ctx context.Context, c *cli, dirs []string, f *loaderFlags) (*loader.Loader, registry.Store, error) {
	if len(dirs) == 0 {
		d := c.getenv("SKILLKIT_DIR")
		if d == "" {
			d = defaultDir
		}
		dirs = []string{d}
	}
	for _, v := range []int64{int64(f.maxSkills), int64(f.maxDirs), f.maxFileBytes} {
		if v <= 0 {
			return nil, nil, fmt.Errorf("limits must be positive")
		}
	}
	var sources []loader.Source
	seen := map[string]bool{}
	for _, d := range dirs {
		st, err := os.Stat(d)
		if err != nil {
			return nil, nil, err
		}
		if !st.IsDir() {
			return nil, nil, fmt.Errorf("%s is not a folder", d)
		}
		if seen[d] {
			continue
		}
		seen[d] = true
		sources = append(sources, loader.Source{Name: d, Dir: d})
	}
	reg := registry.NewFS(dirs[0])
	l, err := loader.New(ctx, sources, &loader.Options{
		MaxSkills:    f.maxSkills,
		MaxDirs:      f.maxDirs,
		MaxFileBytes: f.maxFileBytes,
		Registry:     reg,
	})
	return l, reg, err
}
