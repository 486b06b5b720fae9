package bwrap

import (
	"errors"
	"slices"
	"testing"
)

func TestArgs(t *testing.T) {
	got, err := Args(Spec{
		Mounts: []Mount{
			{Kind: ReadOnly, Src: "/usr", Dst: "/usr"},
			{Kind: Symlink, Src: "usr/bin", Dst: "/bin"},
			{Kind: Tmpfs, Dst: "/tmp"},
			{Kind: ReadWrite, Src: "/work/out", Dst: "/work/out"},
		},
		Dir: "/skills/pdf", Program: "/usr/bin/python3", Args: []string{"--", "-c", "x y"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"--unshare-all", "--as-pid-1", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
		"--proc", "/proc", "--dev", "/dev",
		"--ro-bind-try", "/usr", "/usr", "--symlink", "usr/bin", "/bin", "--tmpfs", "/tmp", "--bind", "/work/out", "/work/out",
		"--remount-ro", "/", "--chdir", "/skills/pdf", "--", "/usr/bin/python3", "--", "-c", "x y",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Args =\n%q\nwant\n%q", got, want)
	}

	net, err := Args(Spec{Dir: "/", Program: "true", Network: true})
	if err != nil || !slices.Contains(net, "--share-net") {
		t.Errorf("with Network: %q, %v; want --share-net", net, err)
	}
	if slices.Contains(got, "--share-net") {
		t.Errorf("without Network the arguments share the network: %q", got)
	}
}

func TestArgsInvalid(t *testing.T) {
	for name, spec := range map[string]Spec{
		"relative dir":      {Dir: "skills", Program: "true"},
		"unclean dir":       {Dir: "/a/../b", Program: "true"},
		"no program":        {Dir: "/"},
		"NUL in program":    {Dir: "/", Program: "tr\x00ue"},
		"NUL in argument":   {Dir: "/", Program: "true", Args: []string{"a\x00"}},
		"relative mount":    {Dir: "/", Program: "true", Mounts: []Mount{{Kind: ReadOnly, Src: "usr", Dst: "/usr"}}},
		"relative dest":     {Dir: "/", Program: "true", Mounts: []Mount{{Kind: Tmpfs, Dst: "tmp"}}},
		"empty symlink":     {Dir: "/", Program: "true", Mounts: []Mount{{Kind: Symlink, Dst: "/bin"}}},
		"unknown mount":     {Dir: "/", Program: "true", Mounts: []Mount{{Kind: Kind(42), Src: "/a", Dst: "/a"}}},
		"NUL in mount path": {Dir: "/", Program: "true", Mounts: []Mount{{Kind: ReadWrite, Src: "/a\x00", Dst: "/a"}}},
	} {
		if _, err := Args(spec); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", name, err)
		}
	}
}
