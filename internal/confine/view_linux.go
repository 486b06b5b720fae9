package confine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// maskRoots are the places where users keep their files and their
// sessions' sockets (which Landlock does not guard: connecting to a unix
// socket by path is not a file access). Each becomes an empty tmpfs in the
// program's view, with its grants bound back.
func maskRoots(home string) []string {
	roots := []string{"/tmp", "/var/tmp", "/dev/shm", "/run"}
	if home != "" && home != "/" && filepath.IsAbs(home) {
		covered := false
		for _, r := range roots {
			if under(home, r) {
				covered = true
			}
		}
		for _, sys := range DefaultSystemPaths() {
			if under(sys, home) || under(home, sys) {
				covered = true // a HOME of /usr/... or / is no place to hide
			}
		}
		if !covered {
			roots = append(roots, filepath.Clean(home))
		}
	}
	return slices.DeleteFunc(roots, func(r string) bool {
		fi, err := os.Stat(r)
		return err != nil || !fi.IsDir()
	})
}

// closedAncestors are the folders above a root host's grants that others
// may not enter (/root, say, above a pyenv installation): the program,
// nobody, could not reach its grants through them, so they are hidden and
// the grants bound back like those under the other hidden places.
func closedAncestors(s *Spec, masks []string) []string {
	var out []string
	grants := append(append(append(append([]string{s.Dir}, s.System...), s.Read...), s.Write...), s.Work...)
	for _, g := range grants {
		g = filepath.Clean(g)
		if slices.ContainsFunc(append(masks, out...), func(m string) bool { return under(g, m) }) {
			continue
		}
		// The highest folder above g that others may not enter.
		prefix := ""
		for _, part := range strings.Split(strings.TrimPrefix(filepath.Dir(g), "/"), "/") {
			if part == "" {
				break
			}
			prefix += "/" + part
			if closed(prefix) {
				if !slices.Contains(out, prefix) {
					out = append(out, prefix)
				}
				break
			}
		}
	}
	return out
}

func closed(dir string) bool {
	var st unix.Stat_t
	return unix.Stat(dir, &st) == nil && st.Mode&0o001 == 0
}

// bindBack is a granted path that lies under a mask root, opened before the
// mask hides it.
type bindBack struct {
	path string
	fd   int
	dir  bool
	rw   bool
}

func (h *helper) buildView() error {
	s := &h.spec
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("private mounts: %w", err)
	}
	masks := maskRoots(s.Home)
	if s.RootHost {
		masks = append(masks, closedAncestors(s, masks)...)
	}
	var binds []bindBack
	writable := append(slices.Clone(s.Write), s.Work...)
	add := func(paths []string, rw bool) {
		for _, p := range paths {
			p = filepath.Clean(p)
			if !slices.ContainsFunc(masks, func(m string) bool { return under(p, m) }) {
				continue
			}
			if !rw && slices.ContainsFunc(writable, func(w string) bool { return under(p, filepath.Clean(w)) }) {
				continue // a read grant inside a writable one adds nothing, and must not take writing away
			}
			fd, err := unix.Open(p, unix.O_PATH|unix.O_CLOEXEC, 0)
			if err != nil {
				continue // a grant that does not exist gives nothing
			}
			var st unix.Stat_t
			if unix.Fstat(fd, &st) != nil {
				unix.Close(fd)
				continue
			}
			binds = append(binds, bindBack{path: p, fd: fd, dir: st.Mode&unix.S_IFMT == unix.S_IFDIR, rw: rw})
		}
	}
	add(s.System, false)
	add(append([]string{s.Dir}, s.Read...), false)
	add(s.Write, true)
	add(s.Work, true)
	// Parents first, so a grant inside another is bound over it; a path
	// granted twice keeps its widest grant.
	slices.SortStableFunc(binds, func(a, b bindBack) int {
		if len(a.path) != len(b.path) {
			return len(a.path) - len(b.path)
		}
		if a.rw != b.rw {
			if a.rw {
				return 1
			}
			return -1
		}
		return 0
	})

	if err := h.privateProc(); err != nil {
		return err
	}
	lim := s.Limits.WithDefaults()
	for _, m := range masks {
		opts := "mode=0755,size=1m"
		switch m {
		case ScratchDir:
			opts = "mode=1777,size=" + strconv.FormatInt(lim.Scratch, 10)
		case "/var/tmp", "/dev/shm":
			opts = "mode=1777,size=64m"
		}
		if err := unix.Mount("tmpfs", m, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
			return fmt.Errorf("hide %s: %w", m, err)
		}
	}
	for _, b := range binds {
		if err := bind(b); err != nil {
			return fmt.Errorf("show %s: %w", b.path, err)
		}
		unix.Close(b.fd)
	}
	if err := os.MkdirAll(ScratchHome, 0o700); err != nil {
		return fmt.Errorf("scratch home: %w", err)
	}
	if err := os.Chown(ScratchHome, s.UID, s.GID); err != nil {
		return fmt.Errorf("scratch home: %w", err)
	}
	return nil
}

// privateProc mounts the PID namespace's own /proc, with /proc/sys
// read-only. A kernel that refuses (a container whose /proc has masked
// entries) leaves the host's /proc, read-only through Landlock.
func (h *helper) privateProc() error {
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return h.reduce("private /proc", err)
	}
	if err := unix.Mount("/proc/sys", "/proc/sys", "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("/proc/sys: %w", err)
	}
	return remountReadOnly("/proc/sys")
}

func bind(b bindBack) error {
	if b.dir {
		if err := os.MkdirAll(b.path, 0o755); err != nil {
			return err
		}
	} else {
		if err := os.MkdirAll(filepath.Dir(b.path), 0o755); err != nil {
			return err
		}
		f, err := os.OpenFile(b.path, os.O_CREATE|os.O_RDONLY, 0o644)
		if err != nil {
			return err
		}
		f.Close()
	}
	src := "/proc/self/fd/" + strconv.Itoa(b.fd)
	if err := unix.Mount(src, b.path, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return err
	}
	if b.rw {
		return nil
	}
	return remountReadOnly(b.path)
}

// remountReadOnly makes the bind mount at p read-only, keeping the flags a
// less privileged mount namespace may not clear.
func remountReadOnly(p string) error {
	var st unix.Statfs_t
	if err := unix.Statfs(p, &st); err != nil {
		return err
	}
	flags := uintptr(unix.MS_BIND | unix.MS_REMOUNT | unix.MS_RDONLY)
	for _, f := range [][2]uintptr{
		{unix.ST_NOSUID, unix.MS_NOSUID}, {unix.ST_NODEV, unix.MS_NODEV}, {unix.ST_NOEXEC, unix.MS_NOEXEC},
		{unix.ST_NOATIME, unix.MS_NOATIME}, {unix.ST_NODIRATIME, unix.MS_NODIRATIME}, {unix.ST_RELATIME, unix.MS_RELATIME},
	} {
		if uintptr(st.Flags)&f[0] != 0 {
			flags |= f[1]
		}
	}
	if err := unix.Mount("", p, "", flags, ""); err != nil {
		return fmt.Errorf("read-only %s: %w", p, err)
	}
	return nil
}

var errNoLandlock = errors.New("the kernel has no Landlock")
