package skill

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// InfraFiles returns the names of the files a skill folder may hold for its
// own machinery: skill.config.yaml, requirements.txt, package.json,
// package-lock.json, tsconfig.json and .env. They are not attached files, so
// the model is never pointed at them.
func InfraFiles() []string {
	return []string{ConfigFileName, "requirements.txt", "package.json", "package-lock.json", "tsconfig.json", ".env"}
}

// InfraDirs returns the names of the folders never listed, searched or
// fingerprinted inside a skill: per-skill dependencies (.venv,
// node_modules, __pycache__), version control (.git) and skillkit's own
// bookkeeping (.skillhub).
func InfraDirs() []string {
	return []string{".venv", "node_modules", ".git", "__pycache__", ".skillhub"}
}

// IsInfraDir reports whether name is one of [InfraDirs].
func IsInfraDir(name string) bool {
	switch name {
	case ".venv", "node_modules", ".git", "__pycache__", ".skillhub":
		return true
	}
	return false
}

// IsInfraFile reports whether name is one of [InfraFiles].
func IsInfraFile(name string) bool {
	switch name {
	case ConfigFileName, "requirements.txt", "package.json", "package-lock.json", "tsconfig.json", ".env":
		return true
	}
	return false
}

// IsInfra reports whether a slash path relative to a skill folder is
// infrastructure: an infra file at the top of the skill, or anything inside an
// infra folder at any depth.
func IsInfra(rel string) bool {
	parts := strings.Split(rel, "/")
	for _, p := range parts[:len(parts)-1] {
		if IsInfraDir(p) {
			return true
		}
	}
	last := parts[len(parts)-1]
	if IsInfraDir(last) {
		return true
	}
	return len(parts) == 1 && (IsInfraFile(last) || IsSkillFileName(last))
}

// ErrUnsafePath is wrapped by [CleanRelPath] errors.
var ErrUnsafePath = errors.New("unsafe path")

// CleanRelPath cleans a path that must name something inside a skill folder:
// relative, no "..", no drive letter, no NUL. Backslashes are read as
// separators. It returns the slash-separated clean form.
func CleanRelPath(p string) (string, error) {
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("%w: %q holds a NUL byte", ErrUnsafePath, p)
	}
	s := strings.ReplaceAll(p, "\\", "/")
	if strings.HasPrefix(s, "/") || len(s) >= 2 && s[1] == ':' {
		return "", fmt.Errorf("%w: %q is absolute; give a path relative to the skill folder", ErrUnsafePath, p)
	}
	clean := path.Clean(s)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", fmt.Errorf("%w: %q leaves the skill folder", ErrUnsafePath, p)
	}
	if clean == "." {
		return "", fmt.Errorf("%w: %q names the skill folder itself, not a file in it", ErrUnsafePath, p)
	}
	return clean, nil
}

// listFiles walks a skill folder and returns its attached files: every
// regular file, as a slash path relative to the folder, sorted, except
// SKILL.md and infrastructure. It stops after max files and reports whether
// it did.
func listFiles(fsys fs.FS, dir string, max int) (files []string, truncated bool, err error) {
	err = fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			return nil // an unreadable entry inside the skill is simply not listed
		}
		if p == dir {
			return nil
		}
		rel := strings.TrimPrefix(p, dir+"/")
		if dir == "." {
			rel = p
		}
		if d.IsDir() {
			if IsInfraDir(d.Name()) {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || IsInfra(rel) {
			return nil
		}
		if len(files) >= max {
			truncated = true
			return fs.SkipAll
		}
		files = append(files, rel)
		return nil
	})
	slices.Sort(files)
	return files, truncated, err
}
