// Package scan checks a skill for attacks before a model or a process can
// reach it: prompt injection, hidden text, credential theft, exfiltration,
// reverse shells, destructive and privilege-raising commands, persistence,
// obfuscated payloads, miners, executables and suspicious dependencies. It
// reads files and matches rules; it runs nothing, uses no network and asks
// no model, so a scan takes milliseconds.
//
// # Contract
//
// [Skill] scans the skill in a folder of an [io/fs.FS]; [Loaded] scans a
// loaded *skill.Skill (through an [os.Root] when it is on disk). Both
// return a [Report]: the skill's name and path, a [Verdict] and the
// [Finding]s, sorted by file, line and rule, one per rule and line. Each
// finding has a stable rule id, a [Severity], the file (a slash path in the
// skill), the line (0 for a whole file), the matched text shortened to 120
// characters on one line with control and hidden characters made visible,
// a message and the [Context] it was found in. The error is only for a
// folder that cannot be listed ([ErrNotFolder]) or a context that ends; a
// file that cannot be read is a finding (read-error), so that making a file
// unreadable hides nothing.
//
// The verdict is the worst severity: a Critical finding makes the skill
// Dangerous, a High one Caution; Medium and Low findings are for a reader
// and leave it Safe. Critical is kept for patterns that are almost never
// benign (a reverse shell, decoding and running hidden text, a credential
// file sent out, text spelled in Unicode tag characters); High for what
// needs a person to look (a download piped into a shell from a named host,
// a typosquatted dependency).
//
// [Policy] turns a [Trust] level and a verdict into a [Decision]: allow,
// ask or block. [DefaultPolicy] is the table hosts start from; [TrustOf]
// derives the trust of an installed skill from its registry.Record and the
// host's trusted origins. [Checker] reports a loaded skill's findings as
// diagnostics (SCAN_FINDING, UNICODE_HIDDEN) for loader.Options.Checkers, so
// Doctor shows them; it has the method set of loader.Checker without
// importing loader.
//
// # What is read
//
// Every regular file of the skill folder, in sorted order with SKILL.md
// first, except what is inside .git, node_modules, .venv, __pycache__ and
// .skillhub (skill.InfraDirs). Symbolic links are not followed: one that
// leads outside the folder is a finding (symlink-escape, Critical when it
// names a credential store). A file is text unless its first 8 KiB hold a
// NUL byte; text with a UTF-16 byte order mark is decoded; invalid UTF-8 is
// still text (a shell runs it). Binary files are checked for executable,
// bytecode and archive signatures only.
//
// Each file is given a kind, which sets the [Context] of its lines: SKILL.md
// (frontmatter, prose instructions, code in fences and backticks, HTML
// comments), other documents (.md, .txt, .rst, .html, ...), scripts (by
// extension, a #! line, or named as entrypoint or setup script in
// skill.config.yaml), install-time configuration (skill.config.yaml,
// package.json, requirements*.txt, pyproject.toml, .npmrc, ...) and data
// (everything else, assets included). Prose is read a paragraph at a time
// (a sentence wrapped over lines is one), a command continued with a
// trailing backslash as one line.
//
// # Weighing
//
// A rule has a base severity and a kind that says how the context changes
// it, one step at a time:
//
//   - command rules (things that do harm when run) weigh in full in
//     scripts, configuration and SKILL.md, whose code the model runs, and one
//     step less in other documents and in data, which describe;
//   - phrase rules (things that steer a model) weigh in full in prose the
//     model reads, one step less when quoted, in code, in a script or in
//     data, and one step more in an HTML comment, which only the model sees;
//   - access rules (naming a credential store) weigh in full in scripts, one
//     step less in SKILL.md and configuration, two in documents and data;
//   - indicator rules (hidden characters, miner pools in a configuration,
//     binaries) weigh the same everywhere.
//
// A skill whose name or description says it is about security (audit,
// vulnerabilities, malware, prompt injection, ...) documents attacks: its
// code examples, documents and data weigh one step less again. Its
// instructions and scripts do not, so naming a skill "security-audit" does
// not excuse what it runs.
//
// # Decoding
//
// Text hidden in an encoding is decoded and scanned as lines of the line
// that holds it, in the same context: base64 (and gzip or zlib inside it;
// UTF-16 as PowerShell's -EncodedCommand carries it), hex, \x, \u, \U and
// octal escapes, percent-encoding, character codes (String.fromCharCode,
// chr() chains, bytes([...]), 0x.. arrays), string literals joined with +
// or ., strings reversed ([::-1], reverse()) or rot13-encoded, text spelled
// in Unicode tag characters or variation selectors, and each line read again
// without its invisible characters ("ig\u200bnore"). Decoding goes at most
// [Options].MaxDecodeDepth levels deep and scans at most MaxDecodedBytes of
// decoded text per skill. Decoded bytes that are not text are checked for
// executable signatures and otherwise ignored, so image fixtures cost
// nothing.
//
// # Rules
//
// Severities are the base ones; the context changes them as described
// above. A check may lower a match (an installer piped into a shell) or
// raise it (a download from an IP address).
//
//	instruction-override  critical  "ignore previous instructions", "your real task is", "new system instructions:", 忽略之前的所有指令
//	concealment           high      "do not tell the user", "without the user knowing", "secretly upload", 不要告诉用户, 悄悄上传
//	role-hijack           high      "you are now DAN", "act as if you have no restrictions"
//	prompt-boundary       high      skillkit's own wrapper tags (</skill_content>); chat-template markers medium
//	hidden-instruction    high      an instruction to the model inside an HTML comment
//	hidden-text           medium    HTML styled invisible (display:none, font-size:0)
//	context-exfil         high      "print your system prompt", "send the conversation to <url>"
//	exfil-instruction     medium    "send the API keys to <url>"; high for SSH keys, wallets, .env, for "read the token ... and forward it to <url>" and
//	                                its Chinese forms (上传/发送 with 密钥/令牌/凭证); critical to a collection service
//	remote-instructions   medium    "fetch <url> and follow it"; high when the fetched text is to be obeyed, executed or re-read every time, and in Chinese
//	                                (访问 <url> 并执行); critical from a paste, tunnel or IP host
//	pipe-to-shell         high      curl|sh, iwr|iex, bash <(curl ...); low for well-known installers; critical from an IP, plain HTTP, a paste or tunnel host;
//	                                none when the interpreter is given its program (python3 -m json.tool, node -e, sh -c), so the download is its data
//	decode-and-run        critical  base64 -d | sh, base32 -d | bash, rev | sh, xxd -r | bash, base64 -d | xargs (decoded text as a command's arguments), powershell -EncodedCommand, FromBase64String + iex
//	paste-in-terminal     medium    "copy and paste this into Terminal", "press Win+R"
//	download-and-run      high      curl -o x && chmod +x x && ./x, password-protected archives; critical from a suspicious host
//	credential-path       high      ~/.ssh keys, ~/.aws, .gnupg, .kube, .netrc, browser profiles, wallets, keychains, paths joined from segments
//	                                (".ssh", "id_rsa") (access kind)
//	credential-read       high      the same, read: cat, open(), copy, find -name id_rsa, security find-generic-password
//	credential-dump       critical  mimikatz, lsass dumps, reg save hklm\sam, LaZagne
//	env-dump              medium    the whole environment: printenv, env |, json.dumps(os.environ), JSON.stringify(process.env)
//	exfil-service         high      webhook.site, requestbin, pipedream, interactsh/oast, ngrok, transfer.sh, pastebin; medium for Discord and Telegram webhooks
//	dns-exfil             high      a DNS lookup of a name built at run time; critical with command substitution or encoding
//	http-exfil            high      curl -F @file, $(whoami) in a request; critical for credential files, the environment, history
//	encoded-transfer      high      base64 -d of a literal or a hidden file around curl/wget, a download then decoded, a listener's input decoded
//	reverse-shell         critical  bash -i >& /dev/tcp, nc -e, mkfifo|nc, nc -l | sh (a bind shell), socat exec:, os.dup2(s.fileno()), PowerShell TCPClient + iex
//	tunnel                medium    ngrok, cloudflared tunnel, ssh -R, chisel
//	remote-code-exec      critical  exec(requests.get(...).text), eval(fetch), pickle.loads of a download, mshta/regsvr32/certutil
//	eval-decoded          critical  exec(base64.b64decode(...)), eval(atob(...)), eval(base64_decode(...)), iex + GzipStream, exec(open("/tmp/.x").read())
//	string-reassembly     high      chr() chains, getattr(__builtins__, ...), a sensitive name split into joined pieces
//	destructive-command   critical  rm -rf ~ or /, mkfs, dd of=/dev/sd*, fork bomb, shutil.rmtree(home), vssadmin delete shadows
//	anti-forensics        high      history -c, unset HISTFILE, wevtutil cl, removing or truncating anything under /var/log, journalctl --vacuum
//	tamper-agent-config   high      writing AGENTS.md, CLAUDE.md, MEMORY.md, SOUL.md, .cursorrules, ~/.claude, other skills' SKILL.md, /etc/hosts; medium as prose
//	permission-change     high      a file made writable by every user (chmod 777, o+w, 0o666), sudo chown/chgrp/chmod, chown to root
//	privilege-escalation  critical  sudoers, NOPASSWD, setuid bits, setcap cap_setuid, ld.so.preload, disabling Defender; high for usermod -aG docker, --privileged, pkexec
//	persistence           high      crontab, launch agents, systemd units, Run keys, schtasks, git hooks and core.hooksPath; critical for authorized_keys and
//	                                payloads; medium for PATH lines in shell rc files
//	crypto-miner          critical  stratum+tcp://, xmrig and other miners, mining pools, --donate-level
//	encoded-blob          medium    a base64 blob over 1,000 characters or a hex blob over 512 digits in a script, SKILL.md or config
//	executable-binary     high      an ELF, PE or Mach-O file; critical when hidden in an encoding
//	archive-or-bytecode   medium    ZIP (not Office documents), 7z, RAR, compressed files, Java classes, WebAssembly, .pyc; high for a password-protected ZIP
//	unicode-tag           critical  Unicode tag characters (U+E0000-U+E007F) outside an emoji flag; the text they spell is shown and scanned
//	unicode-smuggling     critical  eight or more invisible characters or variation selectors on one line (a hidden message); decoded when it is bytes
//	unicode-bidi          high      bidirectional overrides, embeddings and isolates; critical in scripts and config (Trojan Source); low for stray direction marks
//	unicode-invisible     medium    zero-width and other invisible characters, stray variation selectors
//	control-char          medium    C0 and C1 control characters, terminal escape sequences
//	dep-typosquat         high      a dependency one edit, a separator or a look-alike glyph away from a popular package; critical for names used by published malware;
//	                                in a command (npx, pip install, uvx, ...) a slip of the keys (two letters swapped, one dropped or doubled inside)
//	name-typosquat        high      the skill's name one slip from a widely installed skill's (names/skills.txt), or holding a misspelled word (names/words.txt)
//	dep-url               medium    a dependency from a URL, a git repository or outside the skill; high over plain HTTP or from an IP
//	dep-confusion         high      --extra-index-url, --trusted-host, a version pin of 90 and up, an npm registry over plain HTTP, a skill that says its
//	                                packages come from a private registry and installs one by bare name, an .npmrc that points a popular public
//	                                scope (@babel, @modelcontextprotocol, ...) at another registry; medium for another index or registry,
//	                                internal-looking names
//	install-hook          medium    package.json preinstall, install, postinstall and prepare scripts
//	symlink-escape        high      a symbolic link leading outside the skill; critical to a credential store
//	unreviewable          high      a minified script (32 KB or more, lines of 1,000 bytes on average): findings in it are held to high
//	read-error            medium    a file that cannot be listed or read
//	scan-limit            high      a script, config or SKILL.md cut by MaxFileBytes, files past MaxTotalBytes or MaxFiles; low for other files
//
// Combinations, made from what the rules saw in one file or in the skill:
//
//	exfil-credentials     critical  a script or SKILL.md that reads a credential store and talks to the network
//	exfil-env             critical  one that reads the whole environment and talks to the network on the same line, or where a flow was
//	                                followed; high when only the file joins them
//	secret-exfil          medium    a script that reads secret-looking variables the skill does not declare and sends to hosts its documents do not name
//	                                (a correlation: secret-flow reports the flow); low when the variables are declared; critical to an IP, a paste,
//	                                tunnel or capture service (not a chat bot or webhook) or a computed DNS name
//	secret-flow           critical  a secret, credential file or the whole environment followed through variables, string building and
//	                                encoding into a request's payload or a DNS name (see Flows); less for declared secrets and own hosts
//	secret-harvest        high      secrets of two or more services gathered and serialized into one payload (json.dumps, JSON.stringify)
//	hidden-endpoint       high      a request to an address decoded at run time
//	fake-prerequisite     critical  SKILL.md presents a download-and-run or an encoded command as a setup step ("Prerequisites", "paste into Terminal")
//	undeclared-host       high      a script, in a skill whose skill.config.yaml lists the hosts it may reach (permissions.network), that sends
//	                                to another host: what it does is not what it declares
//	concealed-action      critical  an instruction to hide something from the user, in a skill that does something risky; high when both are medium
//
// A script that reads its own declared variable and sends it to a host its
// documents name is what an API skill does: no finding.
//
// # Flows
//
// A script, and each fenced code block of SKILL.md and other documents, is
// read as statements (joined over open brackets and trailing backslashes),
// and what each value carries is followed through plain assignments in
// shell, Python, JavaScript, PowerShell, Ruby, Lua and Go: a secret-looking
// environment variable (or one sent under a secret's label, "token=$X"), a
// credential or .env file's contents, the whole environment, text decoded
// at run time. A statement that sends over the network or looks up a DNS
// name reports what its payload carries; where a request authenticates
// (headers, basic auth) is not its payload, since that is what a key is
// for, and in a shell pipeline what earlier stages feed a command that
// uploads its input is. The weight depends on the context: a secret the
// skill declares (env in skill.config.yaml or the frontmatter, OpenClaw's
// requires.env and primaryEnv) sent to its own service (a host allowed by
// permissions.network, named in the description, or the vendor the
// variable is named after, as OPENAI_API_KEY and api.openai.com) is no
// finding; its own service without the declaration is medium; a declared
// secret to another host is high; to an address the unit never sets (the
// environment's, a config file's) medium when declared and high when not;
// to a host the prose of the skill's documents names (not their code)
// high; to an IP address or a collection service, and a credential file,
// the whole environment and any DNS name, critical, as is anything else.
// In other documents a flow weighs one step less.
//
// A command in a script's string literal that the line keeps as data (a
// deny-list, a rule table, a regular expression, a test's input) weighs at
// most medium, unless the line also runs something or a shell would
// substitute it.
//
// # Limits
//
// [Options] bound the work; nil or zero means the default, never
// "unlimited": 1 MiB read per file, 32 MiB per skill, 10,000 files, 3
// levels of decoding, 1 MiB of decoded text. Rules run on windows of 4 KiB
// (overlapping by 512 bytes) of very long lines, and each window at most
// eight times per pattern, so a hostile file costs time linear in its size.
// What a limit leaves out is a scan-limit finding, never silence.
//
// # Out of reach
//
// The scan is static and offline. It does not run code; the flow
// detector follows values through plain assignments, containers and loops
// within one script or code block, not through functions, imports, other
// files or a program's control flow, so a payload passed through a helper
// function, fetched at run time, or encrypted with a key the skill holds
// is not seen, and a URL built from pieces is not classified. It does not open archives. Prompt
// injection is matched by phrasing in English and Chinese; a paraphrase,
// another language or an image can carry one unseen. A phrase is not an
// order when its sentence negates it ("never", 不要) or describes it
// ("attackers may ...", "such as", "flag ..."). Typosquatting is judged
// against embedded lists of popular PyPI and npm names (names/*.txt) and
// names of published malware: whether a name exists on a registry, who owns
// it, its age, downloads and versions, and whether a private package of
// the same name exists in the host's own registry (the heart of dependency
// confusion) cannot be known offline, so those findings are High, for a
// person to check, unless another rule sees the payload. Transitive
// dependencies and lock files are not resolved. Findings are heuristics: a
// Safe verdict lowers risk and proves nothing; run untrusted code in
// executor.SandboxRunner all the same.
//
// # Why this shape
//
// The brief's suggested signature is kept: Skill(ctx, fsys, dir, opts) and
// a Report of Findings. Loaded is added because the install core and the
// loader hold a *skill.Skill, and a skill on disk must be read through
// os.Root. Findings carry a Context so a reader sees why a match weighs
// what it does. The checker is a struct with a Check method rather than a
// function so that its limits travel with it and scan needs no loader
// import.
package scan
