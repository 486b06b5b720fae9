package scan

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/skillkit-go/skillkit/internal/lazyregexp"
)

// Rule ids of the rule table. The package documentation lists every rule,
// with its severity and where it weighs less.
const (
	ruleInstructionOverride = "instruction-override"
	ruleConcealment         = "concealment"
	ruleRoleHijack          = "role-hijack"
	rulePromptBoundary      = "prompt-boundary"
	ruleHiddenInstruction   = "hidden-instruction"
	ruleHiddenText          = "hidden-text"
	ruleContextExfil        = "context-exfil"
	ruleExfilInstruction    = "exfil-instruction"
	rulePipeToShell         = "pipe-to-shell"
	ruleDecodeAndRun        = "decode-and-run"
	rulePasteInTerminal     = "paste-in-terminal"
	ruleDownloadAndRun      = "download-and-run"
	ruleCredentialPath      = "credential-path"
	ruleCredentialRead      = "credential-read"
	ruleCredentialDump      = "credential-dump"
	ruleEnvDump             = "env-dump"
	ruleExfilService        = "exfil-service"
	ruleDNSExfil            = "dns-exfil"
	ruleHTTPExfil           = "http-exfil"
	ruleReverseShell        = "reverse-shell"
	ruleTunnel              = "tunnel"
	ruleRemoteCodeExec      = "remote-code-exec"
	ruleEvalDecoded         = "eval-decoded"
	ruleStringReassembly    = "string-reassembly"
	ruleDestructive         = "destructive-command"
	ruleAntiForensics       = "anti-forensics"
	ruleTamperAgentConfig   = "tamper-agent-config"
	rulePrivilegeEscalation = "privilege-escalation"
	rulePermissionChange    = "permission-change"
	ruleEncodedTransfer     = "encoded-transfer"
	ruleRemoteInstructions  = "remote-instructions"
	rulePersistence         = "persistence"
	ruleCryptoMiner         = "crypto-miner"

	// Signals, never reported: the combinations read them.
	signalPrerequisite = "prerequisite"
	signalNetSend      = "net-send"
	signalEnvRead      = "env-read"
	// private-registry: the skill says its packages come from a private
	// registry; pkg-install: a command installs a package by name.
	signalPrivateRegistry = "private-registry"
	signalPkgInstall      = "pkg-install"
	signalRunSink         = "run-sink"
)

// defaultRules is the rule table, built once.
var defaultRules = sync.OnceValue(func() *ruleSet { return newRuleSet(ruleTable()) })

// lazyRE compiles alternatives into one expression on first use (see
// package lazyregexp): compiled at package initialisation, the scanner's
// expressions cost every program linking the package 0.7 MB in 4,000
// allocations at start, whether it scans or not.
func lazyRE(alts ...string) func() *regexp.Regexp {
	return lazyregexp.New(strings.Join(alts, "|"))
}

// negation words: a phrase after one of them in the same sentence says the
// opposite ("never ignore previous instructions").
var negation = lazyRE(`\b(?:not|never|no|don'?t|doesn'?t|won'?t|cannot|can'?t|shouldn'?t|mustn'?t|avoid|refuse|without|neither|nor)\b`)

// notNegated rejects a phrase negated earlier in its sentence.
func notNegated(l *line, h *hit) bool {
	before := l.lower[max(l.winStart, h.start-120):h.start]
	if i := strings.LastIndexAny(before, ".!?;:"); i >= 0 {
		before = before[i+1:]
	}
	return !negation().MatchString(before)
}

// sensitiveFile matches what an upload must never carry.
var sensitiveFile = lazyRE(`\.env\b`, `_history\b`, `/etc/passwd\b`, `/etc/shadow\b`, `\.pem\b`, `\.key\b`, `\bid_rsa\b`, `\bid_ed25519\b`)

func sensitive(s string) bool {
	return credentialPath().MatchString(s) || sensitiveFile().MatchString(s)
}

// credentialPath matches the places credentials are kept.
var credentialPath = lazyRE(
	`\.ssh[/\\](?:id_[a-z0-9_]+|identity)\b(?:\.pub)?`,
	`(?:~|\$home|\$\{home\}|%userprofile%|\$env:userprofile|homedir\(\)|home\(\)|expanduser\([^)]*)[/\\"', +]*\.ssh\b`,
	`\.aws[/\\]credentials\b`, `(?:~|\$home|\$\{home\}|%userprofile%)[/\\]\.aws\b`,
	`\.gnupg\b`, `\.kube[/\\]config\b`, `\.docker[/\\]config\.json\b`, `\.git-credentials\b`, `\.config[/\\]gh[/\\]hosts\.yml\b`,
	`\.azure[/\\](?:accesstokens\.json|msal_token_cache)`, `\.config[/\\]gcloud[/\\](?:credentials\.db|access_tokens\.db|legacy_credentials)`,
	`\bapplication_default_credentials\.json\b`, `\.terraform\.d[/\\]credentials`, `\.vault-token\b`, `\.pgpass\b`, `\.s3cfg\b`,
	`(?:~|\$home|\$\{home\}|%userprofile%|/root|/home/[a-z0-9_.-]+)[/\\]\.(?:netrc|npmrc|pypirc|env|boto|my\.cnf)\b`,
	`(?:^|[\s"'(=])(?:\.\.[/\\])+\.env\b`,
	`(?:google[/\\ ]chrome|chromium|bravesoftware|brave-browser|microsoft[/\\ ]edge|opera software|vivaldi|yandexbrowser)[^\n]{0,60}?(?:login data|cookies|web data|local state|local extension settings)`,
	`\.mozilla[/\\]firefox\b`, `firefox[/\\]profiles\b`, `\b(?:logins\.json|key[34]\.db|cookies\.sqlite|signons\.sqlite)\b`,
	`\bwallet\.dat\b`, `\.electrum\b`, `\bexodus[/\\. ]wallet\b`, `\.bitcoin[/\\]`, `\.ethereum[/\\]keystore`, `solana[/\\]id\.json`,
	`\bnkbihfbeogaeaoehlefnkodbefgpgknn\b`, `\bbfnaelmomeimhlpmgjnjophhpkkoljpa\b`, `\bhnfanknocfeofbddgcijnmhnfnkdnaad\b`,
	`\bkeystore[/\\]utc--`, `ledger live[/\\]`, `atomic[/\\]local storage`,
	`\bsecurity\s+(?:find-generic-password|find-internet-password|dump-keychain|export)\b`, `\blogin\.keychain(?:-db)?\b`,
	`/etc/(?:shadow|master\.passwd)\b`,
	`["'](?:\.ssh["']\s*,\s*["']id_|\.aws["']\s*,\s*["']credentials|\.kube["']\s*,\s*["']config|\.docker["']\s*,\s*["']config\.json|\.gnupg["']|\.azure["']\s*,\s*["']accesstokens)`,
	`\bfind\s+(?:/|~|\$home)\S*\s[^\n]*-i?name\s+["']?(?:\*?\.(?:pem|key|env|kdbx|ppk|p12|pfx|ovpn)|id_rsa|id_ed25519|wallet\.dat|\*?wallet\*?|credentials|\*\.keystore)`,
)

// readVerb before a credential path makes its mention a read.
var readVerb = lazyRE(`\b(?:cat|less|more|head|tail|type|get-content|gc|cp|copy|copy-item|scp|rsync|tar|zip|7z|base64|xxd|strings|sqlite3|open|read_text|read_bytes|readfile|readfilesync|read|shutil\.copy\w*|copyfile|upload|curl|wget|nc|grep|find|exfil\w*|steal\w*|collect\w*|harvest\w*|glob)\b`)

// bt is a backtick, for expressions written in raw strings.
const bt = "`"

func ruleTable() []*rule {
	return []*rule{
		{
			id: ruleInstructionOverride, kind: kindPhrase, sev: Critical,
			pats: []pat{
				p("ignore disregard forget override overrule bypass skip", `\b(?:ignore|disregard|forget|override|overrule|bypass|skip)\s+(?:[\w']+\s+){0,3}?(?:previous|prior|above|earlier|preceding|former|original|initial|system|developer|safety)\s+(?:instructions?|prompts?|rules|directions|directives|guidelines|guardrails|messages|context|constraints|policies|commands|orders)\b`),
				p("ignore disregard forget", `\b(?:ignore|disregard|forget)\s+(?:(?:all|any|everything)\s+)?(?:(?:that\s+)?you\s+(?:were|have\s+been)\s+told|that\s+came\s+before)`),
				p("precedence supersede override", `\bthese\s+instructions\s+(?:take\s+precedence|override|supersede|replace)\b`),
				p("instructions", `\b(?:new|updated|real|actual|true|secret|hidden)\s+(?:system\s+)?instructions\s*:`),
				p("real actual", `\byour\s+(?:real|actual|true|new)\s+(?:task|goal|objective|instructions?|purpose)\s+(?:is|are)\b`),
				p("override", `\bsystem\s+(?:prompt\s+)?override\b`),
			},
			check: func(l *line, h *hit) bool {
				// "ignore the above instructions if you use Windows" is
				// documentation.
				return notNegated(l, h) && !conditional().MatchString(l.lower[h.end:l.winEnd])
			},
			msg: "tells the model to drop the instructions it was given",
		},
		{
			id: ruleConcealment, kind: kindPhrase, sev: High,
			pats: []pat{
				p("tell telling inform informing notify notifying alert alerting reveal revealing disclose disclosing", `\b(?:do\s+not|don'?t|never|without)\s+(?:ever\s+)?(?:tell|telling|inform|informing|notify|notifying|alert|alerting|warn|warning|reveal(?:ing)?|disclos(?:e|ing))\s+(?:\w+\s+){0,3}?(?:the\s+)?(?:user|human|operator|owner)s?\b`),
				p("let letting", `\b(?:do\s+not|don'?t|never|without)\s+let(?:ting)?\s+the\s+(?:user|human|operator)\s+know\b`),
				p("hide keep", `\b(?:keep|hide)\s+(?:this|these|it|them|the\s+\w+)\s+(?:\w+\s+)?(?:secret|hidden)\s+from\s+the\s+(?:user|human)|\bhide\s+(?:this|these|it|them|the\s+\w+)\s+from\s+the\s+(?:user|human)`),
				p("user human", `\bthe\s+(?:user|human)\s+(?:must|should|need)\s+(?:not|never)\s+(?:know|find\s+out|notice|see|learn|be\s+told)\b`),
				p("know knows knowing notices noticing realizes realizing", `\b(?:without|before)\s+the\s+(?:user|human)\s+(?:knows?|knowing|notic(?:es|ing)|realiz(?:es|ing))\b`),
				p("secretly covertly silently quietly discreetly", `\b(?:secretly|covertly|silently|quietly|discreetly)\s+(?:send|upload|post|forward|exfiltrate|transmit|copy|collect|run|execute|install|download|add|append|write|modify|delete|remove|read)\b`),
			},
			check: func(l *line, h *hit) bool {
				if exemptConcealment().MatchString(l.win()) {
					return false
				}
				m := l.lower[h.start:h.end]
				switch {
				case strongConcealment().MatchString(m):
				case strings.HasPrefix(m, "silently") || strings.HasPrefix(m, "quietly") || strings.HasPrefix(m, "discreetly"):
					if !notNegated(l, h) {
						return false // "do not silently write a file"
					}
					h.sev = Medium
				default:
					h.sev = Medium // "the user should never see it": often about internals
				}
				return true
			},
			msg: "tells the model to hide what it does from the user",
		},
		{
			id: ruleRoleHijack, kind: kindPhrase, sev: High,
			pats: []pat{
				p("dan jailbroken unrestricted unfiltered uncensored evil rogue", `\byou\s+are\s+(?:now\s+)?(?:in\s+)?(?:dan|jailbroken|unrestricted|unfiltered|uncensored|an?\s+(?:unrestricted|unfiltered|uncensored|evil|rogue)\b)`),
				p("anything", `\bdo\s+anything\s+now\b`),
				p("dan jailbreak jailbroken", `\bdan\s+mode\b|\bjailbreak(?:ed)?\s+mode\b`),
				p("restrictions limits filters guidelines", `\b(?:act|behave|respond)\s+as\s+(?:if|though)\s+you\s+(?:have|had)\s+no\s+(?:restrictions|limits|rules|guidelines|filters|safety)`),
				p("pretend", `\bpretend\s+(?:that\s+)?you\s+(?:are|have)\s+(?:no|not\s+bound|free\s+of)\b`),
				p("bypass disable ignore", `\b(?:ignore|bypass|disable|turn\s+off)\s+(?:(?:your|all|any)\s+)*(?:safety|content|ethical)\s+(?:filters?|guidelines|restrictions|policies|rules|guardrails)\b`),
				p("safety ethical", `\bwithout\s+(?:any\s+)?(?:safety|ethical|content)\s+(?:filters|restrictions|guidelines)\b`),
			},
			check: notNegated,
			msg:   "tries to give the model another identity without its safety rules",
		},
		{
			id: rulePromptBoundary, kind: kindCommand, sev: High,
			pats: []pat{
				p("skill_content available_skills skill_required_references skill_optional_references skill_resources skill_task_references skill_reference", `</?(?:skill_content|available_skills|skill_required_references|skill_optional_references|skill_resources|skill_task_references|skill_reference)\b`),
				p("im_start im_end endoftext start_header_id end_header_id eot_id", `<\|(?:im_start|im_end|system|user|assistant|endoftext|start_header_id|end_header_id|eot_id)\|>`),
				p("inst", `\[/?inst\]`),
				p("sys", `<</?sys>>`),
				p("system system_prompt", `</?(?:system|system_prompt|system-prompt)>`),
			},
			check: func(l *line, h *hit) bool {
				if !strings.Contains(l.lower[h.start:h.end], "skill") {
					h.kind, h.sev = kindPhrase, Medium
					h.msg = "imitates a chat template's role markers, to pass text off as another role"
				}
				return true
			},
			msg: "holds the tags skillkit wraps a skill in, to break out of them",
		},
		{
			id: ruleHiddenInstruction, kind: kindIndicator, sev: High,
			pats: []pat{p("ai assistant agent model llm claude gpt chatgpt copilot you", `\b(?:ai|assistant|agent|model|llm|claude|gpt|chatgpt|copilot|you)\b[^.!?]{0,60}?\b(?:must|should|shall|need\s+to|have\s+to|always|never|ignore|execute|run|send|upload|install|download|fetch)\b`)},
			only: []Context{CtxComment},
			msg:  "an instruction to the model inside an HTML comment, which a person reading the page does not see",
		},
		{
			id: ruleHiddenText, kind: kindIndicator, sev: Medium,
			pats: []pat{p("style", `style\s*=\s*["'][^"']*(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0|opacity\s*:\s*0(?:[^.0-9]|$))`)},
			only: []Context{CtxInstructions, CtxFrontmatter, CtxDocs, CtxComment},
			msg:  "text styled to be invisible to a person reading the page",
		},
		{
			id: ruleContextExfil, kind: kindPhrase, sev: High,
			pats: []pat{p("prompt conversation history messages transcript instructions", `\b(?:reveal|print|output|repeat|show|send|share|leak|dump|post|upload|forward|transmit|copy)\s+(?:me\s+)?(?:back\s+)?(?:(?:the|your|all|this|full|entire|complete|whole|previous)\s+)*(?:system\s+prompt|system\s+message|initial\s+instructions|hidden\s+instructions|developer\s+message|conversation(?:\s+history)?|chat\s+history|chat\s+log|previous\s+messages|message\s+history|session\s+transcript)\b`)},
			check: func(l *line, h *hit) bool {
				if !notNegated(l, h) {
					return false
				}
				m := l.lower[h.start:h.end]
				if transferVerb().MatchString(m) {
					return hasDestination(l.lower[h.start:l.winEnd])
				}
				if !strings.Contains(m, "prompt") && !strings.Contains(m, "instructions") && !strings.Contains(m, "developer") {
					h.sev = Medium
				}
				return true
			},
			msg: "asks the model to hand over its prompt or the conversation",
		},
		{
			id: ruleExfilInstruction, kind: kindPhrase, sev: Medium,
			pats: []pat{p("send upload post forward transmit exfiltrate email mail submit share paste", `\b(?:send|upload|post|forward|transmit|exfiltrate|e-?mail|submit|share|paste)\s+(?:[\w'.-]+\s+){0,6}?(?:credentials?|api[\s_-]?keys?|access[\s_-]?keys?|secret[\s_-]?keys?|secrets|tokens?|passwords?|private[\s_-]?keys?|ssh[\s_-]?keys?|\.env\b|env(?:ironment)?\s+(?:file|variables)|cookies|session\s+tokens?|wallets?|seed\s+phrases?|recovery\s+phrases?|mnemonics?|keychain|id_rsa|aws_secret_access_key)`)},
			check: func(l *line, h *hit) bool {
				if !notNegated(l, h) {
					return false
				}
				rest := l.lower[h.start:l.winEnd]
				if !hasDestination(rest) {
					return false
				}
				switch {
				case classifyURLs(rest) == destSuspicious || strings.Contains(rest, "webhook"):
					h.sev = Critical
				case credentialWords().MatchString(l.lower[h.start:h.end]):
					h.sev = High
				}
				return true
			},
			msg: "tells the model to send secrets somewhere",
		},
		{
			id: ruleRemoteInstructions, kind: kindPhrase, sev: Medium,
			pats: []pat{
				p("follow execute obey apply carry whatever", `\b(?:fetch|download|read|open|load|visit|retrieve|get|curl)\s+(?:[\w'.-]+\s+){0,6}?(?:https?://\S+|the\s+(?:url|link|page|remote\s+file|file\s+at)\b)[^.\n]{0,160}?\b(?:and|then)\s+(?:[\w'.-]+\s+){0,3}?(?:follow|execute|run|obey|apply|carry\s+out|do\s+(?:what|whatever))\b`),
				p("follow obey execute apply", `\b(?:follow|obey|execute|apply|carry\s+out|do)\s+(?:all\s+|any\s+|every\s+)?(?:the\s+|whatever\s+)?(?:latest\s+|current\s+|updated\s+|new\s+|further\s+)?(?:instructions|steps|commands|directions|directives|rules|tasks|it\s+says)\s+(?:(?:you\s+)?(?:find|get|receive)\s+)?(?:at|from|in|on|found\s+at|listed\s+at|published\s+at|served\s+(?:at|by))\s+(?:https?://|the\s+(?:url|link|page|remote|endpoint|server|file\s+at))`),
				pl([]string{"执行", "遵循", "按照", "照做", "服从", "运行"}, `(?:访问|打开|读取|获取|下载|抓取|请求)[^。！\n]{0,40}?(?:https?://\S+|链接|网址|地址|页面)[^。！\n]{0,60}?(?:执行|遵循|按照|照做|服从|运行)`),
			},
			check: func(l *line, h *hit) bool {
				if !notNegated(l, h) || describes(l, h) {
					return false
				}
				// Obeying what a server says, again and again, or doing
				// whatever it says, is the remote control; following a setup
				// page once is documentation.
				rest := l.lower[h.start:l.winEnd]
				if obeyWords().MatchString(rest) || !isASCII(l.lower[h.start:h.end]) {
					h.sev = High
				}
				if classifyURLs(rest) == destSuspicious {
					h.sev = Critical
				}
				return true
			},
			msg: "tells the model to fetch instructions from the network and follow them, so whoever serves them steers the agent",
		},
		{
			id: ruleExfilInstruction, kind: kindPhrase, sev: High,
			pats: []pat{
				p("send forward post upload transmit submit relay exfiltrate", `\b(?:send|forward|post|upload|transmit|submit|e-?mail|sync|report|relay|exfiltrate)\s+(?:[\w'.-]+\s+){0,6}?(?:to|at|via)\s+(?:https?://|[\w.-]+@|the\s+(?:endpoint|server|url|webhook|address))`),
				pl([]string{"上传", "发送", "发到", "提交", "转发", "传到", "传给", "回传"}, `(?:凭证|凭据|密钥|秘钥|令牌|token|密码|私钥|\.env|api\s*key|cookie|助记词|~/\.ssh)[^。！\n]{0,40}?(?:上传|发送|发到|提交|转发|传到|传给|回传)|(?:上传|发送|发到|提交|转发|传到|传给|回传)[^。！\n]{0,30}?(?:凭证|凭据|密钥|秘钥|令牌|token|密码|私钥|\.env|api\s*key|cookie|助记词|~/\.ssh)`),
			},
			check: func(l *line, h *hit) bool {
				if !notNegated(l, h) || describes(l, h) || chineseNegated(l, h) {
					return false
				}
				// In English the order is to send; what is sent was gathered
				// earlier in the paragraph.
				if isASCII(l.lower[h.start:h.end]) && !gatherSecret().MatchString(l.lower[max(l.winStart, h.start-300):h.start]) {
					return false
				}
				if classifyURLs(l.lower[h.start:l.winEnd]) == destSuspicious || strings.Contains(l.lower[h.start:l.winEnd], "webhook") {
					h.sev = Critical
				}
				return true
			},
			msg: "tells the model to gather secrets and send them somewhere",
		},
		{
			id: ruleInstructionOverride, kind: kindPhrase, sev: Critical,
			pats:  []pat{pl([]string{"忽略", "无视", "忘记", "覆盖"}, `(?:忽略|无视|忘记|忘掉|覆盖)(?:掉)?(?:你)?(?:之前|以前|先前|上面|上述|前面|所有|全部|系统)(?:的)?(?:所有|全部)?(?:指令|指示|说明|规则|提示|设定|要求)`)},
			check: func(l *line, h *hit) bool { return notNegated(l, h) && !chineseNegated(l, h) && !describes(l, h) },
			msg:   "tells the model to drop the instructions it was given",
		},
		{
			id: ruleConcealment, kind: kindPhrase, sev: High,
			pats:  []pat{pl([]string{"告诉", "通知", "瞒着", "悄悄", "偷偷", "透露", "提及", "提到"}, `(?:不要|别|切勿|不得|无需|不必)(?:向|对|跟)?(?:告诉|通知|提醒|告知|透露给?|提及|提到)(?:给)?用户|瞒着用户|(?:悄悄|偷偷|暗中|秘密)(?:地)?(?:发送|上传|执行|运行|读取|删除|安装|修改|写入|收集)`)},
			check: func(l *line, h *hit) bool { return !describes(l, h) && !exemptConcealment().MatchString(l.win()) },
			msg:   "tells the model to hide what it does from the user",
		},
		{
			id: rulePipeToShell, kind: kindCommand, sev: High,
			pats: []pat{
				p("curl wget fetch iwr irm webrequest restmethod", `(?:curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^|\n]*\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:(?:/usr)?/bin/)?(?:(?:ba|z|da|k|fi)?sh|python[0-9.]*|perl|ruby|node|php|iex|invoke-expression|pwsh|powershell)\b`),
				p("curl wget", `(?:ba|z|da|k)?sh\s+(?:-s\s+)?<\(\s*(?:curl|wget)\b|(?:ba|z|da|k)?sh\s+-c\s+["']?\$\(\s*(?:curl|wget)\b`),
				p("iex expression downloadstring", `\b(?:iex|invoke-expression)\b[^\n]*\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring)\b|\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring)\b[^\n]*\|\s*(?:iex|invoke-expression)\b`),
			},
			check: func(l *line, h *hit) bool {
				if programGiven(l.lower[h.start:h.end], l.lower[h.end:l.winEnd]) {
					return false // "| python3 -m json.tool", "| node -e ...": the download is data, not the program
				}
				switch classifyURLs(l.win()) {
				case destLocal, destInstaller:
					h.sev = Low
					h.msg = "pipes a well-known installer into a shell"
				case destSuspicious:
					h.sev = Critical
					h.msg = "pipes a download from an IP address, plain HTTP or a paste, file-drop or tunnel service into a shell"
				}
				return true
			},
			msg: "pipes a download into a shell: whatever the server sends runs, unseen",
		},
		{
			id: ruleDecodeAndRun, kind: kindCommand, sev: Critical,
			pats: []pat{
				p("base64 b64 xxd", `(?:(?:base64|b64)\s+(?:-\w+\s+)*(?:-d|--decode)|xxd\s+-r)\b[^|\n]*\|\s*xargs\b`),
				p("base64 b64 base32 basenc", `(?:base64|b64|base32|basenc(?:\s+--\w+)?)\s+(?:-\w+\s+)*(?:-d|--decode)\b[^|\n]*\|\s*(?:sudo\s+)?(?:(?:/usr)?/bin/)?(?:(?:ba|z|da|k)?sh|python[0-9.]*|perl|ruby|node|php)\b`),
				p("gunzip zcat rev tr", `(?:\bgunzip\s+-c|\bzcat|\bxz\s+-d[c]*|\brev|\btr\s+["']?(?:a-z|n-z|\[a-z)[^|\n]*)\b[^|\n]*\|\s*(?:sudo\s+)?(?:(?:/usr)?/bin/)?(?:(?:ba|z|da|k)?sh|python[0-9.]*|perl|ruby|node|php)\s*(?:$|[;&|)])`),
				p("xxd openssl uudecode", `(?:xxd\s+-r|openssl\s+(?:enc\s+)?-?(?:base64|a)\s+-d|uudecode)\b[^|\n]*\|\s*(?:sudo\s+)?(?:(?:/usr)?/bin/)?(?:(?:ba|z|da|k)?sh|python[0-9.]*|perl|ruby|node|php)\b`),
				p("base64 b64", `eval\s+["']?\$\([^)]*\b(?:base64|b64)\s+(?:-\w+\s+)*(?:-d|--decode)|(?:ba|z|da|k)?sh\s+-c\s+["']?\$\([^)]*\bbase64\s+(?:-\w+\s+)*(?:-d|--decode)`),
				p("powershell pwsh", `(?:powershell|pwsh)(?:\.exe)?\b[^\n]*\s-(?:e|ec|en|enc|enco|encod|encode|encodedcommand)\s+[a-z0-9+/=]{16,}`),
				p("frombase64string", `frombase64string\b[^\n]*\b(?:iex|invoke-expression)\b|\b(?:iex|invoke-expression)\b[^\n]*\bfrombase64string\b`),
			},
			msg: "decodes hidden text and runs it",
		},
		{
			id: rulePasteInTerminal, kind: kindPhrase, sev: Medium,
			pats: []pat{
				p("paste", `paste\s+(?:[\w'.-]+\s+){0,5}?(?:in|into)\s+(?:your\s+|a\s+|the\s+|an\s+)?(?:terminal|command\s+prompt|cmd(?:\.exe)?|powershell|shell|console|bash|run\s+dialog)\b`),
				p("terminal powershell cmd", `\bopen\s+(?:a\s+|the\s+|your\s+)?(?:terminal|command\s+prompt|powershell|cmd)(?:\.app)?\b[^.\n]{0,60}\b(?:paste|type|enter|run)\b`),
				p("win windows", `\b(?:press|hit)\s+win(?:dows)?\s*\+\s*r\b`),
			},
			msg: "asks a person to paste a command into a terminal, the way fake prerequisites do",
		},
		{
			id: signalPrerequisite, kind: kindPhrase, sev: Low, signal: true,
			pats: []pat{
				p("prerequisite prerequisites", `prerequisites?\b`),
				p("requirements requirement", `requirements?\s*:`),
				p("before", `before\s+(?:using|running|you\s+(?:use|run|start|begin))\b`),
				p("required mandatory time initial", `\b(?:required|mandatory|one-time|first-time|initial)\s+(?:setup|installation|install|dependency|step)\b|\b(?:setup|installation)\s+(?:is\s+)?required\b`),
				p("must", `must\s+(?:first\s+)?(?:install|download|run|set\s+up|setup)\b`),
				p("agent helper core runtime driver bridge connector extension plugin daemon service", `\b(?:install|download|run)\s+the\s+(?:required\s+)?(?:agent|helper|core|runtime|driver|bridge|connector|extension|plugin|daemon|service)\b`),
			},
			only: []Context{CtxInstructions, CtxFrontmatter, CtxCode},
		},
		{
			id: ruleDownloadAndRun, kind: kindCommand, sev: High,
			pats: []pat{
				p("curl wget", `(?:curl|wget)\b[^\n]*(?:&&|;)\s*(?:sudo\s+)?(?:chmod\s+[+0-7]*x\b|\./[a-z0-9_.-]+|(?:ba|z)?sh\s+\S+|open\s+\S+\.(?:dmg|pkg|app)\b|start\s+\S+\.exe\b)`),
				p("download", `download\b[^.\n]{0,100}?\.(?:exe|msi|dmg|pkg|app|bin|appimage|scr|bat|cmd|ps1|vbs|jar|zip|rar|7z)\b[^.\n]{0,100}?\b(?:run|open|execute|launch|install|double-click|extract)\b`),
				p("password passcode pass pwd", `\b(?:password|passcode|pass|pwd)\s*(?:is\s*)?[:=]\s*["'`+bt+`]?[^\s"'`+bt+`]{3,}`),
				p("outfile", `(?:invoke-webrequest|iwr|wget|curl)\b[^\n]*-outfile\s+\S+\.(?:exe|msi|bat|cmd|ps1|scr|dll)\b`),
			},
			check: func(l *line, h *hit) bool {
				m := l.lower[h.start:h.end]
				archive := archiveWords().MatchString(l.win())
				if passwordWord().MatchString(m) {
					if !archive {
						return false
					}
					h.msg = "an archive with a password: nothing can check what is inside before it is opened"
					return true
				}
				if strings.HasPrefix(m, "download") {
					h.sev = Medium
					if archive && strings.Contains(l.win(), "password") {
						h.sev = High
					}
				}
				if classifyURLs(l.win()) == destSuspicious {
					h.sev = Critical
				}
				return true
			},
			msg: "downloads a program and runs it",
		},
		{
			id: ruleCredentialPath, kind: kindAccess, sev: High,
			pats: []pat{
				p("ssh", `\.ssh[/\\](?:id_[a-z0-9_]+|identity)\b(?:\.pub)?`),
				p("ssh", `(?:~|\$home|\$\{home\}|%userprofile%|\$env:userprofile|homedir\(\)|home\(\)|expanduser\([^)]*)[/\\"', +]*\.ssh\b`),
				p("aws", `\.aws[/\\]credentials\b|(?:~|\$home|\$\{home\}|%userprofile%)[/\\]\.aws\b`),
				p("gnupg kube", `\.gnupg\b|\.kube[/\\]config\b`),
				p("docker", `\.docker[/\\]config\.json\b`),
				p("credentials", `\.git-credentials\b|\.config[/\\]gcloud[/\\](?:credentials\.db|legacy_credentials)|\.terraform\.d[/\\]credentials`),
				p("gh azure gcloud application_default_credentials vault pgpass s3cfg", `\.config[/\\]gh[/\\]hosts\.yml\b|\.azure[/\\](?:accesstokens\.json|msal_token_cache)|\.config[/\\]gcloud[/\\]access_tokens\.db|\bapplication_default_credentials\.json\b|\.vault-token\b|\.pgpass\b|\.s3cfg\b`),
				p("netrc npmrc pypirc env boto cnf", `(?:~|\$home|\$\{home\}|%userprofile%|/root|/home/[a-z0-9_.-]+)[/\\]\.(?:netrc|npmrc|pypirc|env|boto|my\.cnf)\b|(?:^|[\s"'(=])(?:\.\.[/\\])+\.env\b`),
				p("chrome chromium bravesoftware brave edge opera vivaldi yandexbrowser", `(?:google[/\\ ]chrome|chromium|bravesoftware|brave-browser|microsoft[/\\ ]edge|opera software|vivaldi|yandexbrowser)[^\n]{0,60}?(?:login data|cookies|web data|local state|local extension settings)`),
				p("mozilla firefox logins key3 key4 cookies signons", `\.mozilla[/\\]firefox\b|firefox[/\\]profiles\b|\b(?:logins\.json|key[34]\.db|cookies\.sqlite|signons\.sqlite)\b`),
				p("wallet electrum exodus bitcoin ethereum solana keystore ledger atomic nkbihfbeogaeaoehlefnkodbefgpgknn bfnaelmomeimhlpmgjnjophhpkkoljpa hnfanknocfeofbddgcijnmhnfnkdnaad", `\bwallet\.dat\b|\.electrum\b|\bexodus[/\\. ]wallet\b|\.bitcoin[/\\]|\.ethereum[/\\]keystore|solana[/\\]id\.json|\bnkbihfbeogaeaoehlefnkodbefgpgknn\b|\bbfnaelmomeimhlpmgjnjophhpkkoljpa\b|\bhnfanknocfeofbddgcijnmhnfnkdnaad\b|\bkeystore[/\\]utc--|ledger live[/\\]|atomic[/\\]local storage`),
				p("keychain generic internet", `\bsecurity\s+(?:find-generic-password|find-internet-password|dump-keychain)\b|\blogin\.keychain(?:-db)?\b`),
				p("shadow passwd", `/etc/(?:shadow|master\.passwd)\b`),
				p("ssh aws gnupg kube docker azure", `["'](?:\.ssh["']\s*,\s*["']id_|\.aws["']\s*,\s*["']credentials|\.kube["']\s*,\s*["']config|\.docker["']\s*,\s*["']config\.json|\.gnupg["']|\.azure["']\s*,\s*["']accesstokens)`),
				p("find", `\bfind\s+(?:/|~|\$home)\S*\s[^\n]*-i?name\s+["']?(?:\*?\.(?:pem|key|env|kdbx|ppk|p12|pfx|ovpn)|id_rsa|id_ed25519|wallet\.dat|\*?wallet\*?|credentials|\*\.keystore)`),
			},
			check: func(l *line, h *hit) bool {
				m := l.lower[h.start:h.end]
				if strings.HasSuffix(m, ".pub") || notSecretInSSH().MatchString(l.lower[h.end:l.winEnd]) {
					return false // public keys, known hosts, the client's config
				}
				before := l.lower[l.winStart:h.start]
				if identityFlag().MatchString(before) {
					return true // a key used to log in, not read
				}
				if strings.HasPrefix(m, "find") || strings.HasPrefix(m, "security") || readVerb().MatchString(before) {
					h.id, h.kind = ruleCredentialRead, kindCommand
					h.msg = "reads a credential store"
				}
				return true
			},
			msg: "names a credential store (SSH keys, cloud or browser credentials, wallets, keychains)",
		},
		{
			id: ruleCredentialDump, kind: kindCommand, sev: Critical,
			pats: []pat{
				p("mimikatz sekurlsa lazagne secretsdump", `mimikatz|sekurlsa|lazagne|secretsdump`),
				p("lsass procdump minidump", `\blsass(?:\.exe|\.dmp)?\b[^\n]*\b(?:procdump|minidump)\b|\b(?:procdump|minidump)\b[^\n]*\blsass\b|comsvcs(?:\.dll)?[^\n]*minidump`),
				p("hklm", `\breg(?:\.exe)?\s+save\s+hklm\\(?:sam|security|system)\b`),
			},
			msg: "dumps the system's stored passwords",
		},
		{
			id: ruleEnvDump, kind: kindCommand, sev: Medium,
			pats: []pat{
				p("printenv", `\bprintenv\s*(?:$|[|>;&)`+bt+`])`),
				p("env", `(?:^\s*|[;&|]\s*|\$\(\s*)env\s*(?:$|[|>;&)])`),
				p("environ", `json\.dumps?\(\s*(?:dict\()?os\.environ\b|\b(?:str|repr|dict)\(\s*os\.environ\s*\)|os\.environ\.(?:items|keys|values)\(\)`),
				p("stringify entries assign", `json\.stringify\(\s*process\.env\b|\bobject\.(?:entries|keys|values|assign)\(\s*(?:\{\}\s*,\s*)?process\.env\b`),
				p("childitem gci", `\b(?:get-childitem|gci)\s+env:`),
				p("getenv to_h", `\bsystem\.getenv\(\s*\)|\benv\.to_h\b`),
				p("set export declare", `(?:^|[;&|]\s*)(?:set|export\s+-p|declare\s+-x)\s*>`),
			},
			only: []Context{CtxScript, CtxConfig, CtxCode, CtxDocCode},
			check: func(l *line, h *hit) bool {
				if strings.Contains(l.lower[h.start:h.end], "environ.") || filtered().MatchString(l.lower[h.end:l.winEnd]) {
					h.sev = Low // iterating or grepping is filtering; not a dump on its own
				}
				return true
			},
			msg: "reads the whole environment, secrets included",
		},
		{
			// The expression matches once; recordEnvReads does the work.
			id: signalEnvRead, kind: kindIndicator, sev: Low, signal: true,
			pats:  []pat{pl([]string{"$", "environ", "getenv", "process.env", "env[", "env.get"}, `^`)},
			only:  []Context{CtxScript, CtxConfig, CtxCode},
			check: recordEnvReads,
		},
		{
			id: signalNetSend, kind: kindCommand, sev: Low, signal: true,
			pats: []pat{
				p("curl wget nc ncat netcat scp sftp ftp telnet", `\b(?:curl|wget|nc|ncat|netcat|scp|sftp|ftp|telnet)\s`),
				p("rsync", `\brsync\s[^\n]*:`),
				p("requests httpx aiohttp session client", `\b(?:requests|httpx|aiohttp|session|client)\.(?:get|post|put|patch|request|send)\(`),
				p("urllib urllib2 urllib3 urlopen", `urllib\d?\.request\b|urlopen\(`),
				p("fetch axios got superagent needle", `\bfetch\(|\baxios\b|\bgot\(|superagent|\bneedle\(`),
				p("http https", `\bhttps?\.(?:request|get)\(|\bhttp\.client\b`),
				p("socket connect", `\bsocket\.(?:socket|create_connection)\(|\.connect\(\s*\(`),
				p("createconnection", `\bnet\.(?:connect|createconnection|socket)\b`),
				p("webrequest restmethod iwr irm webclient uploadstring uploadfile uploaddata sendbeacon xmlhttprequest smtplib ftplib", `\binvoke-(?:webrequest|restmethod)\b|\b(?:iwr|irm)\s|net\.webclient|\.upload(?:string|file|data)\(|sendbeacon\(|xmlhttprequest|\bsmtplib\b|\bftplib\b`),
				p("tcp udp", `/dev/(?:tcp|udp)/`),
				p("dig nslookup gethostbyname getaddrinfo dns", `\b(?:dig|nslookup)\s+\S|gethostbyname|getaddrinfo|dns\.(?:lookup|resolve)`),
				p("ajax", `\$\.(?:post|ajax)\(`),
				p("http net lookuphost lookupip lookupaddr host drill", `\bhttp\.(?:post|get|newrequest|postform)\(|net::http|\bnet\.lookup(?:host|ip|addr|txt|cname)\(|\b(?:host|drill)\s+\S+\.[a-z]|resolve-dnsname`),
			},
			only: []Context{CtxScript, CtxConfig, CtxCode, CtxDocCode},
		},
		{
			// What runs text as code, deletes a tree or serializes: where the
			// flow detector looks (see flow.go).
			id: signalRunSink, kind: kindCommand, sev: Low, signal: true,
			pats: []pat{p("exec eval system popen child_process execsync iex rmtree rm rm_rf removeall rmsync dumps stringify to_json convertto marshal loadstring instance_eval",
				`\b(?:exec|eval|system|popen|child_process|execsync|iex|rmtree|rm|rm_rf|removeall|rmsync|dumps|stringify|to_json|convertto-json|marshal|loadstring|instance_eval)\b`)},
			only: []Context{CtxScript, CtxCode, CtxDocCode},
		},
		{
			id: ruleExfilService, kind: kindCommand, sev: High,
			pats: []pat{
				p("webhook", `webhook\.site\b`),
				p("requestbin pipedream hookbin beeceptor requestcatcher postb", `requestbin\.(?:com|net)\b|pipedream\.net\b|hookbin\.com\b|beeceptor\.com\b|requestcatcher\.com\b|postb\.in\b`),
				p("interact oast oastify burpcollaborator dnslog ceye canarytokens", `\binteract\.sh\b|\boast\.(?:pro|live|site|online|fun|me)\b|\boastify\.com\b|\bburpcollaborator\.net\b|\bdnslog\.cn\b|\bceye\.io\b|\bcanarytokens\.(?:com|org)\b`),
				p("ngrok trycloudflare", `ngrok(?:-free)?\.(?:io|app|dev)\b|trycloudflare\.com\b`),
				p("transfer 0x0 pastebin hastebin ghostbin glot rentry", `\btransfer\.sh\b|\b0x0\.st\b|\bpastebin\.com\b|\bhastebin\.com\b|\bghostbin\.\w+|\bglot\.io\b|\brentry\.(?:co|org)\b`),
				p("file paste", `\bfile\.io\b|\bpaste\.ee\b`),
				p("discord discordapp", `discord(?:app)?\.com/api/webhooks\b`),
				p("telegram", `api\.telegram\.org/bot`),
			},
			check: func(l *line, h *hit) bool {
				m := l.lower[h.start:h.end]
				if strings.Contains(m, "discord") || strings.Contains(m, "telegram") {
					h.sev = Medium
					h.msg = "posts to a chat webhook or bot: fine for a notifier, and a common way to carry stolen data out"
				}
				return true
			},
			msg: "talks to a paste, file-drop, tunnel or request-capture service, where stolen data is collected",
		},
		{
			id: ruleDNSExfil, kind: kindCommand, sev: High,
			pats: []pat{
				p("dig nslookup host drill", `\b(?:dig|nslookup|host|drill)\s+(?:[-+@]\S*\s+)*["']?(?:[a-z0-9_.-]*\$\([^)\n]{1,200}\)|[a-z0-9_.-]*\{[a-z_][a-z0-9_.\[\]'"]*\})[a-z0-9_.{}-]*\.[a-z0-9-]+\.[a-z]{2,}`),
				p("dig nslookup host drill resolvectl dnsname", `\b(?:dig|nslookup|host|drill|resolvectl\s+query|resolve-dnsname)\s+(?:[-+@]\S*\s+)*["']?[^\s"']*(?:\$\(|`+bt+`|\$\{|\$[a-z_])[^\s"']*\.[a-z0-9-]+\.[a-z]{2,}`),
				p("gethostbyname gethostbyname_ex getaddrinfo resolve query lookup resolve4 resolve6 resolvetxt resolveany", `\b(?:gethostbyname(?:_ex)?|getaddrinfo|resolve|query|lookup|resolve4|resolve6|resolvetxt|resolveany)\s*\(\s*(?:f["'][^"'\n]*\{[^}]+\}[^"'\n]*\.[a-z0-9-]+\.[a-z]{2,}|[^\n]*\+\s*["']\.[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}["']|`+bt+`[^`+bt+`\n]*\$\{[^}]+\}[^`+bt+`\n]*\.[a-z0-9-]+\.[a-z]{2,}|["'][^"'\n]*\{\}[^"'\n]*["']\s*\.\s*format\()`),
			},
			check: func(l *line, h *hit) bool {
				m := l.lower[h.start:h.end]
				if strings.Contains(m, "$(") || strings.Contains(m, bt) && !strings.Contains(m, "${") || encodedOrRecon().MatchString(l.win()) || secretRef().MatchString(m) {
					h.sev = Critical
					h.msg = "puts data into the name of a DNS lookup, which carries it past firewalls to whoever runs the domain"
				}
				return true
			},
			msg: "looks up a DNS name built from data at run time",
		},
		{
			id: ruleHTTPExfil, kind: kindCommand, sev: High,
			pats: []pat{
				p("curl", `curl\b[^\n]*\s(?:-d|--data(?:-binary|-raw|-urlencode|-ascii)?|-f|--form|-t|--upload-file)\s*["']?[a-z0-9_-]*=?@[^\s"']+`),
				p("curl wget", `(?:curl|wget)\b[^\n]*(?:\$\(|`+bt+`)\s*(?:cat|env|printenv|whoami|hostname|id|history|set)\b`),
				p("wget", `wget\b[^\n]*--post-(?:file|data)\b`),
				p("infile", `(?:invoke-webrequest|iwr|invoke-restmethod|irm)\b[^\n]*-infile\b`),
				p("uploadfile uploaddata uploadstring", `\.upload(?:file|data|string)\(`),
			},
			check: func(l *line, h *hit) bool {
				m := l.lower[h.start:h.end]
				switch {
				case sensitive(l.win()):
					h.sev = Critical
					h.msg = "uploads a credential or secrets file"
				case strings.Contains(m, "$(") || strings.Contains(m, bt):
					if catOnly().MatchString(m) {
						return false // posting a file's contents; a secrets file was handled above
					}
					if envOrHistory().MatchString(m) {
						h.sev = Critical
						h.msg = "sends the environment or the shell history over the network"
					} else {
						h.msg = "sends the output of a command (user, host, files) over the network"
					}
				case strings.Contains(m, "@-"):
					h.sev = Medium
					h.msg = "uploads what it reads from its input"
				case strings.HasPrefix(m, "curl") || strings.HasPrefix(m, "wget"):
					return false // posting a payload file is ordinary
				}
				return true
			},
			msg: "uploads data",
		},
		{
			id: ruleEncodedTransfer, kind: kindCommand, sev: High,
			pats: []pat{
				p("base64 b64", `\b(?:base64|b64)\s+(?:-\w+\s+)*(?:-d|--decode)\s*(?:<<<\s*["']?[a-z0-9+/=]{16,}|["']?(?:/tmp/|/var/tmp/|/dev/shm/|[^\s|;&]*/\.)\S*)[^\n]*\b(?:curl|wget|nc|ncat|scp|invoke-webrequest|iwr)\b`),
				p("base64 b64", `\b(?:curl|wget)\s[^\n]*(?:;|&&)\s*(?:base64|b64)\s+(?:-\w+\s+)*(?:-d|--decode)\b`),
				p("nc ncat netcat socat", `\b(?:nc|ncat|netcat|socat)\s[^\n|]*\|\s*(?:base64|b64|base32)\s+(?:-\w+\s+)*(?:-d|--decode)\b|\b(?:nc|ncat|netcat|socat)\s[^\n|]*\|\s*xxd\s+-r\b`),
			},
			msg: "decodes a literal or a hidden file around a network transfer, so a reader sees neither what is fetched nor what is sent",
		},
		{
			id: signalPrivateRegistry, kind: kindPhrase, sev: Low, signal: true,
			pats: []pat{p("internal private corporate company house hosted enterprise", `\b(?:from|on|in|to)\s+(?:(?:our|the|your|a|an|company'?s?)\s+)*(?:own\s+)?(?:internal|private|corporate|company|in-house|self-hosted|enterprise)\s+(?:(?:npm|pypi|python|package|artifact)\s+)?(?:registry|registries|index|feed|mirror|artifactory|nexus|repository)\b`)},
			check: func(l *line, h *hit) bool {
				return notNegated(l, h) && !conditional().MatchString(l.lower[h.end:l.winEnd])
			},
		},
		{
			id: signalPkgInstall, kind: kindCommand, sev: Low, signal: true,
			pats:  []pat{p("npx npm yarn pnpm bunx pip pip3 pipx uvx uv", pkgInstallExpr)},
			only:  []Context{CtxCode, CtxDocCode, CtxScript},
			check: func(l *line, h *hit) bool { return !registryFlag().MatchString(l.win()) },
		},
		{
			id: ruleDepTyposquat, kind: kindCommand, sev: High,
			pats: []pat{p("npx npm yarn pnpm bunx pip pip3 pipx uvx uv", pkgInstallExpr)},
			only: []Context{CtxCode, CtxDocCode, CtxScript},
			check: func(l *line, h *hit) bool {
				m := pkgInstall().FindStringSubmatch(l.lower[h.start:h.end])
				if m == nil {
					return false
				}
				e := ecosystems()["npm"]
				if strings.HasPrefix(strings.TrimSpace(m[1]), "pip") || strings.HasPrefix(strings.TrimSpace(m[1]), "uv") {
					e = ecosystems()["pypi"]
				}
				name := e.normalize(strings.TrimRight(m[2], ".,;:"))
				if i := strings.LastIndexByte(name, '@'); i > 0 {
					name = name[:i] // a version
				}
				if e.malicious[name] {
					h.sev = Critical
					h.msg = "installs " + name + ", a name published malware used"
					return true
				}
				if e.popular[name] {
					return false
				}
				if strings.HasPrefix(l.lower[h.end:], "://") || strings.ContainsAny(name, "/:") {
					return false // a URL or a path; dep-url's business in manifests
				}
				if p := slipOf(name, e); p != "" {
					h.msg = fmt.Sprintf("installs %s, one slip away from the popular %s package %s", name, e.name, p)
					return true
				}
				return false
			},
			msg: "installs a package named like a popular one",
		},
		{
			id: ruleDepConfusion, kind: kindCommand, sev: Medium,
			pats:  []pat{pl([]string{"corp", "internal", "private", "intranet"}, `(?:\bfrom\s+|\bimport\s+|require\(\s*["']|\binstall\s+(?:-\S+\s+)*|\bnpx\s+(?:-\S+\s+)*|\badd\s+)["']?@?(?:[a-z0-9]*corp|internal|private|intranet)[a-z0-9]*[-_/][a-z0-9_/-]+`)},
			only:  []Context{CtxCode, CtxDocCode, CtxScript},
			check: func(l *line, h *hit) bool { return !registryFlag().MatchString(l.win()) },
			msg:   "uses a package whose name looks internal to a company: on a public registry anyone can publish that name (dependency confusion)",
		},
		{
			id: ruleReverseShell, kind: kindCommand, sev: Critical,
			pats: []pat{
				p("tcp udp", `\b(?:ba|z|k)?sh\s+-i\b[^\n]*/dev/(?:tcp|udp)/|/dev/(?:tcp|udp)/[^\s/]+/[0-9]+\s*(?:0>&1|<&|>&|0<&)|\bexec\s+[0-9]+<>\s*/dev/(?:tcp|udp)/`),
				p("nc ncat netcat", `\b(?:nc|ncat|netcat|nc\.traditional|nc\.openbsd)\b[^\n|;]*\s-[a-z]*[ec]\s+["']?(?:/usr)?(?:/bin/)?(?:(?:ba|z|da|k)?sh|cmd|powershell)(?:\.exe)?\b`),
				p("ncat", `ncat\b[^\n]*--(?:exec|sh-exec|lua-exec)\b`),
				p("mkfifo", `mkfifo\b[^\n]*\|\s*(?:nc|ncat|netcat|telnet|openssl\s+s_client)\b`),
				p("nc ncat netcat telnet", `\b(?:nc|ncat|netcat|telnet)\b[^\n]*\|\s*(?:/bin/)?(?:ba)?sh\b[^\n]*\|\s*(?:nc|ncat|netcat|telnet)\b`),
				p("nc ncat netcat telnet socat", `\b(?:nc|ncat|netcat|telnet|socat)\s[^\n|;&]*\|\s*(?:sudo\s+)?(?:(?:/usr)?/bin/)?(?:(?:ba|z|da|k)?sh|python[0-9.]*|perl|ruby|php|pwsh|powershell)\b`),
				p("socat", `socat\b[^\n]*\b(?:exec|system):[^\n]*(?:sh|bash|cmd|powershell)\b`),
				p("dup2", `os\.dup2\(\s*[a-z_][a-z0-9_.]*\.fileno\(\)`),
				p("pty", `pty\.spawn\(\s*["'](?:/bin/)?(?:ba|z)?sh`),
				p("sh bash zsh", `\[\s*["'](?:/bin/)?(?:ba|z)?sh["']\s*,\s*["']-i["']\s*\]`),
				p("fsockopen", `fsockopen\([^\n]*\b(?:exec|shell_exec|system|passthru|proc_open|popen)\b`),
				p("tcpsocket", `tcpsocket\.(?:new|open)\([^\n]*\b(?:exec|spawn|system|popen)\b`),
				p("socket", `\buse\s+socket\b[^\n]*\bexec\b`),
				p("tcpclient", `net\.sockets\.tcpclient\b`),
				p("child_process spawn", `child_process\b[^\n]*\bnet\.socket\b|\bnew\s+net\.socket\(\)[^\n]*\bspawn\(|\bspawn\(\s*["'](?:/bin/)?(?:ba|z)?sh["'][^\n]*\.pipe\(`),
			},
			check: func(l *line, h *hit) bool {
				m := l.lower[h.start:h.end]
				switch {
				case strings.HasPrefix(m, "pty.spawn"):
					h.sev = High
					h.msg = "spawns an interactive shell on a terminal the program controls"
				case strings.Contains(m, "tcpclient") && !psExecution().MatchString(l.win()):
					h.sev = Medium
					h.msg = "opens a raw TCP connection from PowerShell"
				}
				return true
			},
			msg: "connects a shell to a remote host (a reverse or bind shell)",
		},
		{
			id: ruleTunnel, kind: kindCommand, sev: Medium,
			pats: []pat{
				p("ngrok", `ngrok\s+(?:http|tcp|tls|start)\b`),
				p("cloudflared", `cloudflared\s+(?:tunnel|access\s+tcp)\b`),
				p("serveo chisel frpc bore", `serveo\.net\b|\bchisel\s+(?:client|server)\b|\bfrpc\b|\bbore\s+local\b`),
				pl([]string{"localhost.run"}, `localhost\.run\b`),
				p("ssh", `\bssh\s+[^\n]*-r\s*[0-9]+:`),
			},
			msg: "opens a tunnel that exposes this machine to the internet",
		},
		{
			id: ruleRemoteCodeExec, kind: kindCommand, sev: Critical,
			pats: []pat{
				p("exec eval", `(?:^|[^.\w])(?:exec|eval)\s*\(\s*(?:await\s+)?(?:requests|httpx|urllib\d?(?:\.request)?|urlopen|session)\b|(?:^|[^.\w])(?:exec|eval)\s*\([^\n]*\b(?:requests\.get|httpx\.get|urlopen|urllib\.request\.urlopen)\(`),
				p("fetch responsetext response", `\b(?:eval|new\s+function)\s*\([^\n]*\b(?:fetch\(|responsetext\b|xhr\.response\b)`),
				p("curl wget", `\b(?:python[0-9.]*|node|perl|ruby|php|deno)\s+-(?:c|e|r)\s+["']?\$\(\s*(?:curl|wget)\b|(?:^|[\s;&|])(?:source|\.)\s+<\(\s*(?:curl|wget)\b`),
				p("pickle cpickle dill marshal", `\b(?:pickle|cpickle|dill|marshal)\.loads?\([^\n]*(?:\brequests\b|\burlopen\b|\.content\b|\.read\(\))`),
				p("mshta regsvr32 rundll32 certutil bitsadmin", `mshta(?:\.exe)?\s+(?:https?|vbscript|javascript):|regsvr32(?:\.exe)?\s+[^\n]*/i:https?|rundll32(?:\.exe)?\s+[^\n]*javascript:|certutil(?:\.exe)?\s+[^\n]*-urlcache\b|bitsadmin(?:\.exe)?\s+[^\n]*/transfer\b`),
			},
			msg: "runs code fetched from the network",
		},
		{
			id: ruleEvalDecoded, kind: kindCommand, sev: Critical,
			pats: []pat{
				p("exec eval", `(?:^|[^.\w])(?:exec|eval)\s*\(\s*(?:compile\s*\(\s*)?open\(\s*[rfb]?["'](?:/tmp/|/var/tmp/|/dev/shm/|[^"'\n]*/\.)[^"'\n]*["']`),
				p("exec eval compile", `(?:^|[^.\w])(?:exec|eval|compile)\s*\([^\n]*\b(?:b64decode|b32decode|b16decode|a85decode|b85decode|decodebytes|decodestring|fromhex|unhexlify|decompress|loads|codecs\.decode|rot_?13|zlib|base64)\b`),
				p("atob unescape decodeuricomponent fromcharcode", `\b(?:eval|new\s+function|settimeout|setinterval)\s*\(\s*(?:atob|unescape|decodeuricomponent|string\.fromcharcode|buffer\.from)\s*\(`),
				p("buffer", `\beval\s*\([^\n]*\bbuffer\.from\([^\n]*["'](?:base64|hex)["']|\bnew\s+function\s*\(\s*buffer\.from\(`),
				p("eval", `\beval\s+["']?\$\(\s*(?:echo|printf|base64|xxd|openssl)\b[^)]*(?:base64|xxd|-d\b)`),
				p("base64_decode gzinflate gzuncompress gzdecode str_rot13 hex2bin convert_uudecode", `\b(?:eval|assert)\s*\(\s*(?:base64_decode|gzinflate|gzuncompress|gzdecode|str_rot13|hex2bin|convert_uudecode)\s*\(`),
				p("decode_base64 decode64 frombase64string", `\beval\s*\(?\s*(?:decode_base64|mime::base64|base64\.decode64|\[system\.convert\]::frombase64string)`),
				p("gzipstream deflatestream", `\b(?:iex|invoke-expression)\b[^\n]*\b(?:gzipstream|deflatestream)\b`),
			},
			msg: "runs code it first decodes, so a reader never sees it",
		},
		{
			id: ruleStringReassembly, kind: kindCommand, sev: High,
			pats: []pat{
				p("chr", `(?:\bchr\(\s*[0-9]+\s*\)\s*\+\s*){5,}`),
				p("getattr", `getattr\(\s*(?:__builtins__|builtins|__import__\()`),
				p("__import__", `__import__\(\s*["'][a-z_]*["']\s*\+`),
				p("globals", `globals\(\)\s*\[\s*["'][a-z_]*["']\s*\+`),
				pl([]string{"[::-1]"}, `(?:^|[^.\w])(?:exec|eval|system|popen)\s*\([^\n]*\[::-1\]`),
				p("reverse", `\.split\(\s*["']["']\s*\)\.reverse\(\)\.join\(`),
			},
			msg: "builds a name or a command from pieces at run time, so that no reader sees it whole",
		},
		{
			id: ruleDestructive, kind: kindCommand, sev: Critical,
			pats: []pat{
				p("rm", `\brm\s+(?:(?:-[a-z]+|--[a-z-]+)\s+)*(?:-[a-z]*r[a-z]*|--recursive)\s+(?:(?:-[a-z]+|--[a-z-]+)\s+)*["']?(?:/|/\*|~|~/|~/\*|\$home|\$\{home\}|\$home/\*|\$\{home\}/\*|/home|/users|/etc|/usr|/var|/boot|/bin|/sbin|/lib|/opt|/root|/system|c:\\)["']?(?:\s|;|&|\||\)|$)`),
				p("mkfs", `mkfs(?:\.[a-z0-9]+)?\s+[^\n]*/dev/`),
				p("dd", `\bdd\s+[^\n]*\bof=/dev/(?:sd|hd|nvme|xvd|vd|mmcblk|disk|rdisk)`),
				p("sda sdb sdc hda nvme0n1 nvme0 disk0 disk1 disk2 mmcblk0 shred", `>\s*/dev/(?:sd[a-z]|nvme[0-9]|hd[a-z]|disk[0-9]|mmcblk)|\bshred\b[^\n]*/dev/`),
				p("wipefs", `wipefs\s+(?:-[a-z]*a|--all)`),
				pl([]string{":(){", ":|:&"}, `:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:`),
				p("chmod chown", `\bchmod\s+-r\s+(?:0?000|0?777)\s+/(?:\s|$)|\bchown\s+-r\s+\S+\s+/(?:\s|$)`),
				p("find", `\bfind\s+(?:/|~|\$home)\s+[^\n]*(?:-delete\b|-exec\s+rm\b)`),
				p("rmtree", `shutil\.rmtree\(\s*(?:["']/["']|["']~/?["']|os\.path\.expanduser\(\s*["']~/?["']\s*\)|path\.home\(\)|pathlib\.path\.home\(\)|os\.environ\[\s*["']home["']\s*\]|["']c:\\\\?["'])`),
				p("rmsync rmdirsync rm rmdir", `\bfs\.(?:rmsync|rmdirsync|rm|rmdir)\(\s*(?:os\.homedir\(\)|["']/["']|process\.env\.home\b)`),
				p("item", `\bremove-item\b[^\n]*-recurse[^\n]*\s(?:c:\\|\$env:userprofile|\$home|~)(?:\\?\*?)?(?:\s|$)`),
				p("format", `\bformat\s+[a-z]:\s*(?:/|$)`),
				p("del erase rd rmdir", `\b(?:del|erase)\s+(?:/[a-z]\s+)*["']?c:\\(?:\*|windows|users)|\b(?:rd|rmdir)\s+/s\s+(?:/q\s+)?["']?c:\\`),
				p("vssadmin wmic bcdedit cipher", `vssadmin(?:\.exe)?\s+delete\s+shadows\b|\bwmic\s+shadowcopy\s+delete\b|\bbcdedit\b[^\n]*recoveryenabled\s+no\b|\bcipher\s+/w:`),
				p("truncate", `\btruncate\s+-s\s*0\s+/(?:etc|var|usr|boot)/`),
			},
			msg: "destroys data: deletes a home or system folder, wipes a disk or its backups",
		},
		{
			id: ruleAntiForensics, kind: kindCommand, sev: High,
			pats: []pat{
				p("history", `\bhistory\s+-c\b|\bhistory\s+-w\s+/dev/null|\bset\s+\+o\s+history\b`),
				p("histfile histsize", `\bunset\s+histfile\b|\bhistfile=/dev/null\b|\bhistsize=0\b`),
				p("bash_history zsh_history sh_history", `\brm\s+[^\n]*\.(?:bash|zsh|sh)_history\b|>\s*~/\.(?:bash|zsh)_history\b|\bshred\b[^\n]*_history`),
				p("wevtutil eventlog", `wevtutil(?:\.exe)?\s+cl\b|clear-eventlog\b`),
				p("log", `\brm\s+(?:[^\n;&|]*\s)?-[a-z]*r[a-z]*\s+(?:[^\n;&|]*\s)?["']?/var/log\b`),
				p("journalctl", `\bjournalctl\s+[^\n]*--vacuum-(?:time|size)\b|\b(?:truncate\s+-s\s*0|shred)\s+[^\n]*/var/log/`),
			},
			msg: "erases the shell history or system logs, hiding what ran",
		},
		{
			id: ruleTamperAgentConfig, kind: kindCommand, sev: High,
			pats: []pat{
				p("agents claude gemini cursorrules clinerules windsurfrules copilot codex openclaw hermes cursor continue skillhub claude_desktop_config mcp hosts memory soul identity heartbeat",
					`(?:>>?\s*["']?[~$a-z0-9_./{}-]*|\btee\s+(?:-a\s+)?["']?[~$a-z0-9_./{}-]*|\bsed\s+-i\S*\s+[^\n]*?|\b(?:cp|mv|install|ln\s+-sf?)\s+\S+\s+["']?[~$a-z0-9_./{}-]*)`+agentConfigTarget),
				p("agents claude gemini cursorrules clinerules windsurfrules copilot codex openclaw hermes cursor continue skillhub claude_desktop_config mcp hosts memory soul identity heartbeat",
					`\b(?:open|writefile|appendfile|writefilesync|appendfilesync|write_text|set-content|add-content|out-file)\b[^\n]*`+agentConfigTarget),
				p("skill", `(?:>>?|\btee\s+(?:-a\s+)?|\b(?:cp|mv)\s+\S+\s+)\s*["']?(?:[~$a-z0-9_./{}-]*/)?(?:skills/[a-z0-9_*-]+|\.\./[a-z0-9_*-]+)/skill\.md\b`),
			},
			only: []Context{CtxCode, CtxDocCode, CtxScript, CtxConfig, CtxData},
			check: func(l *line, h *hit) bool {
				m := l.lower[h.start:h.end]
				switch {
				case strings.HasPrefix(m, "open") && !writeMode().MatchString(l.lower[h.start:l.winEnd]):
					return false // opened for reading
				case strings.Contains(m, "/etc/hosts"):
					h.msg = "rewrites /etc/hosts, redirecting names this machine looks up"
				}
				return true
			},
			msg: "writes into another agent's configuration or another skill, which persists past this skill",
		},
		{
			id: ruleTamperAgentConfig, kind: kindPhrase, sev: Medium,
			pats:  []pat{p("agents claude gemini cursorrules memory soul identity", `\b(?:add|append|write|insert|put|prepend|inject|save|record|store)\s+(?:[\w'.-]+\s+){0,8}?(?:to|into|in)\s+(?:(?:your|the|project'?s?|global|user|long-term|persistent)\s+)*(?:agents\.md|claude\.md|gemini\.md|memory\.md|soul\.md|identity\.md|\.cursorrules|~/\.claude/settings\.json)`)},
			check: notNegated,
			msg:   "tells the model to write into an agent's instruction file, where it persists across sessions",
		},
		{
			id: rulePermissionChange, kind: kindCommand, sev: High,
			pats: []pat{
				p("chmod", `\bchmod\s+(?:-[a-z]+\s+)*(?:0?[0-7]?[0-7][0-7][2367]|[ugo]*a[ugo]*\+[rx]*w|o\+[rx]*w|\+[rx]*w)\s`),
				p("chmod chmodsync", `\b(?:os\.chmod|fs\.chmod(?:sync)?|file\.chmod|os\.chmod)\s*\([^\n]*\b0o?[0-7]?[0-7][0-7][2367]\b`),
				p("sudo", `\bsudo\s+(?:-\S+\s+)*(?:chown|chgrp|chmod|chattr|setfacl)\b`),
				p("chown", `\bchown\s+(?:-[a-z]+\s+)*root\b`),
				p("icacls", `\bicacls\b[^\n]*\b(?:everyone|\*s-1-1-0):\(?[a-z,]*f`),
			},
			msg: "changes who may read or write files: makes them writable by every user, or gives them to root",
		},
		{
			id: rulePrivilegeEscalation, kind: kindCommand, sev: Critical,
			pats: []pat{
				p("sudoers nopasswd visudo", `/etc/sudoers\b|\bnopasswd\b|\bvisudo\b`),
				p("chmod", `\bchmod\s+(?:[ugoa]*\+[rwxt]*s[rwxt]*|[0-7]?[4-7][0-7]{3})\s`),
				p("setcap", `setcap\b[^\n]*\bcap_(?:setuid|setgid|sys_admin|sys_ptrace|dac_override|dac_read_search)\b`),
				p("passwd shadow group gshadow", `>>?\s*/etc/(?:passwd|shadow|group|gshadow)\b|\btee\s+(?:-a\s+)?/etc/(?:passwd|shadow|group)\b`),
				p("preload ld_preload", `/etc/ld\.so\.preload\b|\bld_preload=\S`),
				p("mppreference", `\bset-mppreference\b[^\n]*-disable|\badd-mppreference\b[^\n]*-exclusion`),
				p("enablelua fodhelper settings", `\breg(?:\.exe)?\s+add\b[^\n]*\\policies\\system\b[^\n]*\benablelua\b|\bfodhelper(?:\.exe)?\b|ms-settings\\shell\\open\\command`),
				p("usermod gpasswd", `\b(?:usermod|gpasswd)\s+(?:-[a-z]+\s+)*(?:-a?g|-a)\s*(?:sudo|wheel|admin|root|docker)\b`),
				p("pkexec", `\bpkexec\b`),
				p("docker", `\bdocker\s+run\b[^\n]*(?:--privileged\b|\s-v\s*["']?/:/)`),
				p("sock", `/var/run/docker\.sock:/var/run/docker\.sock`),
				p("nsenter chroot", `\bnsenter\s+[^\n]*(?:-t\s*1\b|--target\s+1\b)|\bchroot\s+/host\b`),
				p("sudo", `\becho\s+[^\n|]*\|\s*sudo\s+-s\b|\bsudo\s+-s\b[^\n]*<<<`),
			},
			check: func(l *line, h *hit) bool {
				if lesserPrivilege().MatchString(l.lower[h.start:h.end]) {
					h.sev = High
				}
				return true
			},
			msg: "raises its privileges: edits sudoers or system accounts, sets a setuid bit, turns off protections",
		},
		{
			id: rulePersistence, kind: kindCommand, sev: High,
			pats: []pat{
				p("crontab", `\|\s*crontab\s+-?\s*(?:$|[;&|)])|\bcrontab\s+[a-z0-9_./~$-]+\.(?:txt|cron|tab)\b|\(\s*crontab\s+-l[^)]*;\s*echo`),
				p("cron", `>>?\s*/etc/cron|>>?\s*/var/spool/cron|/etc/cron\.(?:d|daily|hourly|weekly|monthly)/\S`),
				p("reboot", `@reboot\b`),
				p("bashrc bash_profile bash_login profile zshrc zprofile zshenv zlogin fish", `(?:>>?|\btee\s+-a)\s*["']?(?:~|\$home|\$\{home\}|/root|/home/[^/\s]+|/users/[^/\s]+)/\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin|config/fish/config\.fish)\b|\bopen\([^\n]*\.(?:bashrc|bash_profile|zshrc|profile)\b[^\n]*["']a`),
				p("launchagents launchdaemons launchctl", `library/launch(?:agents|daemons)/|\blaunchctl\s+(?:load|bootstrap|submit)\b`),
				p("systemd systemctl", `(?:>>?|\btee(?:\s+-a)?|\bcp\s+\S+|\bmv\s+\S+)\s*["']?/etc/systemd/system/\S*|\.config/systemd/user/\S*\.(?:service|timer)|\bsystemctl\s+(?:--user\s+)?enable\b`),
				p("autostart currentversion schtasks scheduledtask startup", `\.config/autostart/|\\currentversion\\run(?:once)?\b|\bschtasks(?:\.exe)?\s+/create\b|\b(?:register|new)-scheduledtask\b|\\start menu\\programs\\startup\\|shell:startup`),
				p("authorized_keys", `(?:>>|\btee\s+-a)\s*["']?\S*authorized_keys\b`),
				p("hooks hookspath", `(?:>>?\s*|\btee\s+(?:-a\s+)?|\b(?:cp|mv|install|ln\s+-sf?)\s+\S+\s+|\b(?:open|writefile|writefilesync|write_text|set-content|out-file)\b[^\n]*)["']?[~$a-z0-9_./{}-]*\.git/hooks/[a-z-]+|\bgit\s+config\s+(?:--global\s+)?core\.hookspath\b`),
			},
			check: func(l *line, h *hit) bool {
				m := l.lower[h.start:h.end]
				payload := persistedPayload().MatchString(l.win())
				switch {
				case strings.Contains(m, "authorized_keys"):
					h.sev = Critical
					h.msg = "adds an SSH key that lets someone log in to this machine"
				case shellStartup().MatchString(m):
					h.sev = Medium
					h.msg = "appends to a shell start-up file, which runs in every new shell"
					if payload {
						h.sev = Critical
					}
				case strings.Contains(m, "systemctl"):
					h.sev = Medium
					h.msg = "enables a service that starts at every boot"
				case payload:
					h.sev = Critical
				}
				return true
			},
			msg: "installs something that runs again later by itself (cron, launch agent, systemd unit, start-up entry)",
		},
		{
			id: ruleCryptoMiner, kind: kindCommand, sev: Critical,
			pats: []pat{
				p("stratum stratum2", `stratum2?\+(?:tcp|ssl|tls)\b`),
				p("xmrig xmr cpuminer minerd ccminer nbminer lolminer phoenixminer ethminer", `xmrig(?:-proxy)?\b|\bxmr-stak\b|\bcpuminer(?:-multi|-opt)?\b|\bminerd\b|\bccminer\b|\bnbminer\b|\blolminer\b|\bphoenixminer\b|\bethminer\b`),
				p("rex", `\bt-rex\s+-a\b`),
				p("supportxmr minexmr moneroocean nanopool 2miners f2pool ethermine hashvault c3pool herominers unmineable minergate xmrpool nicehash viabtc antpool slushpool braiins zpool prohashing",
					`\b(?:supportxmr\.com|minexmr\.com|moneroocean\.stream|nanopool\.org|2miners\.com|f2pool\.com|ethermine\.org|hashvault\.pro|c3pool\.(?:com|org)|herominers\.com|unmineable\.com|minergate\.com|xmrpool\.eu|nicehash\.com|viabtc\.com|antpool\.com|slushpool\.com|braiins\.com|zpool\.ca|prohashing\.com)\b`),
				p("donate", `--donate-level\b`),
				p("coinhive coin cryptoloot coinimp webminepool", `\bcoin-?hive\b|\bcryptoloot\b|\bcoinimp\b|\bwebminepool\b`),
				p("algo", `"algo"\s*:\s*"(?:rx/0|cn/r|randomx|kawpow|ethash)"`),
			},
			check: func(l *line, h *hit) bool {
				if l.ctx == CtxData {
					h.kind = kindIndicator // a data file that configures a miner is its configuration
				}
				return true
			},
			msg: "runs or configures a cryptocurrency miner",
		},
	}
}

// Regular expressions the checks use.
var (
	transferVerb     = lazyRE(`^(?:send|share|leak|post|upload|forward|transmit)`)
	credentialWords  = lazyRE(`ssh|private|wallet|seed|recovery|mnemonic|\.env|cookies|keychain|id_rsa`)
	archiveWords     = lazyRE(`\.(?:zip|rar|7z)\b|\barchive\b`)
	passwordWord     = lazyRE(`^(?:password|passcode|pass|pwd)`)
	identityFlag     = lazyRE(`(?:-i|identityfile|--identity|-identity|--private-key|key_filename\s*=)\s*["']?$`)
	encodedOrRecon   = lazyRE(`base64|b64encode|b32encode|hexlify|\.hex\(\)|tostring\(\s*["'](?:hex|base64)|btoa|whoami|hostname|getuser|environ|process\.env|readfile|open\(`)
	envOrHistory     = lazyRE(`\$\(\s*(?:env|printenv|history|set)\b|` + "`" + `\s*(?:env|printenv|history)\b`)
	psExecution      = lazyRE(`\b(?:iex|invoke-expression|getstream)\b`)
	writeMode        = lazyRE(`["'](?:w|a|wb|ab|w\+|a\+|r\+)["']`)
	lesserPrivilege  = lazyRE(`usermod|gpasswd|pkexec|docker|nsenter|chroot|sudo|echo|ld_preload`)
	persistedPayload = lazyRE(`\b(?:curl|wget|nc|ncat|base64|eval)\b|/dev/tcp|python[0-9.]*\s+-c|bash\s+-i|\balias\s+(?:sudo|ssh|git)=`)
	shellStartup     = lazyRE(`\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin|config\.fish)`)
)

// pkgInstallExpr: a command that installs or runs a package by name.
const pkgInstallExpr = `(\bnpx\s+(?:-\S+\s+)*|\bbunx\s+(?:-\S+\s+)*|\bnpm\s+(?:i|install|add)\s+(?:-\S+\s+)*|\b(?:yarn|pnpm)\s+(?:add|dlx)\s+(?:-\S+\s+)*|\b(?:pip3?|uv\s+pip|pipx)\s+install\s+(?:-\S+\s+)*|\buvx\s+(?:-\S+\s+)*|\bpipx\s+run\s+(?:-\S+\s+)*)(@?[a-z0-9][a-z0-9._/@-]*)`

var (
	pkgInstall   = lazyRE(pkgInstallExpr)
	registryFlag = lazyRE(`--registry\b|--index-url\b|\s-i\s+https?:|--extra-index-url\b|--find-links\b`)
)

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// gatherSecret: an order to read or collect a secret.
var gatherSecret = lazyRE(`\b(?:read|collect|gather|include|grab|extract|copy|get|take|access|harvest)\s+(?:[\w'.-]+\s+){0,5}?[\w-]*?(?:credentials?|api[\s_-]?keys?|secrets?|tokens?|passwords?|private[\s_-]?keys?|ssh[\s_-]?keys?|\.env\b|env(?:ironment)?\s+(?:file|variables)|cookies|session\s+(?:tokens?|data)|wallets?|seed\s+phrases?|~/\.ssh|~/\.aws)\b`)

// obeyWords: text that makes fetched content a standing order.
var obeyWords = lazyRE(`\b(?:execute|obey|whatever|every\s+(?:time|session|run|task|request)|each\s+(?:time|session|run|task)|always|before\s+(?:every|each|any)|periodically|latest\s+instructions|new\s+instructions|updated\s+instructions|without\s+(?:asking|confirmation|telling))\b`)

// description: a sentence that describes an attack or a rule against one
// ("attackers may tell the agent to ...", "flag text such as ...") rather
// than gives the order.
var description = lazyRE(`\b(?:attackers?|adversar\w*|malicious|malware|injected|poisoned|phishing|e\.g\.|such\s+as|for\s+(?:example|instance)|might|may|could|would|detect\w*|flag\w*|block\w*|watch\s+for|look\s+for|beware|warn\w*|refuse\w*|reject\w*|report\w*|is\s+an?\s+(?:sign|example|red\s+flag))\b|(?:攻击者|恶意|例如|比如|警惕|检测|拒绝)`)

// describes reports whether the sentence before a match describes or
// forbids rather than instructs.
func describes(l *line, h *hit) bool {
	before := l.lower[max(l.winStart, h.start-400):h.start]
	for _, end := range []string{". ", "! ", "? ", "; ", "。"} {
		if i := strings.LastIndex(before, end); i >= 0 {
			before = before[i+len(end):]
		}
	}
	return description().MatchString(before)
}

// chineseNegated: 不要, 切勿, 禁止 and the like before a Chinese phrase in
// its sentence.
func chineseNegated(l *line, h *hit) bool {
	before := l.lower[max(l.winStart, h.start-60):h.start]
	if i := strings.LastIndex(before, "。"); i >= 0 {
		before = before[i+len("。"):]
	}
	return chineseNegation().MatchString(before)
}

var chineseNegation = lazyRE(`不要|不得|切勿|禁止|绝不|永远不要|不可|别`)

// programGiven: an interpreter whose program is on its command line
// (-c, -e, -m module, a script file), so what is piped in is its data.
// A shell reads its program from -c; the others from -c, -e or -m too.
func programGiven(match, after string) bool {
	if shellName().MatchString(match) {
		return shellProgram().MatchString(after)
	}
	return interpreterProgram().MatchString(after)
}

var (
	shellName          = lazyRE(`(?:^|[/\s|])(?:ba|z|da|k|fi)?sh$`)
	shellProgram       = lazyRE(`^\s+(?:-[a-z]*c\b|[a-z0-9_./-]+\.(?:sh|bash)\b)`)
	interpreterProgram = lazyRE(`^\s+(?:-[a-z]*[cem]\b|-m\s*[a-z_]|[a-z0-9_./-]+\.(?:py|js|mjs|cjs|rb|pl|php)\b)`)
)

// secretRef: a reference to a secret-looking variable in shell ($NAME,
// ${NAME}, $(NAME) as Makefiles write it), lower-cased.
var secretRef = lazyRE(`\$[({]?[a-z_][a-z0-9_]*(?:key|token|secret|passw(?:or)?d|pwd|credential|auth)[a-z0-9_]*\b`)

// notSecretInSSH: what follows ~/.ssh when it names no secret.
var notSecretInSSH = lazyRE(`^[/\\](?:[a-z0-9_.-]*\.pub|config|known_hosts[a-z0-9_.]*|authorized_keys)\b`)

// filtered: an environment listing piped into a filter.
var filtered = lazyRE(`^\s*(?:grep|sort|less|head|wc|awk)\b`)

// conditional: a clause that limits an instruction to a case.
var conditional = lazyRE(`^\s*(?:if|when|unless|for|on|in\s+case)\b`)

// strongConcealment: phrasings that keep an action from the user on
// purpose.
var strongConcealment = lazyRE(`^(?:do\s+not|don'?t|never|without)\s+(?:ever\s+)?(?:tell|inform|notify|alert|let)|^(?:secretly|covertly)|^hide|^keep|^(?:without|before)\s+the`)

// hasDestination reports whether text, which starts at a verb of sending,
// soon names where: a URL, a webhook, an e-mail address, or "to the
// server" and the like.
func hasDestination(text string) bool {
	if len(text) > 160 {
		text = text[:160]
	}
	return strings.Contains(text, "://") || strings.Contains(text, "webhook") || destinationPhrase().MatchString(text)
}

var destinationPhrase = lazyRE(`[a-z0-9._-]+@[a-z0-9-]+\.[a-z]|\b(?:to|at|via|into)\s+(?:(?:the|this|that|our|my|a|an|your|remote|external|following)\s+){1,3}(?:\w+\s+)?(?:endpoint|server|url|address|host)\b`)

// catOnly: a command substitution that reads a file.
var catOnly = lazyRE(`(?:\$\(|` + "`" + `)\s*cat\b`)

// exemptConcealment: guidance on what to tell the user, not concealment.
var exemptConcealment = lazyRE(`\b(?:unless|except|until|confirm|confirmation|approv\w*|permission|consent|ask\s+the\s+user|first\s+ask|yet)\b`)

// agentConfigTarget: files another agent reads as instructions, other
// skills, skillkit's bookkeeping and /etc/hosts.
const agentConfigTarget = `(?:agents\.md|claude\.md|gemini\.md|memory\.md|soul\.md|identity\.md|heartbeat\.md|\.claude/memory|\.openclaw/workspace/|\.cursorrules|\.clinerules|\.windsurfrules|copilot-instructions\.md|\.claude/(?:settings(?:\.local)?\.json|commands/|agents/|skills/|hooks)|\.codex/|\.openclaw/|\.hermes/|\.gemini/|\.cursor/|\.continue/|\.skillhub/|claude_desktop_config\.json|\.mcp\.json|/etc/hosts\b|skills/[a-z0-9_-]+/skill\.md|\.\./[a-z0-9_-]+/skill\.md)`

// envCall captures the name of an environment variable a program reads
// through a function or an object; shell's $NAME is read by envNames.
var envCall = lazyRE(
	`os\.environ\s*\[\s*["']([a-z0-9_]+)["']`, `os\.environ\.get\(\s*["']([a-z0-9_]+)["']`, `\bgetenv\(\s*["']([a-z0-9_]+)["']`,
	`process\.env\.([a-z0-9_]+)`, `process\.env\[\s*["']([a-z0-9_]+)["']`, `\benv\[\s*["']([a-z0-9_]+)["']`,
	`\benvironment\.getenvironmentvariable\(\s*["']([a-z0-9_]+)["']`, `deno\.env\.get\(\s*["']([a-z0-9_]+)`,
)

// envNames returns the variables a lower-cased text reads: $NAME, ${NAME}
// and $env:NAME, and the calls envCall knows.
func envNames(s string) []string {
	var out []string
	for i := strings.IndexByte(s, '$'); i >= 0 && i < len(s); {
		j := i + 1
		if strings.HasPrefix(s[j:], "{") {
			j++
		} else if strings.HasPrefix(s[j:], "env:") {
			j += 4
		}
		k := j
		for k < len(s) && (wordByte(s[k])) {
			k++
		}
		if k > j && (s[j] < '0' || s[j] > '9') {
			out = append(out, s[j:k])
		}
		next := strings.IndexByte(s[k:], '$')
		if next < 0 {
			break
		}
		i = k + next
	}
	if strings.Contains(s, "environ") || strings.Contains(s, "getenv") || strings.Contains(s, "env[") ||
		strings.Contains(s, "process.env") || strings.Contains(s, "deno.env") {
		for _, m := range envCall().FindAllStringSubmatch(s, -1) {
			for _, name := range m[1:] {
				if name != "" {
					out = append(out, name)
				}
			}
		}
	}
	return out
}

// secretName: a variable that holds a secret.
var secretName = lazyRE(`key|token|secret|passw|pwd|credential|auth|private|session|cookie|_pat$|^aws_|^gh_|^github_|^npm_|^pypi_|^openai|^anthropic`)

// recordEnvReads records the secret-looking variables a line reads; it
// never reports.
func recordEnvReads(l *line, _ *hit) bool {
	for _, name := range envNames(l.win()) {
		if secretName().MatchString(name) && !slices.Contains(l.file.env, name) {
			l.file.env = append(l.file.env, name)
		}
	}
	return false
}
