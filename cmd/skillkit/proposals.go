//go:build !lean

package main

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/authoring"
	"github.com/skillkit-go/skillkit/scan"
	"github.com/skillkit-go/skillkit/skill"
)

type proposalsOptions struct {
	installerFlags
	yes   bool
	force bool
}

func proposalsCommand() *command {
	return &command{
		name:    "proposals",
		args:    "[--dir DIR] [--json] [show NAME | approve NAME [--yes] [--force] | reject NAME]",
		summary: "review the skills agents wrote that wait for a person: list, show, approve, reject",
		help: `
An agent's skill_manage write that the trust policy asks about (by default:
one the security scan rates caution; with the host's ReviewAgentWrites, every
one) is not saved in the skills folder: it waits in a queue
(.skillhub/proposals), one proposal per skill, a newer one replacing the
older. No agent sees a proposed skill until a person approves it.

  (no subcommand)   list the proposals: skill, action, verdict, agent, age,
                    and "stale" when the live skill changed since
  show NAME         the proposal with the scan's findings and a unified diff
                    of each file against the live skill
  approve NAME      apply it, as an agent's write approved by you: checked
                    and scanned again (a skill the policy blocks stays
                    refused), through the same transaction as any change.
                    Shows the proposal and asks first; --yes answers for
                    you. A proposal made against a version of the skill that
                    changed since is refused; --force applies it on top of
                    the current version.
  reject NAME       drop it, unapplied` + installerHelp,
		flags: func(fs *flag.FlagSet) any {
			o := &proposalsOptions{}
			o.installerFlags.register(fs, false)
			fs.BoolVar(&o.yes, "yes", false, "approve: apply without asking")
			fs.BoolVar(&o.force, "force", false, "approve: apply even though the live skill changed since the proposal")
			return o
		},
		run: runProposals,
	}
}

func runProposals(ctx context.Context, c *cli, opts any, args []string) int {
	o := opts.(*proposalsOptions)
	sub := ""
	if len(args) > 0 {
		sub, args = args[0], args[1:]
	}
	known := map[string]bool{"": true, "list": true, "show": true, "approve": true, "reject": true}
	switch {
	case !known[sub]:
		fmt.Fprintf(c.stderr, "skillkit proposals: unknown subcommand %q%s\n", safeText(sub), didYouMean(suggest(sub, slices.Sorted(maps.Keys(known)))))
		return exitUsage
	case (sub == "" || sub == "list") && len(args) != 0, sub != "" && sub != "list" && len(args) != 1:
		fmt.Fprintln(c.stderr, "skillkit proposals: wrong number of arguments; see skillkit help proposals")
		return exitUsage
	case (o.yes || o.force) && sub != "approve":
		fmt.Fprintln(c.stderr, "skillkit proposals: --yes and --force are for approve")
		return exitUsage
	}
	if len(args) == 1 {
		if err := skill.ValidateKey(args[0]); err != nil {
			fmt.Fprintf(c.stderr, "skillkit proposals %s: %v\n", sub, err)
			return exitUsage
		}
	}
	kit, err := o.open(ctx, c, false, nil)
	if err != nil {
		return c.fail("proposals", err)
	}
	defer kit.Close()
	switch sub {
	case "", "list":
		list, err := kit.Proposals(ctx)
		if err != nil {
			return c.fail("proposals", err)
		}
		return printProposals(c, list, o.json)
	case "show":
		r, err := kit.ReviewProposal(ctx, args[0])
		if err != nil {
			return c.fail("proposals show", err)
		}
		if o.json {
			return jsonCode(writeJSON(c, reviewJSON{summarize(r.Proposal), r.Scan, r.Changes}))
		}
		printReview(c.stdout, r)
		return exitOK
	case "reject":
		if err := kit.RejectProposal(ctx, args[0]); err != nil {
			return c.fail("proposals reject", err)
		}
		if o.json {
			return jsonCode(writeJSON(c, map[string]string{"name": args[0], "status": "rejected"}))
		}
		fmt.Fprintf(c.done(), "rejected the proposal for %s\n", args[0])
		return exitOK
	}
	return approveProposal(ctx, c, o, kit, args[0])
}

// approveProposal shows the proposal, asks (unless --yes) and applies the
// one shown.
func approveProposal(ctx context.Context, c *cli, o *proposalsOptions, kit *skillkit.Kit, name string) int {
	r, err := kit.ReviewProposal(ctx, name)
	if err != nil {
		return c.fail("proposals approve", err)
	}
	if r.Stale && !o.force {
		fmt.Fprintf(c.stderr, "skillkit proposals approve: %s changed since the agent's proposal was made: read it again (skillkit proposals show %s), then approve with --force to apply it on top of the current version, or reject it\n", name, name)
		return exitFailure
	}
	if !o.yes {
		if !c.interactive {
			fmt.Fprintf(c.stderr, "skillkit proposals approve: applying %s needs a person's yes: read it (skillkit proposals show %s), then run again with --yes\n", name, name)
			return exitNeedsYes
		}
		printReview(c.stderr, r)
		yes, err := ask(c, bufio.NewReader(c.stdin), fmt.Sprintf("Apply the agent's %s of %s?", r.Action, name))
		if err != nil {
			fmt.Fprintf(c.stderr, "skillkit proposals approve: %v\n", err)
			return exitFailure
		}
		if !yes {
			fmt.Fprintf(c.stderr, "skillkit proposals approve: %s left waiting\n", name)
			return exitFailure
		}
	}
	res, err := kit.ApproveProposal(ctx, name, &authoring.ApproveOptions{ID: r.ID, Force: o.force})
	if errors.Is(err, authoring.ErrProposalChanged) {
		fmt.Fprintf(c.stderr, "skillkit proposals approve: the agent replaced the proposal for %s after it was read; nothing was applied: read the new one and run again\n", name)
		return exitFailure
	}
	if err != nil {
		return c.fail("proposals approve", err)
	}
	if o.json {
		return jsonCode(writeJSON(c, res))
	}
	fmt.Fprintf(c.done(), "approved %s: the scan rates it %s; fingerprint %s\n", name, res.Scan.Verdict, short(strings.TrimPrefix(res.Record.Fingerprint, "sha256:")))
	return exitOK
}

// jsonCode is the exit code after writing JSON.
func jsonCode(err error) int {
	if err != nil {
		return exitFailure
	}
	return exitOK
}

// proposalSummary is one proposal in the --json list: what it is, without
// the files' contents (show has them).
type proposalSummary struct {
	Name     string    `json:"name"`
	ID       string    `json:"id,omitempty"`
	Action   string    `json:"action,omitempty"`
	Agent    string    `json:"agent,omitempty"`
	Created  time.Time `json:"created,omitzero"`
	Verdict  string    `json:"verdict,omitempty"`
	Decision string    `json:"decision,omitempty"`
	Reason   string    `json:"reason,omitempty"`
	Files    []string  `json:"files"`
	Remove   []string  `json:"remove_files"`
	Stale    bool      `json:"stale"`
	Damaged  string    `json:"damaged,omitempty"`
}

// reviewJSON is show --json: the proposal, the scan's report and each
// file's diff (the files' contents are in the diffs).
type reviewJSON struct {
	proposalSummary
	Scan    scan.Report            `json:"scan"`
	Changes []authoring.FileChange `json:"changes"`
}

// summarize is the --json form of a proposal.
func summarize(p authoring.Proposal) proposalSummary {
	s := proposalSummary{Name: p.Name, ID: p.ID, Action: p.Action, Agent: p.Agent, Created: p.Created,
		Decision: string(p.Decision), Reason: p.Reason, Files: slices.Sorted(maps.Keys(p.Files)),
		Remove: p.Remove, Stale: p.Stale, Damaged: p.Damaged}
	if p.Damaged == "" {
		s.Verdict = p.Scan.Verdict.String()
	}
	if p.Content != "" {
		s.Files = append([]string{skill.FileName}, s.Files...)
	}
	if s.Files == nil {
		s.Files = []string{}
	}
	if s.Remove == nil {
		s.Remove = []string{}
	}
	return s
}

func printProposals(c *cli, list []authoring.Proposal, asJSON bool) int {
	if asJSON {
		out := make([]proposalSummary, 0, len(list))
		for _, p := range list {
			out = append(out, summarize(p))
		}
		return jsonCode(writeJSON(c, out))
	}
	if len(list) == 0 {
		fmt.Fprintln(c.stderr, "no proposals wait for review")
		return exitOK
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tACTION\tVERDICT\tAGENT\tAGE\tSTATE")
	for _, p := range list {
		if p.Damaged != "" {
			fmt.Fprintf(tw, "%s\t-\t-\t-\t-\tdamaged: %s\n", p.Name, safeText(p.Damaged))
			continue
		}
		state := "waiting"
		if p.Stale {
			state = "stale (the skill changed since)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", p.Name, p.Action, p.Scan.Verdict, safeText(cmp.Or(p.Agent, "-")), age(time.Since(p.Created)), state)
	}
	tw.Flush()
	waits := "1 proposal waits"
	if len(list) > 1 {
		waits = fmt.Sprintf("%d proposals wait", len(list))
	}
	fmt.Fprintf(c.stderr, "%s for review: skillkit proposals show NAME\n", waits)
	return exitOK
}

// age says how long ago, coarsely.
func age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

// printReview writes a proposal as a person reads it: what, who, why, the
// scan's findings, then each file's diff. Everything from the agent goes
// through safeText.
func printReview(w io.Writer, r *authoring.Review) {
	agent := "an unnamed agent"
	if r.Agent != "" {
		agent = "the agent " + safeText(r.Agent)
	}
	fmt.Fprintf(w, "proposal %s: %s %s, by %s, %s\n", r.ID, r.Action, r.Name, agent, r.Created.Local().Format(time.DateTime))
	fmt.Fprintf(w, "why it waits: %s\n", safeText(r.Reason))
	if r.Stale {
		fmt.Fprintf(w, "stale: %s changed since the proposal was made; the diff is against the current version\n", r.Name)
	}
	for _, f := range r.Scan.Findings {
		fmt.Fprintf(w, "  %s\n", f)
	}
	for _, ch := range r.Changes {
		fmt.Fprintf(w, "\n%s %s\n%s", ch.Change, safeText(ch.Path), safeText(ch.Diff))
	}
}
