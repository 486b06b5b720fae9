package main

import (
	"flag"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// globalFlag reports whether name is a flag that may come before the
// command as well as after it ("skillkit --dir X list" is "skillkit list
// --dir X"), and whether it takes a value. --quiet and --verbose belong to
// every command; --dir, --db and --json to those that define them.
func globalFlag(name string) (takesValue, known bool) {
	switch name {
	case "dir", "db", "publishers":
		return true, true
	case "json", "quiet", "verbose":
		return false, true
	}
	return false, false
}

// globalFlagNames are the flags splitGlobal knows, for suggestions.
func globalFlagNames() []string {
	return []string{"dir", "db", "publishers", "json", "quiet", "verbose", "version", "help"}
}

// splitGlobal takes the global flags off the front of args, before the
// command, and returns them and the rest, which starts with the command
// (or --version or --help). A "--" there ends them.
func splitGlobal(args []string) (global, rest []string, err error) {
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			return global, args[1:], nil
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		name, hasValue, err := flagName(a)
		if err != nil {
			return nil, nil, err
		}
		takesValue, known := globalFlag(name)
		switch {
		case name == "version" || name == "help" || name == "h":
			return global, args, nil
		case !known:
			return nil, nil, fmt.Errorf("unknown global flag --%s%s; a command's own flags go after it (skillkit COMMAND --%s)",
				name, didYouMean(dashed(suggest(name, globalFlagNames()))), name)
		case takesValue && !hasValue:
			if len(args) < 2 {
				return nil, nil, fmt.Errorf("--%s needs a value", name)
			}
			global, args = append(global, a, args[1]), args[2:]
		default:
			global, args = append(global, a), args[1:]
		}
	}
	return global, args, nil
}

// flagName returns the name of the flag argument a ("-x", "--x" or
// "--x=v") and whether it holds its value.
func flagName(a string) (name string, hasValue bool, err error) {
	name = strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
	name, _, hasValue = strings.Cut(name, "=")
	if name == "" || name[0] == '-' {
		return "", false, fmt.Errorf("bad flag syntax: %s", a)
	}
	return name, hasValue, nil
}

// newFlagSet is the flag set of cmd before its own flags: --quiet and
// --verbose, which every command has, set c's fields.
func newFlagSet(cmd *command, c *cli) *flag.FlagSet {
	fs := flag.NewFlagSet("skillkit "+cmd.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&c.quiet, "quiet", false, "print only errors and the data asked for")
	fs.BoolVar(&c.verbose, "verbose", false, "also print debug lines on stderr (as SKILLKIT_LOG=debug)")
	return fs
}

// parseArgs sets the flags in args wherever they are among the arguments
// ("validate ./skills --json" is "validate --json ./skills") and returns
// the arguments. "--" ends the flags: everything after it is an argument,
// a further "--" too. -h and --help return flag.ErrHelp.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(positional, args[i+1:]...), nil
		}
		if len(a) < 2 || a[0] != '-' {
			positional = append(positional, a)
			continue
		}
		name, hasValue, err := flagName(a)
		if err != nil {
			return nil, err
		}
		f := fs.Lookup(name)
		if f == nil {
			if name == "h" || name == "help" {
				return nil, flag.ErrHelp
			}
			return nil, unknownFlag(fs, name)
		}
		_, value, _ := strings.Cut(a, "=")
		switch {
		case hasValue:
		case isBoolFlag(f):
			value = "true"
		case i+1 < len(args):
			i++
			value = args[i]
		default:
			return nil, fmt.Errorf("--%s needs a value", name)
		}
		if err := fs.Set(name, value); err != nil {
			return nil, fmt.Errorf("invalid value %q for --%s: %v", value, name, err)
		}
	}
	return positional, nil
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// unknownFlag explains a flag fs does not define, with the closest ones it
// does.
func unknownFlag(fs *flag.FlagSet, name string) error {
	if _, global := globalFlag(name); global {
		return fmt.Errorf("--%s does not apply to %s", name, fs.Name())
	}
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return fmt.Errorf("unknown flag --%s%s", name, didYouMean(dashed(suggest(name, names))))
}

// printFlags writes the flags of fs as "--name VALUE", their usage and
// their default, sorted by name.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		value, usage := flag.UnquoteUsage(f)
		line := "  --" + f.Name
		if value != "" {
			line += " " + value
		}
		fmt.Fprintf(w, "%s\n    \t%s", line, strings.ReplaceAll(usage, "\n", "\n    \t"))
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "[]" {
			if t := reflect.TypeOf(f.Value); t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.String {
				fmt.Fprintf(w, " (default %q)", f.DefValue)
			} else {
				fmt.Fprintf(w, " (default %s)", f.DefValue)
			}
		}
		fmt.Fprintln(w)
	})
}
