#!/usr/bin/env bash
# Builds a host module that lives outside the repository and imports the
# MCP and Eino adapters through a workspace, as a host developing against
# this checkout would: a temporary folder holds the host's go.mod (requiring
# the adapters at their release version, no replace directive) and a go.work
# that uses the host and this repository's modules. It checks that the
# adapters' go.mod files hold everything a host needs, and that nothing
# depends on being inside this tree. Then it builds the same host without a
# workspace, with the replace lines the README tells hosts to use before
# the first release. Run by adapters/test-modules.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir "$tmp/host"
cat >"$tmp/host/go.mod" <<MOD
module example.com/host

go 1.25.0

require (
	github.com/skillkit-go/skillkit v0.1.0
	github.com/skillkit-go/skillkit/adapters/eino v0.1.0
	github.com/skillkit-go/skillkit/adapters/mcp v0.1.0
)
MOD
cat >"$tmp/host/main.go" <<'GO'
// Command host serves the skills of a folder over MCP and lists them as
// Eino tools: the two adapters side by side in one program.
package main

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skillkit-go/skillkit"
	einotools "github.com/skillkit-go/skillkit/adapters/eino"
	mcptools "github.com/skillkit-go/skillkit/adapters/mcp"
	"github.com/skillkit-go/skillkit/tools"
)

func main() {
	ctx := context.Background()
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: os.Args[1]})
	if err != nil {
		log.Fatal(err)
	}
	defer kit.Close()
	ts, err := kit.Toolset(ctx, tools.Agent{})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := mcptools.NewServer(&mcp.Implementation{Name: "host", Version: "1"}, ts.Tools, nil); err != nil {
		log.Fatal(err)
	}
	eino, err := einotools.New(ts.Tools, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range eino.Tools() {
		info, err := t.Info(ctx)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(info.Name)
	}
}
GO
# The workspace: the host and this repository's modules. The versioned
# replacements are those of the repository's go.work (versions the proxy
# does not have yet; see RELEASING.md), with absolute paths.
(
  cd "$tmp"
  go work init ./host "$root" "$root/adapters/mcp" "$root/adapters/eino"
  go work edit -go="$(cd "$root" && go work edit -json | python3 -c 'import json,sys; print(json.load(sys.stdin)["Go"])')"
  cd "$root" && go work edit -json | python3 -c '
import json, os, sys
for r in json.load(sys.stdin).get("Replace") or []:
    old = r["Old"]["Path"] + ("@" + r["Old"]["Version"] if r["Old"].get("Version") else "")
    print(old + "=" + os.path.abspath(r["New"]["Path"]))
' | while read -r rep; do (cd "$tmp" && go work edit -replace="$rep"); done
)
cd "$tmp/host"
go build -o "$tmp/host-bin" .
names=$("$tmp/host-bin" "$root/examples/skills")
if [ "$(echo $names)" != "read_skill read_skill_file execute_skill skill_manage" ]; then
  echo "outside-workspace.sh: the host listed: $names" >&2
  exit 1
fi
echo "outside-workspace.sh: a host outside the repository built with adapters/mcp and adapters/eino"

# The same host without a workspace, with the replace lines the "before the
# first release" box of the README gives (the box in docs/adapters.md must
# say the same), the clone being this checkout: what a newcomer types
# before v0.1.0 is on the module proxy.
mkdir "$tmp/replaced"
cp "$tmp/host/main.go" "$tmp/replaced/"
python3 - "$root" "$tmp/replaced/go.mod" <<'PY'
import re, sys
root, out = sys.argv[1], sys.argv[2]
def box(path):
    text = open(path).read()
    start = text.index("> **Before the first release.**")
    block = re.search(r"> ```\n(.*?)> ```", text[start:], re.S).group(1)
    return "\n".join(line[2:] if line.startswith("> ") else line[1:] for line in block.splitlines())
readme, adapters = box(root + "/README.md"), box(root + "/docs/adapters.md")
if readme != adapters:
    sys.exit("outside-workspace.sh: the boxes of README.md and docs/adapters.md differ")
replace = re.search(r"replace \(\n.*?\n\)", readme, re.S).group(0)
if "/path/to/skillkit =>" in replace or replace.count("/path/to/skillkit") != 6:
    sys.exit("outside-workspace.sh: the box should replace six modules with /path/to/skillkit")
with open(out, "w") as f:
    f.write("module example.com/host\n\ngo 1.25.0\n\nrequire (\n"
            "\tgithub.com/skillkit-go/skillkit v0.1.0\n"
            "\tgithub.com/skillkit-go/skillkit/adapters/eino v0.1.0\n"
            "\tgithub.com/skillkit-go/skillkit/adapters/mcp v0.1.0\n)\n\n"
            + replace.replace("/path/to/skillkit", root) + "\n")
PY
cd "$tmp/replaced"
GOWORK=off go mod tidy
GOWORK=off go build -o "$tmp/replaced-bin" .
names=$("$tmp/replaced-bin" "$root/examples/skills")
if [ "$(echo $names)" != "read_skill read_skill_file execute_skill skill_manage" ]; then
  echo "outside-workspace.sh: the host built with the README's replace lines listed: $names" >&2
  exit 1
fi
echo "outside-workspace.sh: a host outside the repository built with the README's replace lines, without a workspace"
