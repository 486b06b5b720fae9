#!/usr/bin/env bash
# Builds, vets and tests every adapter against the newest versions of its
# direct dependencies (the framework SDKs), for a maintainer to run before a
# release (RELEASING.md). Not run by CI: it needs the module proxy and its
# answer changes from day to day.
#
# Each adapter is copied to a temporary folder (the repository is not
# touched); the copy's go.mod gets a replace directive pointing the core at
# this checkout (a throwaway copy, never committed), its direct
# requirements are upgraded with `go get PATH@latest`, and the copy is
# tidied, built, vetted and tested. It prints the versions it moved to and
# exits non-zero if an adapter fails. A new major version of an SDK (a new
# import path) is not tried: the script names the modules it upgraded.
# Without arguments it also builds the Genkit and langchaingo snippets of
# docs/adapters.md against the latest Genkit and langchaingo.
#
# Usage: adapters/check-latest.sh [ADAPTER...]   (default: every adapter)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The copies sit where the adapters do, two folders down, beside what
# their tests read from the repository: ../../examples/skills, and the
# TypeScript MCP SDK's lock file in ../../.ci/mcp-ts (adapters/mcp). A
# test that fails for a missing file would be reported as an SDK change.
ln -s "$root/examples" "$tmp/examples"
ln -s "$root/.ci" "$tmp/.ci"
mkdir "$tmp/adapters"

adapters=("$@")
if [ ${#adapters[@]} -eq 0 ]; then
  for mod in "$root"/adapters/*/go.mod; do adapters+=("$(basename "$(dirname "$mod")")"); done
fi

failed=()
for name in "${adapters[@]}"; do
  echo "== adapters/$name"
  dir="$tmp/adapters/$name"
  cp -R "$root/adapters/$name" "$dir"
  if ! (
    set -e
    cd "$dir"
    export GOWORK=off
    go mod edit -replace="github.com/skillkit-go/skillkit=$root"
    mapfile -t direct < <(go mod edit -json | python3 -c '
import json, sys
for r in json.load(sys.stdin).get("Require") or []:
    if not r.get("Indirect") and not r["Path"].startswith("github.com/skillkit-go/"):
        print(r["Path"])
')
    for p in "${direct[@]}"; do
      before=$(go list -m -f '{{.Version}}' "$p")
      go get "$p@latest"
      echo "   $p $before -> $(go list -m -f '{{.Version}}' "$p")"
    done
    go mod tidy
    go build ./...
    go vet ./...
    go test ./...
  ); then
    failed+=("$name")
  fi
done
# The Genkit and langchaingo snippets of docs/adapters.md, against their
# latest versions: each Go block of that page, under the imports it uses.
if [ $# -eq 0 ]; then
  echo "== docs/adapters.md snippets"
  snip="$tmp/snippets"
  mkdir "$snip"
  if ! (
    set -e
    cd "$snip"
    export GOWORK=off
    go mod init example.com/snippets >/dev/null
    go mod edit -require=github.com/skillkit-go/skillkit@v0.1.0 -replace="github.com/skillkit-go/skillkit=$root"
    python3 - "$root/docs/adapters.md" <<'PY'
import re, sys
doc = open(sys.argv[1]).read()
imports = {
    "GenkitTools": ['"encoding/json"', '"github.com/firebase/genkit/go/ai"', '"github.com/firebase/genkit/go/genkit"',
                    '"github.com/skillkit-go/skillkit/tools"'],
    "LangchainTools": ['"context"', '"encoding/json"', '"github.com/skillkit-go/skillkit/tools"',
                       'lctools "github.com/tmc/langchaingo/tools"'],
}
blocks = re.findall(r"```go\n(.*?)```", doc, re.S)
for name, imps in imports.items():
    body = next(b for b in blocks if "func " + name + "(" in b)
    with open(name.lower() + ".go", "w") as f:
        f.write("package snippets\n\nimport (\n\t" + "\n\t".join(imps) + "\n)\n\n" + body)
PY
    go get github.com/firebase/genkit/go@latest github.com/tmc/langchaingo@latest
    go mod tidy
    go vet ./...
  ); then
    failed+=("docs/adapters.md")
  fi
fi

if [ ${#failed[@]} -gt 0 ]; then
  echo "check-latest.sh: failed against the latest SDKs: ${failed[*]}" >&2
  exit 1
fi
echo "check-latest.sh: every adapter builds and passes its tests against the latest SDKs"
