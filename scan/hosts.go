package scan

import (
	"net/netip"
	"slices"
	"strings"
)

// urlHost finds URLs in a lower-cased line: scheme, then host.
var urlHost = lazyRE(`([a-z][a-z0-9+.-]{1,15})://(?:[^/\s@"'<>]*@)?(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(/[^\s"'<>)\]]*)?`)

// destination is how suspicious the place a command talks to is.
type destination uint8

const (
	destNone       destination = iota // no literal URL
	destLocal                         // this machine
	destInstaller                     // a well-known installer script
	destOrdinary                      // any other named host over TLS
	destSuspicious                    // an IP address, plain HTTP, a paste, file-drop, tunnel or capture service
)

// installerURLs are the published one-line installers that documentation
// pipes into a shell (host, or host and path prefix). Piping them is common
// practice, so it weighs Low.
var installerURLs = []string{
	"sh.rustup.rs", "astral.sh/uv/", "astral.sh/ruff/", "get.docker.com", "deno.land/install.sh", "deno.land/x/install",
	"bun.sh/install", "get.pnpm.io/install.sh", "install.python-poetry.org", "raw.githubusercontent.com/nvm-sh/nvm/",
	"raw.githubusercontent.com/homebrew/install/", "ollama.com/install.sh", "get.rvm.io", "sdk.cloud.google.com",
	"pyenv.run", "get.sdkman.io", "starship.rs/install.sh", "tailscale.com/install.sh", "fnm.vercel.app/install",
	"install.determinate.systems/nix", "nixos.org/nix/install", "raw.githubusercontent.com/helm/helm/", "get.k3s.io",
	"mise.run", "claude.ai/install.sh", "cli.moonbitlang.com", "get.maestro.mobile.dev", "foundry.paradigm.xyz",
	"dot.net/v1/dotnet-install.sh", "dotnet.microsoft.com/download/dotnet/scripts/", "aka.ms/install-artifacts-credprovider.sh",
	"vercel.com/install", "opencode.ai/install", "cursor.com/install", "install.pulumi.com",
}

// suspiciousHosts are services an attacker uses to stage payloads or
// collect data: pastes, file drops, URL shorteners, tunnels, dynamic DNS,
// request catchers. A name matches the host or any subdomain of it.
var suspiciousHosts = []string{
	"pastebin.com", "paste.ee", "hastebin.com", "ghostbin.com", "ghostbin.co", "rentry.co", "rentry.org", "glot.io",
	"dpaste.org", "dpaste.com", "controlc.com", "justpaste.it", "pastie.org", "termbin.com", "ix.io", "sprunge.us",
	"transfer.sh", "file.io", "0x0.st", "catbox.moe", "gofile.io", "anonfiles.com", "temp.sh", "bashupload.com",
	"bit.ly", "tinyurl.com", "is.gd", "cutt.ly", "rebrand.ly", "t.co", "goo.gl", "shorturl.at", "rb.gy", "tiny.cc",
	"ngrok.io", "ngrok-free.app", "ngrok.app", "ngrok.dev", "trycloudflare.com", "serveo.net", "localhost.run", "loca.lt",
	"duckdns.org", "ddns.net", "no-ip.com", "hopto.org", "zapto.org", "sytes.net", "dynu.net",
	"webhook.site", "requestbin.com", "requestbin.net", "pipedream.net", "hookbin.com", "beeceptor.com",
	"interact.sh", "oast.pro", "oast.live", "oast.site", "oast.online", "oast.fun", "oast.me", "oastify.com",
	"burpcollaborator.net", "dnslog.cn", "ceye.io", "canarytokens.com", "requestcatcher.com", "postb.in",
}

// classifyURLs returns the worst destination among the URLs of a
// lower-cased line.
func classifyURLs(lower string) destination {
	worst := destNone
	for _, m := range urlHost().FindAllStringSubmatch(lower, -1) {
		worst = max(worst, classifyURL(m[1], strings.Trim(m[2], "[]."), m[3]))
	}
	return worst
}

func classifyURL(scheme, host, path string) destination {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return destLocal
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		if ip.IsLoopback() || ip.IsUnspecified() {
			return destLocal
		}
		return destSuspicious
	}
	if matchesHost(host, suspiciousHosts) {
		return destSuspicious
	}
	if scheme == "http" || scheme == "ftp" {
		return destSuspicious
	}
	hp := host + path
	if slices.ContainsFunc(installerURLs, func(u string) bool { return strings.HasPrefix(hp, u) }) {
		return destInstaller
	}
	return destOrdinary
}

// suspiciousHost reports whether a host is an IP address other than this
// machine's, or a paste, file-drop, tunnel or collection service.
func suspiciousHost(host string) bool {
	if ip, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return !ip.IsLoopback() && !ip.IsUnspecified()
	}
	return matchesHost(host, suspiciousHosts)
}

// matchesHost reports whether host is one of names or a subdomain of one.
func matchesHost(host string, names []string) bool {
	for _, n := range names {
		if host == n || strings.HasSuffix(host, "."+n) {
			return true
		}
	}
	return false
}
