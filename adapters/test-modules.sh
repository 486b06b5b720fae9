#!/usr/bin/env bash
# Checks every module of the workspace (go.work) other than the root: the
# adapters under adapters/ and the example programs that are modules of
# their own. The root module's `go test ./...` never enters them, so CI
# (.ci/run) calls this script too. For each module: go vet, staticcheck
# (when STATICCHECK names the binary) and go test -race, through the
# workspace, so an adapter builds against the core in this tree. Then
# adapters/outside-workspace.sh checks that a module outside the tree can
# import the adapters. It goes on after a failing module and exits non-zero
# if any failed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

mapfile -t modules < <(go work edit -json | python3 -c '
import json, sys
for u in json.load(sys.stdin)["Use"]:
    if u["DiskPath"] != ".":
        print(u["DiskPath"].removeprefix("./"))
')
if [ ${#modules[@]} -eq 0 ]; then
  echo "test-modules.sh: go.work lists no module besides the root" >&2
  exit 1
fi
# Every go.mod under adapters/ and examples/ must be in the workspace, or
# nothing would test it.
for mod in adapters/*/go.mod examples/*/go.mod; do
  dir=$(dirname "$mod")
  if ! printf '%s\n' "${modules[@]}" | grep -qx "$dir"; then
    echo "test-modules.sh: $dir has a go.mod but go.work does not use it" >&2
    exit 1
  fi
done
if grep -l '^replace\|^\s*replace ' go.mod adapters/*/go.mod examples/*/go.mod 2>/dev/null; then
  echo "test-modules.sh: a go.mod holds a replace directive; hosts would not see it (RELEASING.md)" >&2
  exit 1
fi

failed=()
for dir in "${modules[@]}"; do
  echo "== $dir"
  if ! (cd "$dir" && go vet ./... && { [ -z "${STATICCHECK:-}" ] || "$STATICCHECK" ./...; } && go test -race ./...); then
    failed+=("$dir")
  fi
done
echo "== a module outside the repository"
adapters/outside-workspace.sh || failed+=("outside-workspace")
if [ ${#failed[@]} -gt 0 ]; then
  echo "test-modules.sh: failed in ${failed[*]}" >&2
  exit 1
fi
