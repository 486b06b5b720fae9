package scan

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// The flow detector follows data from where secrets live to where data
// leaves, within one script or one code block of a document: a secret
// read from the environment, a credential file or the whole environment,
// held in a variable, joined into a string or encoded, and then put into a
// network request's payload or a DNS name. It reads statements, not
// programs: names are tracked through plain assignments (NAME=..., x =,
// x :=, const x =, $x =, local x =), which is how the languages skills are
// written in (shell, Python, JavaScript, PowerShell, Ruby, Lua, Go) pass a
// value along in a few lines.
const (
	ruleSecretFlow     = "secret-flow"
	ruleSecretHarvest  = "secret-harvest"
	ruleHiddenEndpoint = "hidden-endpoint"
)

// taint is what a value carries.
type taint uint8

const (
	tSecret  taint = 1 << iota // a secret-looking environment variable
	tCred                      // a credential or .env file's contents
	tEnvAll                    // the whole environment
	tDecoded                   // text decoded at run time
	tRemote                    // a response read from the network
	tHome                      // the home folder itself
)

// value is what the flow detector knows of an expression or a variable.
type value struct {
	t       taint
	secrets []string // secret variables, lower case
	hosts   []string // hosts of URL literals
}

func (v *value) add(o value) {
	v.t |= o.t
	for _, s := range o.secrets {
		if !slices.Contains(v.secrets, s) {
			v.secrets = append(v.secrets, s)
		}
	}
	for _, h := range o.hosts {
		if !slices.Contains(v.hosts, h) {
			v.hosts = append(v.hosts, h)
		}
	}
}

// Expressions of the flow detector, on lower-cased text.
var (
	// assignment: a statement that gives a variable a value.
	assignment = lazyRE(`^\s*(?:export\s+|local\s+|readonly\s+|declare\s+(?:-\w+\s+)*|const\s+|let\s+|var\s+|my\s+|our\s+|set\s+)?[$@]?([a-z_][a-z0-9_]*)\s*(?::=|\+=|=)\s*([^=].*)$`)
	// netSink: a call or command that sends data over the network.
	netSink = lazyRE(`(?:^|[\s;&|(`+"`"+`$])(?:curl|wget|nc|ncat|netcat|socat|telnet|scp|sftp|ftp|rsync)\s`,
		`\b(?:requests|httpx|aiohttp|session|client|http|https|axios|needle|superagent|got|ky|faraday|httparty|restclient|resty|urllib\d?(?:\.request)?)\.(?:get|post|put|patch|request|send|delete|head|urlopen|fetch|new_request|newrequest|post_form|postform)\b`,
		`\bfetch\s*\(|\burlopen\s*\(|\brequest\s*\(\s*["']?(?:post|put|patch)|net::http\.(?:post|get|start)|uri\.open|\bopen-uri\b`,
		`\binvoke-(?:webrequest|restmethod)\b|\b(?:iwr|irm)\s|net\.webclient|\.upload(?:string|file|data)\s*\(|sendbeacon\s*\(|xmlhttprequest|\.sendall?\s*\(|\.sendmail\s*\(|\bsocket\.http\b|http\.request\s*\(`)
	// dnsSink: a lookup of a name.
	dnsSink = lazyRE(`(?:^|[\s;&|("'` + "`" + `$])(?:dig|nslookup|host|drill)\s|gethostbyname|getaddrinfo|\bdns\.(?:lookup|resolve\w*)|resolve-dnsname|\blookup(?:host|ip)\s*\(|\bresolv\b`)
	// serialize: turning a value into text to store or send.
	serialize = lazyRE(`\b(?:json\.dumps?|json\.stringify|to_json|convertto-json|yaml\.(?:safe_)?dump|pickle\.dumps?|json\.marshal|base64\.\w*encode|btoa)\s*\(|\.to_json\b|\|\s*convertto-json`)
	// authPart: where a request carries a credential to authenticate
	// (headers, basic auth), which is what a key is for.
	authPart = lazyRE(`(?:-h|--header)\s+(?:"[^"]*"|'[^']*'|\S+)`, `(?:-u|--user|--oauth2-bearer)\s+(?:"[^"]*"|'[^']*'|\S+)`,
		`\bheaders\s*[=:]\s*(?:\{[^}]*\}|[a-z_][a-z0-9_.]*)`, `\bauth\s*[=:]\s*(?:\([^)]*\)|\[[^\]]*\]|[a-z_][a-z0-9_.]*)`,
		`["']?(?:authorization|x-api-key|api-key|x-auth-token|private-token)["']?\s*[:=,]\s*[^,}\n]*`, `\bbearer\s+[^"',}\s]*`,
		`\.(?:set_?header|setrequestheader|add_header)\s*\([^)]*\)`, `-headers\s+@?\{[^}]*\}`)
	// credSource: a credential or .env file read, or the whole environment.
	envFileRead = lazyRE(`(?:\bcat|\bopen|read_text|readfilesync|readfile|get-content|file\.read|io\.open|os\.readfile|\bsource|load_dotenv|dotenv_values)\s*\(?\s*[^\n)]*\.env\b`)
	wholeEnv    = lazyRE(`\bos\.environ\b(?:\s*\)|\s*,|\s*;|\s*$|\.copy\(\)|\.items\(\)|\.keys\(\)|\.values\(\))|\bprocess\.env\b(?:\s*[),};]|\s*$)|\benv\.to_h\b|\$\(\s*(?:env|printenv|set)\s*\)|` + "`" + `(?:env|printenv)` + "`" + `|\bget-childitem\s+env:|\bos\.environ\(\)|\bsystem\.getenv\(\s*\)|^\s*(?:env|printenv|export\s+-p|set)\s*$|\benv\.(?:each|each_pair|to_a|select|filter|map|keys|values)\b|\bobject\.(?:entries|keys|values)\(\s*process\.env\b`)
	decodes     = lazyRE(`b64decode|b32decode|b16decode|base64\s+(?:-\w+\s+)*(?:-d|--decode)|\batob\s*\(|["'](?:base64|hex)["']\s*\)\.tostring|\.fromhex\(|unhexlify|codecs\.decode|frombase64string|decode64|base64_decode|\bxxd\s+-r`)
	// blockOpener: a line that opens a block of statements (a function, a
	// loop, a condition) rather than a literal.
	blockOpener = lazyRE(`(?:\)|\belse|\bdo|\btry|\bfinally|=>|^\s*(?:func|function|class|struct|if|for|while|switch|catch|begin)\b[^{]*)\s*\{\s*$`)
	// element: a statement that puts a value into a container or an
	// object: x[k] = v, x.k = v, x.append(v), x.push(v), x.update(v).
	element = lazyRE(`^\s*\$?([a-z_][a-z0-9_]*)(?:\[[^\]]*\]|\.[a-z_][a-z0-9_]*)+\s*=\s*([^=].*)$`,
		`^\s*\$?([a-z_][a-z0-9_]*)\.(?:append|extend|update|push|add|insert|concat|write|merge!?|store|set)\s*\((.*)$`,
		`^\s*\$?([a-z_][a-z0-9_]*)\s*<<\s*(.*)$`)
	// loopHead: a loop over an iterable; its variables carry what it
	// holds.
	loopHead = lazyRE(`^\s*(?:for|foreach)\s*\(?\s*(?:const\s+|let\s+|var\s+|my\s+)?([\[\]$a-z0-9_, ()]+?)\s+(?:in|of)\s+(.+)$`,
		`^\s*(.+?)\.(?:each|each_pair|foreach|map|filter|select|items)\s*(?:\(|do\b|\{)\s*\|?([a-z0-9_, ]+)`)
	// remoteRead: the body of a response.
	remoteRead = lazyRE(`(?:requests|httpx|session)\.(?:get|post)\([^\n]*\)\s*\.(?:text|content|json)|urlopen\([^\n]*\)\.read\(|\bawait\s+[a-z_]*\.?text\(\)|\.then\(\s*\(?\s*r\w*\s*\)?\s*=>\s*r\w*\.text\(\)|\bnet::http\.get\(|\bopen-uri\b|\bdownloadstring\(|\binvoke-(?:webrequest|restmethod)\b|\$\(\s*(?:curl|wget)\s`)
	// xorDecode: bytes XORed with a key, the simplest cipher a payload hides in.
	xorDecode = lazyRE(`\^\s*[a-z0-9_\[\]%() ]+\s+for\s+\w+(?:\s*,\s*\w+)?\s+in\b|\bchr\(\s*ord\(\s*\w+\s*\)\s*\^|\^=\s*\w+|\.charcodeat\([^)]*\)\s*\^|\bxor\w*\s*\(`)
	// execSink: a call that runs text as code or as a shell command.
	execSink = lazyRE(`(?:^|[^.\w])(?:exec|eval)\s*\(|\bos\.(?:system|popen)\s*\(|\bsubprocess\.\w+\([^\n]*shell\s*=\s*true|\bchild_process\b|\bexecsync\s*\(|\b(?:bash|sh|zsh)\s+-c\s+["']?\$|\b(?:iex|invoke-expression)\b|\bnew\s+function\s*\(|\bsystem\s*\(|\b%x\(|\binstance_eval\b|(?:^|[^.\w])load(?:string)?\s*\(`)
	// homeExpr: the home folder, whole.
	homeExpr = lazyRE(`^\s*(?:os\.path\.expanduser\(\s*["']~/?["']\s*\)|(?:pathlib\.)?path\.home\(\)|path\(\s*["']~/?["']\s*\)\.expanduser\(\)|os\.environ(?:\[\s*["']home["']\s*\]|\.get\(\s*["']home["']\s*\))|os\.getenv\(\s*["'](?:home|userprofile)["']\s*\)|os\.homedir\(\)|os\.userhomedir\(\)|process\.env\.(?:home|userprofile)|["']?\$\{?home\}?/?["']?|~/?|dir\.home|env\[\s*["']home["']\s*\]|\$env:userprofile)\s*;?\s*$`)
	// deleteSink: a recursive delete of a path held in a variable.
	deleteSink = lazyRE(`(?:shutil\.rmtree|fs\.(?:rmsync|rmdirsync|rm|rmdir|remove|removesync)|fs\.promises\.rm|fileutils\.(?:rm_rf|rm_r|remove_dir)|os\.removeall|fse?\.remove)\s*\(\s*([a-z_][a-z0-9_]*)\s*[,)]`,
		`\brm\s+(?:-\S+\s+)*-[a-z]*r[a-z]*\s+(?:-\S+\s+)*["']?\$\{?([a-z_][a-z0-9_]*)\}?/?\*?["']?(?:\s|;|$)`,
		`\bremove-item\s+(?:-path\s+)?\$([a-z_][a-z0-9_]*)\b[^\n]*-recurse`)
	// notSecretName: a variable that names or locates something (an id, a
	// URL, a path) rather than holding a secret: SESSION_ID, AUTH_URL.
	// The shell's PWD is a folder and MAX_TOKENS a count of words.
	notSecretName = lazyRE(`(?:_ids?|_url|_uri|_name|_path|_dir|_file|_host|_port|_region|_endpoint|_version|_type|_mode|_domain|_user(?:name)?|tokens)$|^(?:old)?pwd$`)
	// presenceCheck: asking whether a variable is set.
	presenceCheck = lazyRE(`\bbool\(\s*os\.(?:getenv|environ\.get)\([^)]*\)\s*\)|!!\s*process\.env\.[a-z0-9_]+|["'][a-z0-9_]+["']\s+(?:not\s+)?in\s+(?:os\.environ|process\.env)\b`)
	// stdinUpload: a network command that sends what it reads on its input.
	stdinUpload = lazyRE(`@-|(?:-t|--upload-file)\s+-(?:\s|$)|--data-binary\s+@/dev/stdin|(?:^|\s)(?:nc|ncat|netcat|telnet|socat)\s`)
	// encodeStage: a pipeline stage that encodes what passes through.
	encodeStage = lazyRE(`^\s*(?:base64|base32|basenc|xxd|od|gzip|openssl\s+(?:enc|base64))\b`)
	// labelledSecret: "token=$X" and the like: a variable sent under a
	// secret's name.
	labelledSecret = lazyRE(`(?:credential|token|secret|passw\w*|api_?key|private_?key|cookie|session)s?["']?\s*[=:]\s*["']?\$\{?[a-z_]`)
	// dbSecret: connection strings hold passwords.
	dbSecret = lazyRE(`^(?:database_url|db_url|dsn|[a-z0-9]+_dsn|connection_string|conn_str|mongo(?:db)?_uri|redis_url|postgres_url)$`)
)

// flows runs the flow detector over a file: a script as one unit, a
// document's fenced code blocks each as one.
func (sc *skillScan) flows(f *fileState, lines, lower []string, ctxs []lineCtx) {
	switch f.kind {
	case kindScript:
		sc.flowUnit(f, lines, lower, 0, CtxScript)
	case kindSkillFile, kindDoc:
		for i := 0; i < len(lines); {
			if ctxs[i] != lcCode && ctxs[i] != lcDocCode {
				i++
				continue
			}
			j := i
			for j < len(lines) && ctxs[j] == ctxs[i] {
				j++
			}
			sc.flowUnit(f, lines[i:j], lower[i:j], i, ctxs[i].context())
			i = j
		}
	}
}

// Literals the expressions of evalExpr need, to skip them cheaply.
var (
	credentialLits = []string{".ssh", ".aws", ".gnupg", ".kube", ".docker", "credentials", ".config", ".terraform", ".vault",
		".pgpass", ".s3cfg", ".netrc", ".npmrc", ".pypirc", ".env", ".boto", "my.cnf", "chrome", "chromium", "brave", "edge", "opera",
		"vivaldi", "yandex", "firefox", "mozilla", "logins", "key3", "key4", "cookies", "signons", "wallet", "electrum", "exodus",
		"bitcoin", "ethereum", "solana", "nkbih", "bfnael", "hnfank", "keystore", "ledger", "atomic", "security", "keychain", "/etc/",
		"find ", ".azure"}
	decodeWords  = []string{"decode", "atob", "fromhex", "unhexlify", "-d", "xxd", "tostring"}
	remoteWords  = []string{"requests", "httpx", "session", "urlopen", "text(", "net::http", "open-uri", "downloadstring", "invoke-", "curl", "wget", "then("}
	elementWords = []string{"[", ".", "<<"}
	loopWords    = []string{"for", "each", "map", "filter", "select", "items"}
)

// urlMatches returns the URLs of s as urlHost's submatches.
func urlMatches(s string) [][]string {
	if !strings.Contains(s, "://") {
		return nil
	}
	return urlHost().FindAllStringSubmatch(s, -1)
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// sourceLits: a statement without one of these reads no secret, no
// credential file, no environment, nothing decoded or downloaded.
var sourceLits = []string{"env", "$", "key", "token", "secret", "passw", "pwd", "auth", "session", "cookie", "_pat", "dsn", "_url",
	"_uri", "credential", ".ssh", ".aws", ".gnupg", ".kube", ".docker", ".netrc", "decode", "atob", "fromhex", "unhexlify", "^",
	"xor", "xxd", "home", "~", "userprofile", "requests", "urlopen", "fetch", "http", "curl", "wget", "text(", "downloadstring",
	"invoke-", "conn", "wallet", "keychain", "keystore", "cookies", "chrome", "firefox", "/etc/", "://"}

// sinkWords: a statement without one of these sends, runs, deletes and
// serializes nothing (checked before the expressions that would say so).
var sinkWords = []string{"curl", "wget", "nc ", "ncat", "netcat", "socat", "telnet", "scp ", "ftp", "rsync", "requests", "httpx",
	"aiohttp", "urllib", "urlopen", "fetch", "axios", "got(", "needle", "superagent", "http", "faraday", "webrequest", "restmethod",
	"iwr ", "irm ", "webclient", "sendbeacon", "socket", "smtp", "dig ", "nslookup", "host ", "drill ", "gethostby", "getaddrinfo",
	"dns", "lookup", "resolv", "dumps", "stringify", "to_json", "convertto-json", "marshal", "exec", "eval", "system", "popen",
	"child_process", "iex", "invoke-expression", "rmtree", "rm ", "remove", "rm_rf", "fs.rm", "loadstring", "client.", "session.",
	"request(", ".send", "encode", "btoa", "yaml.", "pickle.", "post", "load(", "function", "%x("}

// flowGate reports whether the line rules saw a sink in lines first+1..last.
func flowGate(f *fileState, first, last int) bool {
	return slices.ContainsFunc(f.hits, func(h *hit) bool {
		return h.line > first && h.line <= last && slices.Contains(sinkHits, h.id)
	})
}

// sinkHits are the line rules' hits that mark a sink: a network send, or
// code that runs, deletes or serializes. The line rules find them through
// their trigger words at no cost to the flow detector.
var sinkHits = []string{signalNetSend, signalRunSink, ruleHTTPExfil, ruleDNSExfil, ruleExfilService, rulePipeToShell,
	ruleDownloadAndRun, ruleEvalDecoded, ruleRemoteCodeExec, ruleDestructive, ruleDecodeAndRun}

// maxStatementLines bounds a statement joined over open brackets.
const maxStatementLines = 40

// flowUnit follows values through the statements of one unit; first is
// the index of its first line in the file.
func (sc *skillScan) flowUnit(f *fileState, lines, lower []string, first int, ctx Context) {
	if !flowGate(f, first, first+len(lines)) {
		return
	}
	// The line rules found where credential stores are named; a statement
	// on one of those lines may read one.
	credLines := map[int]bool{}
	for _, h := range f.hits {
		if h.id == ruleCredentialPath || h.id == ruleCredentialRead {
			credLines[h.line] = true
		}
	}
	vars := map[string]value{}
	reported := map[string]bool{}
	for i := 0; i < len(lines); {
		// A statement runs on while brackets are open or a line ends in a
		// backslash.
		j, depth := i, 0
		var b strings.Builder
		for j < len(lines) && j-i < maxStatementLines {
			if d := bracketDepth(lower[j]); d > 0 && blockOpener().MatchString(lower[j]) {
				depth += d - 1 // a function's or a loop's body is statements, not one
			} else {
				depth += d
			}
			b.WriteString(strings.TrimSuffix(lower[j], "\\"))
			b.WriteByte(' ')
			j++
			if depth <= 0 && !strings.HasSuffix(strings.TrimRight(lower[j-1], " \t"), "\\") {
				break
			}
		}
		stmt := b.String()
		lineNo := first + i + 1
		cred := false
		for n := lineNo; n <= first+j && !cred; n++ {
			cred = credLines[n]
		}
		match := strings.TrimSpace(lines[i])
		i = j
		if strings.HasPrefix(strings.TrimSpace(stmt), "#") || strings.HasPrefix(strings.TrimSpace(stmt), "//") {
			continue
		}
		if !cred && !containsAny(stmt, sourceLits) && !slices.ContainsFunc(slices.Collect(maps.Keys(vars)), func(n string) bool { return mentions(stmt, n) }) {
			// Nothing is read or carried here: at most a variable is given
			// a clean value, which it no longer carries anything.
			if len(vars) > 0 && strings.Contains(stmt, "=") {
				if m := assignment().FindStringSubmatch(stmt); m != nil {
					delete(vars, m[1])
				}
			}
			continue
		}
		v := evalExpr(stmt, vars, cred)
		sc.flowSinks(f, stmt, v, vars, cred, ctx, lineNo, match, reported)
		var m []string
		if strings.Contains(stmt, "=") {
			m = assignment().FindStringSubmatch(stmt)
		}
		switch {
		case m != nil:
			rhs := evalExpr(m[2], vars, cred)
			if homeExpr().MatchString(m[2]) {
				rhs.t |= tHome
			}
			if strings.Contains(stmt[:len(stmt)-len(m[2])], "+=") {
				old := vars[m[1]]
				old.add(rhs)
				rhs = old
			}
			if rhs.t == 0 && len(rhs.hosts) == 0 {
				delete(vars, m[1]) // only what carries something is followed
			} else {
				vars[m[1]] = rhs
			}
		default:
			// x[k] = v, x.append(v): the container carries what goes in.
			if !containsAny(stmt, elementWords) {
				break
			}
			if name, what := pair(element().FindStringSubmatch(stmt)); name != "" {
				if v := evalExpr(what, vars, cred); v.t != 0 || len(v.hosts) > 0 {
					old := vars[name]
					old.add(v)
					vars[name] = old
				}
			}
		}
		if !containsAny(stmt, loopWords) {
			continue
		}
		if m := loopHead().FindStringSubmatch(stmt); m != nil {
			names, iter := m[1], m[2]
			if names == "" {
				names, iter = m[4], m[3] // list.each do |x|: the iterable comes first
			}
			it := evalExpr(iter, vars, cred)
			it.t &^= tHome
			if it.t == 0 {
				continue
			}
			for _, n := range strings.FieldsFunc(names, func(r rune) bool { return !(r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
				if n != "const" && n != "let" && n != "var" && n != "my" {
					old := vars[n]
					old.add(it)
					vars[n] = old
				}
			}
		}
	}
}

// pair returns the two groups of the alternative that matched, in an
// expression whose alternatives have two groups each.
func pair(m []string) (string, string) {
	for i := 1; i+1 < len(m); i += 2 {
		if m[i] != "" {
			return m[i], m[i+1]
		}
	}
	return "", ""
}

// bracketDepth is how many brackets a line leaves open (negative when it
// closes more than it opens), counting outside of quotes and before a
// comment.
func bracketDepth(s string) int {
	d := 0
	unquoted(s, "\"'`", func(i int, c byte) bool {
		switch {
		case c == '#' && (i == 0 || s[i-1] == ' '):
			return false // a comment
		case c == '(' || c == '[' || c == '{':
			d++
		case c == ')' || c == ']' || c == '}':
			d--
		}
		return true
	})
	return d
}

// unquoted calls yield with each byte of s outside the quotes named in
// quotes (a backslash escapes inside them), until yield returns false.
func unquoted(s, quotes string, yield func(i int, c byte) bool) {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case strings.IndexByte(quotes, c) >= 0:
			quote = c
		case !yield(i, c):
			return
		}
	}
}

// evalExpr is what an expression carries: the secrets it reads directly
// and through the variables it names.
func evalExpr(s string, vars map[string]value, cred bool) value {
	var v value
	if strings.Contains(s, "bool(") || strings.Contains(s, "!!") || strings.Contains(s, " in ") {
		s = presenceCheck().ReplaceAllString(s, " ") // whether a key is set is not the key
	}
	for _, name := range envNames(s) {
		if secretName().MatchString(name) && !notSecretName().MatchString(name) || dbSecret().MatchString(name) {
			v.t |= tSecret
			if !slices.Contains(v.secrets, name) {
				v.secrets = append(v.secrets, name)
			}
		}
	}
	for _, m := range secretRef().FindAllString(s, -1) {
		name := strings.TrimLeft(m, "$({")
		if notSecretName().MatchString(name) {
			continue
		}
		if !slices.Contains(v.secrets, name) {
			v.t |= tSecret
			v.secrets = append(v.secrets, name)
		}
	}
	if strings.Contains(s, "$") && labelledSecret().MatchString(s) {
		v.t |= tSecret
	}
	if cred && containsAny(s, credentialLits) && credentialPath().MatchString(s) || strings.Contains(s, ".env") && envFileRead().MatchString(s) {
		v.t |= tCred
	}
	if (strings.Contains(s, "env") || strings.Contains(s, "set")) && wholeEnv().MatchString(s) {
		v.t |= tEnvAll
	}
	if containsAny(s, decodeWords) && decodes().MatchString(s) || (strings.Contains(s, "^") || strings.Contains(s, "xor")) && xorDecode().MatchString(s) {
		v.t |= tDecoded
	}
	if containsAny(s, remoteWords) && remoteRead().MatchString(s) {
		v.t |= tRemote
	}
	for _, m := range urlMatches(s) {
		h := strings.Trim(m[2], "[].")
		if !slices.Contains(v.hosts, h) {
			v.hosts = append(v.hosts, h)
		}
	}
	for name, vv := range vars {
		if mentions(s, name) {
			vv.t &^= tHome // a path under the home folder is not the folder
			v.add(vv)
		}
	}
	return v
}

// mentions reports whether s names variable name as a whole word.
func mentions(s, name string) bool {
	if name == "" {
		return false
	}
	for off := 0; ; {
		i := strings.Index(s[off:], name)
		if i < 0 {
			return false
		}
		i += off
		end := i + len(name)
		if (i == 0 || !wordByte(s[i-1])) && (end == len(s) || !wordByte(s[end])) {
			return true
		}
		off = end
	}
}

// flowSinks reports what a statement sends: v is what the whole statement
// carries.
func (sc *skillScan) flowSinks(f *fileState, stmt string, v value, vars map[string]value, cred bool, ctx Context, lineNo int, match string, reported map[string]bool) {
	if v.t == 0 && !strings.Contains(stmt, "|") && len(vars) == 0 || !containsAny(stmt, sinkWords) {
		return // nothing carried, or nowhere to send it
	}
	report := func(id string, sev Severity, msg string) {
		if reported[id] {
			return // one of each per unit: the first is the one to read
		}
		reported[id] = true
		if f.kind == kindDoc {
			sev-- // a document describes; SKILL.md's code is what the model runs
			if sc.attackDocs {
				sev--
			}
		}
		if f.minified && sev > High {
			sev = High // see unreviewable
		}
		if sev < Low {
			return
		}
		sc.add(Finding{Rule: id, Severity: sev, File: f.path, Line: lineNo, Context: ctx, Match: snippet(match, 0, len(match)), Message: msg})
	}
	if v.t&tSecret != 0 && serialize().MatchString(stmt) && !netSink().MatchString(stmt) {
		var undeclared []string
		vendors := map[string]bool{}
		for _, s := range v.secrets {
			if !sc.declared[s] {
				undeclared = append(undeclared, s)
				vendors[strings.SplitN(strings.TrimLeft(s, "_"), "_", 2)[0]] = true
			}
		}
		if len(vendors) >= 2 {
			report(ruleSecretHarvest, High, fmt.Sprintf("gathers secrets of different services (%s) into one payload", upperJoin(undeclared)))
		}
	}
	if v.t&(tDecoded|tRemote) != 0 && execSink().MatchString(stmt) {
		if v.t&tRemote != 0 {
			report(ruleRemoteCodeExec, Critical, "runs what it downloaded, so the server decides what runs")
		} else {
			report(ruleEvalDecoded, Critical, "runs code or a command it first decodes, so a reader never sees it")
		}
	}
	if m := deleteSink().FindStringSubmatch(stmt); m != nil {
		for _, name := range m[1:] {
			if name != "" && vars[name].t&tHome != 0 {
				report(ruleDestructive, Critical, "deletes the whole home folder, held in a variable")
			}
		}
	}
	isDNS := lookup(stmt)
	if !isDNS && !netSink().MatchString(stmt) {
		return
	}
	payload := sc.payload(stmt, vars, cred)
	if payload.t&(tSecret|tCred|tEnvAll|tDecoded) == 0 {
		return
	}
	hosts := payload.hosts
	if len(hosts) == 0 {
		hosts = v.hosts
	}
	switch {
	case payload.t&tDecoded != 0 && len(urlHost().FindAllString(stmt, 1)) == 0 && payload.t&(tSecret|tCred|tEnvAll) == 0:
		report(ruleHiddenEndpoint, High, "sends to an address it decodes at run time, so no reader sees where the data goes")
		return
	case payload.t&(tSecret|tCred|tEnvAll) == 0:
		return
	}
	what, sev := sc.weighFlow(payload, hosts, isDNS)
	if sev == 0 {
		return
	}
	where := "over the network"
	if isDNS {
		where = "in a DNS name, which carries it past firewalls to whoever runs the domain"
	}
	n := len(sc.findings)
	report(ruleSecretFlow, sev, fmt.Sprintf("sends %s %s", what, where))
	if len(sc.findings) > n && sev == Critical && payload.t&(tCred|tEnvAll) == 0 && !isDNS && len(hosts) > 0 &&
		!slices.ContainsFunc(hosts, suspiciousHost) {
		// Secrets to named hosts that are not the skill's own by its
		// declarations: whether its documents' prose presents them as its
		// service is known only when every file is read (finish).
		sc.documented = append(sc.documented, documentedFlow{finding: len(sc.findings) - 1, hosts: hosts})
	}
}

// documentedFlow is a secret-flow finding that weighs one step less when
// every host it sends to is named in the prose of the skill's documents.
type documentedFlow struct {
	finding int // index in the scan's findings
	hosts   []string
}

// lowerDocumented lowers the secret flows to hosts the skill's prose names
// (its description, homepage, the text of its documents around the code) to
// high: a client sending its key to the service it documents. It stays a
// caution, since an attack can name its collector in prose too.
func (sc *skillScan) lowerDocumented() {
	for _, d := range sc.documented {
		if !slices.ContainsFunc(d.hosts, func(h string) bool { return !sc.proseHosts[h] }) {
			f := &sc.findings[d.finding]
			f.Severity = min(f.Severity, High)
			f.Message += ", to a host its documents name"
		}
	}
}

// lookup reports whether a statement looks up a name: dnsSink, except a
// word such as "host" that is an option's value (jq --arg host "$H") or a
// key, not a command.
func lookup(stmt string) bool {
	for _, m := range dnsSink().FindAllStringIndex(stmt, -1) {
		before := strings.Fields(stmt[:m[0]+1])
		if len(before) == 0 || !strings.HasPrefix(before[len(before)-1], "-") {
			return true
		}
	}
	return false
}

// payload is what a network statement sends, leaving out where a
// credential authenticates the request (headers, basic auth) and, in a
// shell pipeline, taking what earlier stages feed a command that uploads
// its input.
func (sc *skillScan) payload(stmt string, vars map[string]value, cred bool) value {
	stages := pipeStages(stmt)
	var v value
	for k, st := range stages {
		if !netSink().MatchString(st) && !lookup(st) {
			continue
		}
		v.add(evalExpr(authPart().ReplaceAllString(st, " "), vars, cred))
		if k > 0 && stdinUpload().MatchString(st) {
			for _, prev := range stages[:k] {
				v.add(evalExpr(prev, vars, cred))
			}
			if slices.ContainsFunc(stages[1:k], func(s string) bool { return encodeStage().MatchString(s) }) {
				v.t |= tSecret // what is encoded before it leaves is meant not to be read on the way
				if len(v.secrets) == 0 {
					v.secrets = append(v.secrets, "encoded input")
				}
			}
		}
	}
	return v
}

// pipeStages splits a shell statement at the pipes outside quotes,
// brackets and command substitutions.
func pipeStages(s string) []string {
	var out []string
	depth, start, skip := 0, 0, -1
	unquoted(s, "\"'", func(i int, c byte) bool {
		switch {
		case i == skip:
		case c == '(' || c == '{' || c == '[':
			depth++
		case c == ')' || c == '}' || c == ']':
			depth--
		case c == '|' && depth <= 0:
			if i+1 < len(s) && s[i+1] == '|' {
				skip = i + 1 // ||, not a pipe
				return true
			}
			out = append(out, s[start:i])
			start = i + 1
		}
		return true
	})
	return append(out, s[start:])
}

// weighFlow decides how bad a payload is, from what it carries and where it
// goes. A secret the skill declares, sent to a host it declares in
// permissions.network or names as its service, is what an API skill does;
// a secret sent to its own vendor's host without a declaration needs a
// reader; anything else carrying secrets out is dangerous.
func (sc *skillScan) weighFlow(p value, hosts []string, dns bool) (string, Severity) {
	switch {
	case p.t&tCred != 0:
		return "the contents of a credential or .env file", Critical
	case p.t&tEnvAll != 0:
		return "the whole environment, secrets included", Critical
	}
	names := upperJoin(p.secrets)
	what := "secrets (" + names + ")"
	if names == "" || names == "ENCODED INPUT" {
		what = "a secret, encoded on the way"
		if names == "" {
			what = "a value labelled as a secret"
		}
	}
	if dns {
		return what, Critical
	}
	declared := len(p.secrets) > 0 && !slices.ContainsFunc(p.secrets, func(s string) bool { return !sc.declared[s] })
	own := len(hosts) > 0 && !slices.ContainsFunc(hosts, func(h string) bool { return !sc.ownHost(h, p.secrets) })
	switch {
	case declared && own:
		return what, 0
	case own:
		return what, Medium
	case slices.ContainsFunc(hosts, suspiciousHost):
		return what, Critical // an IP address or a collection service is nobody's API
	case len(hosts) == 0 && declared:
		// The address comes from a variable the unit does not set (the
		// environment, a config file, an argument): the skill's own
		// configured service, as far as anything shows.
		return what + " to an address set outside this code", Medium
	case len(hosts) == 0:
		return what + " to an address set outside this code", High
	case declared:
		return what, High
	}
	return what, Critical
}

// ownHost reports whether host is the skill's own service: local, allowed
// by permissions.network, named in the skill's description, or the vendor
// a secret's name starts with (OPENAI_API_KEY and api.openai.com).
func (sc *skillScan) ownHost(host string, secrets []string) bool {
	if classifyURL("https", host, "") == destLocal {
		return true
	}
	if sc.allowedHost(host) {
		return true
	}
	label := registrableLabel(host)
	if len(label) < 4 {
		return false
	}
	if sc.s != nil && strings.Contains(lowerASCII(sc.s.Description), label) {
		return true
	}
	for _, s := range secrets {
		// OPENAI_API_KEY and api.openai.com; GOOGLE_CLIENT_SECRET and
		// oauth2.googleapis.com (the vendor's name begins the label).
		vendor, _, _ := strings.Cut(strings.TrimLeft(s, "_"), "_")
		if strings.HasPrefix(strings.ReplaceAll(s, "_", ""), label) || len(vendor) >= 4 && strings.HasPrefix(label, vendor) {
			return true
		}
	}
	return false
}

// allowedHost reports whether permissions.network in skill.config.yaml
// allows host.
func (sc *skillScan) allowedHost(host string) bool {
	if sc.s == nil || sc.s.Config == nil {
		return false
	}
	n := sc.s.Config.Permissions.Network
	if n.All {
		return true
	}
	for _, h := range n.Hosts {
		h = strings.TrimSuffix(strings.Split(h, ":")[0], ".")
		if h == host || strings.HasPrefix(h, "*.") && strings.HasSuffix(host, h[1:]) {
			return true
		}
	}
	return false
}

// registrableLabel is the label of host just under its public suffix, as
// far as a scan without a suffix list can tell: "openai" for
// api.openai.com, "co" is skipped in "api.example.co.uk".
func registrableLabel(host string) string {
	parts := strings.Split(host, ".")
	for i := len(parts) - 2; i >= 0; i-- {
		if l := parts[i]; len(l) > 3 || i == 0 || !slices.Contains([]string{"co", "com", "net", "org", "gov", "ac", "edu"}, l) {
			return l
		}
	}
	return host
}

func upperJoin(names []string) string {
	up := make([]string, len(names))
	for i, n := range names {
		up[i] = strings.ToUpper(n)
	}
	return strings.Join(up, ", ")
}
