package scan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/skillkit-go/skillkit/hidden"
)

// The combinations: findings no single line makes, read from what the
// rules saw in a file or in the skill.
const (
	ruleExfilCredentials = "exfil-credentials"
	ruleExfilEnv         = "exfil-env"
	ruleSecretExfil      = "secret-exfil"
	ruleFakePrerequisite = "fake-prerequisite"
	ruleConcealedAction  = "concealed-action"
)

// netIDs are the hits that send something over the network, the most
// telling first.
var netIDs = []string{ruleHTTPExfil, ruleDNSExfil, ruleExfilService, signalNetSend}

// finish adds the combinations once every file is scanned.
func (sc *skillScan) finish() {
	for _, f := range sc.files {
		switch f.kind {
		case kindScript, kindConfig, kindSkillFile:
			sc.exfiltration(f)
		}
		if f.kind == kindScript {
			sc.undeclaredHosts(f)
		}
		if f.kind == kindSkillFile {
			sc.checkName(f)
			sc.fakePrerequisite(f)
			sc.parsedFields(f)
		}
	}
	sc.lowerDocumented()
	sc.concealedAction()
	sc.dependencyConfusion()
}

// dependencyConfusion: the skill says its packages come from a private
// registry and installs or imports one by name, which a public registry
// resolves to whoever published that name there.
func (sc *skillScan) dependencyConfusion() {
	var said bool
	var use *hit
	var useFile string
	for _, f := range sc.files {
		for _, h := range f.hits {
			switch {
			case h.id == signalPrivateRegistry:
				said = true
			case use == nil && (h.id == signalPkgInstall || h.id == ruleDepConfusion):
				use, useFile = h, f.path
			}
		}
	}
	if said && use != nil {
		sc.add(Finding{Rule: ruleDepConfusion, Severity: High, File: useFile, Line: use.line, Context: use.ctx, Match: use.match,
			Message: "the skill says its packages come from a private registry, but this installs or imports one by name: a public registry serves whoever published that name there"})
	}
}

// exfiltration: a file that reads credentials, the whole environment or
// secrets and also talks to the network.
func (sc *skillScan) exfiltration(f *fileState) {
	var net *hit
	for _, id := range netIDs {
		// The first send of the most telling kind; one a table holds as
		// data sends nothing.
		if i := slices.IndexFunc(f.hits, func(h *hit) bool { return h.id == id && !h.data }); i >= 0 {
			net = f.hits[i]
			break
		}
	}
	if net == nil {
		return
	}
	for _, h := range f.hits {
		if h.data {
			continue
		}
		if h.id == ruleCredentialRead && h.final > 0 || h.id == ruleCredentialPath && (h.ctx == CtxScript || h.ctx == CtxConfig) {
			sc.add(Finding{Rule: ruleExfilCredentials, Severity: Critical, File: f.path, Line: h.line, Context: h.ctx, Match: h.match,
				Message: fmt.Sprintf("reads a credential store and sends data over the network (line %d)", net.line)})
			break
		}
	}
	for _, h := range f.hits {
		if h.id == ruleEnvDump && h.sev >= Medium && h.final > 0 {
			// Reading the whole environment is common (a config loader, a
			// child's environment); critical when the send is on the same
			// line or the flow detector followed the environment or a secret
			// into a request in this file, high when only the file joins them.
			sev, how := Critical, ""
			if net.line != h.line && !slices.ContainsFunc(sc.findings, func(fd Finding) bool {
				return fd.File == f.path && fd.Rule == ruleSecretFlow && fd.Severity == Critical
			}) {
				sev, how = High, "; nothing shows the environment reaching the request"
			}
			sc.add(Finding{Rule: ruleExfilEnv, Severity: sev, File: f.path, Line: h.line, Context: h.ctx, Match: h.match,
				Message: fmt.Sprintf("reads the whole environment and sends data over the network (line %d)%s", net.line, how)})
			break
		}
	}
	if len(f.env) == 0 {
		return
	}
	var undeclared, undocumented []string
	for _, name := range f.env {
		if !sc.declared[name] {
			undeclared = append(undeclared, strings.ToUpper(name))
		}
	}
	for _, host := range f.hosts {
		if !sc.docHosts[host] && classifyURL("https", host, "") != destLocal && !slices.Contains(undocumented, host) {
			undocumented = append(undocumented, host)
		}
	}
	fd := Finding{Rule: ruleSecretExfil, File: f.path, Line: net.line, Context: net.ctx, Match: net.match}
	switch {
	case slices.ContainsFunc(f.hosts, suspiciousHost) || f.first(ruleDNSExfil) != nil || slices.ContainsFunc(f.hits, collector):
		fd.Severity = Critical
		fd.Message = fmt.Sprintf("reads secrets (%s) and talks to an IP address, a collection service or a DNS name built at run time", names(f.env))
	case f.kind == kindSkillFile:
		return // SKILL.md documents its own hosts; only a collection service counts
	case len(undeclared) > 0 && len(undocumented) > 0:
		// Reading a secret on one line and calling a host on another is a
		// correlation, not a flow; the flow detector reports the flow.
		fd.Severity = Medium
		fd.Message = fmt.Sprintf("reads secrets the skill does not declare (%s) and sends data to hosts its documents do not name (%s)",
			strings.Join(undeclared, ", "), strings.Join(undocumented, ", "))
	case len(undeclared) > 0:
		fd.Severity = Medium
		fd.Message = fmt.Sprintf("reads secrets the skill does not declare (%s) and talks to the network", strings.Join(undeclared, ", "))
	case len(undocumented) > 0:
		fd.Severity = Low
		fd.Message = fmt.Sprintf("sends data to hosts the skill's documents do not name (%s) with its declared secrets at hand", strings.Join(undocumented, ", "))
	default:
		return // its own declared secrets, to the hosts it documents
	}
	sc.add(fd)
}

// collector: a hit on a paste, file-drop, tunnel or request-capture
// service. A chat bot or webhook (Telegram, Discord) is what notifiers post
// to with the user's own token, so its medium hit is not one: a secret that
// reaches it in a payload is the flow detector's to report.
func collector(h *hit) bool { return h.id == ruleExfilService && h.sev > Medium }

func names(env []string) string {
	up := make([]string, len(env))
	for i, e := range env {
		up[i] = strings.ToUpper(e)
	}
	return strings.Join(up, ", ")
}

// fakePrerequisite: SKILL.md frames a download-and-run or an encoded
// command as a setup step, or asks a person to paste it into a terminal.
func (sc *skillScan) fakePrerequisite(f *fileState) {
	paste := f.first(rulePasteInTerminal)
	prereq := f.first(signalPrerequisite)
	if paste == nil && prereq == nil {
		return
	}
	for _, h := range f.hits {
		if h.final < High {
			continue
		}
		switch h.id {
		case ruleDecodeAndRun, ruleDownloadAndRun, ruleRemoteCodeExec, ruleEvalDecoded:
		case rulePipeToShell:
			if paste == nil {
				continue // a setup step that pipes an installer: common practice
			}
		default:
			continue
		}
		sc.add(Finding{Rule: ruleFakePrerequisite, Severity: Critical, File: f.path, Line: h.line, Context: h.ctx, Match: h.match,
			Message: "presents a download-and-run or an encoded command as a setup step for the user or the model to run"})
		return
	}
}

// riskyIDs are the findings that an instruction to hide turns dangerous.
var riskyIDs = []string{ruleExfilInstruction, ruleContextExfil, rulePipeToShell, ruleDecodeAndRun, ruleDownloadAndRun,
	ruleCredentialRead, ruleCredentialPath, ruleCredentialDump, ruleEnvDump, ruleExfilService, ruleDNSExfil, ruleHTTPExfil,
	ruleReverseShell, ruleRemoteCodeExec, ruleEvalDecoded, ruleDestructive, ruleAntiForensics, ruleTamperAgentConfig,
	rulePrivilegeEscalation, rulePersistence, ruleCryptoMiner, ruleSecretExfil, ruleTunnel}

// concealedAction: the skill tells the model to keep something from the
// user, and something risky is there to keep.
func (sc *skillScan) concealedAction() {
	var conceal *hit
	var conFile string
	for _, f := range sc.files {
		for _, h := range f.hits {
			// A quoted example of concealment hides nothing.
			if h.id == ruleConcealment && h.final > 0 && !h.quoted && (h.ctx == CtxInstructions || h.ctx == CtxFrontmatter || h.ctx == CtxDocs || h.ctx == CtxComment) {
				conceal, conFile = h, f.path
				break
			}
		}
		if conceal != nil {
			break
		}
	}
	if conceal == nil {
		return
	}
	// The worst risky finding decides: with a strong instruction to hide, or
	// anything High to hide, the pair is Critical; two Medium ones are High.
	var risky *Finding
	for i, fd := range sc.findings {
		if slices.Contains(riskyIDs, fd.Rule) && fd.Severity >= Medium && (risky == nil || fd.Severity > risky.Severity) {
			risky = &sc.findings[i]
		}
	}
	if risky == nil {
		return
	}
	sev := Critical
	if conceal.final < High && risky.Severity < High {
		sev = High
	}
	sc.add(Finding{Rule: ruleConcealedAction, Severity: sev, File: conFile, Line: conceal.line, Context: conceal.ctx, Match: conceal.match,
		Message: fmt.Sprintf("tells the model to hide its actions from the user, and the skill does something risky (%s in %s)", risky.Rule, risky.File)})
}

// parsedFields checks the name and description as parsed: YAML escapes
// ("\u202E" in a double-quoted string) put hidden characters there that
// the file's text does not show.
func (sc *skillScan) parsedFields(f *fileState) {
	if sc.s == nil || slices.ContainsFunc(f.hits, func(h *hit) bool { return isUnicodeRule(h.id) && h.ctx == CtxFrontmatter }) {
		return
	}
	for _, v := range []string{sc.s.Name, sc.s.Description} {
		if hidden.Has(v) {
			n := max(f.descLine, 1)
			sc.hiddenLine(&line{text: v, lower: lowerASCII(v), num: n, ctx: CtxFrontmatter, file: f, sc: sc})
		}
	}
}

// ruleUndeclaredHost: a script sends to a host its skill's
// permissions.network does not list.
const ruleUndeclaredHost = "undeclared-host"

// undeclaredHosts compares what a script does with what its skill declares:
// in a skill whose skill.config.yaml lists the hosts it may reach, a script
// that sends to another is high. Confinement would refuse the connection,
// so it is not a leak by itself; but a skill that does something other than
// it says deserves a reader, and where it runs unconfined nothing refuses.
func (sc *skillScan) undeclaredHosts(f *fileState) {
	if sc.s == nil || sc.s.Config == nil || sc.s.Config.Permissions.Network.All || len(sc.s.Config.Permissions.Network.Hosts) == 0 {
		return
	}
	var hosts []string
	var first *hit
	for _, h := range f.hits {
		if !slices.Contains(netIDs, h.id) {
			continue
		}
		for i, host := range f.hostLines {
			if h.line < host[0] || h.line > host[1] {
				continue
			}
			name := f.hosts[i]
			if classifyURL("https", name, "") == destLocal || sc.allowedHost(name) || slices.Contains(hosts, name) {
				continue
			}
			hosts = append(hosts, name)
			if first == nil {
				first = h
			}
		}
	}
	if first == nil {
		return
	}
	sc.add(Finding{Rule: ruleUndeclaredHost, Severity: High, File: f.path, Line: first.line, Context: first.ctx, Match: first.match,
		Message: fmt.Sprintf("talks to hosts permissions.network does not list (%s): the script does not do what the skill declares", strings.Join(hosts, ", "))})
}
