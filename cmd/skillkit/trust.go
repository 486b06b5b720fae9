//go:build !lean

package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/scan"
)

// trustFlags answer the security scan for install and update.
type trustFlags struct {
	yes            bool
	allowDangerous bool
}

func (f *trustFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&f.yes, "yes", false, "let in a skill the security scan asks about (rated caution) without asking")
	fs.BoolVar(&f.allowDangerous, "allow-dangerous", false, "ask about a skill the scan rates dangerous instead of refusing it (it then needs --yes or a yes at the prompt)")
}

// trustHelp documents the scan's questions for install and update.
const trustHelp = `

Every skill fetched is scanned for attacks (see skillkit scan) and the trust
policy decides: a safe skill goes in; one rated caution is shown with its
findings and goes in after a yes (at the terminal, or --yes); one rated
dangerous is refused, and --force does not change that: --allow-dangerous
turns the refusal into the same question. A yes holds for the files that
were shown: if the source changed before they were fetched again, nothing
is installed.`

// scanError returns the trust policy's refusal or question in err, or nil.
func scanError(err error) *installer.ScanError {
	var se *installer.ScanError
	if errors.As(err, &se) {
		return se
	}
	return nil
}

// scanRefusal is the --json form of a refusal or question of the trust
// policy: the error, and the record, trust, decision and scan it came from.
type scanRefusal struct {
	Error   string               `json:"error"`
	Refusal *installer.ScanError `json:"refusal"`
}

// confirmScan shows the scan's findings and returns exitOK to try again
// with a yes: at a terminal the person is asked; without one, the way to
// answer is named and it returns exitNeedsYes. A refusal, or a no, is
// explained and returns exitFailure.
func confirmScan(c *cli, cmd string, se *installer.ScanError, answers *bufio.Reader) int {
	name := safeText(se.Record.Name)
	fmt.Fprintf(c.stderr, "skillkit %s: the security scan rates %s %s (%s source):\n", cmd, name, se.Report.Verdict, se.Trust)
	for _, f := range se.Report.Findings {
		fmt.Fprintf(c.stderr, "  %s\n", f)
	}
	// What the yes grants: the skill's processes are confined to their
	// folder and to what it declares.
	if len(se.Widened) > 0 {
		fmt.Fprintf(c.stderr, "skillkit %s: %s asks to reach, beyond its own folder (not granted before): %s\n", cmd, name, safeText(strings.Join(se.Widened, ", ")))
	}
	if se.Decision == scan.Block {
		fmt.Fprintf(c.stderr, "skillkit %s: refused %s: the trust policy blocks a %s skill from a %s source; --force does not change that (--allow-dangerous asks instead)\n",
			cmd, name, se.Report.Verdict, se.Trust)
		return exitFailure
	}
	if !c.interactive {
		fmt.Fprintf(c.stderr, "skillkit %s: %s needs a person's yes: read the findings, then run again with --yes\n", cmd, name)
		return exitNeedsYes
	}
	yes, err := ask(c, answers, fmt.Sprintf("Let %s in anyway?", name))
	if err != nil {
		fmt.Fprintf(c.stderr, "skillkit %s: %v\n", cmd, err)
		return exitFailure
	}
	if !yes {
		fmt.Fprintf(c.stderr, "skillkit %s: %s left out\n", cmd, name)
		return exitFailure
	}
	return exitOK
}

// scanCode is the exit code of a scan's answer nobody gave: exitNeedsYes
// when a yes would let the skill in, exitFailure when it is refused.
func scanCode(se *installer.ScanError) int {
	if se.Decision == scan.Block {
		return exitFailure
	}
	return exitNeedsYes
}

// againAfterScan answers the trust policy's refusal or question in err
// for the command cmd: with --json (asJSON) it prints the refusal; else it
// shows the findings and, after a yes, calls again with the fingerprint of
// the files shown and explains a mismatch. It returns the code the command
// must end with when it must stop (exitOK when it goes on), and again's
// error (err when it is no scan's).
func againAfterScan(c *cli, cmd string, asJSON bool, err error, again func(fingerprint string) error) (stop int, _ error) {
	se := scanError(err)
	if se == nil {
		return exitOK, err
	}
	if asJSON {
		writeJSON(c, scanRefusal{cliWords(err.Error()), se})
		return scanCode(se), err
	}
	if code := confirmScan(c, cmd, se, bufio.NewReader(c.stdin)); code != exitOK {
		return code, err
	}
	err = again(se.Record.Fingerprint)
	changedSinceShown(c, cmd, err)
	return exitOK, err
}

// changedSinceShown explains ErrFingerprintMismatch after a yes.
func changedSinceShown(c *cli, cmd string, err error) {
	if errors.Is(err, installer.ErrFingerprintMismatch) {
		fmt.Fprintf(c.stderr, "skillkit %s: the source changed after its findings were shown; nothing was installed: run again to see the new findings\n", cmd)
	}
}
