#!/usr/bin/env bash
# Runs `go mod tidy` in every module of the workspace (go.work) other than
# the root: the adapters and the example programs.
#
# `go mod tidy` ignores go.work, so it cannot resolve a skillkit version
# that is not on the module proxy yet. For each replacement in go.work (the
# versions not published yet, see RELEASING.md) this script tidies against
# a copy of the module's go.mod that carries the same replacement, then
# writes the result back without it: no go.mod ever holds a replace
# directive. With no replacement in go.work it is plain `go mod tidy`.
#
# Usage: adapters/tidy.sh [MODULE_DIR...]   (default: every module but the root)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# "path version dir" for each replacement, dir absolute.
mapfile -t replaces < <(go work edit -json | python3 -c '
import json, os, sys
w = json.load(sys.stdin)
for r in w.get("Replace") or []:
    print(r["Old"]["Path"] + "@" + r["Old"].get("Version", ""), os.path.abspath(r["New"]["Path"]))
')
mapfile -t modules < <(go work edit -json | python3 -c '
import json, sys
for u in json.load(sys.stdin)["Use"]:
    if u["DiskPath"] != ".":
        print(u["DiskPath"])
')

[ $# -gt 0 ] && modules=("$@")
for dir in "${modules[@]}"; do
  echo "== $dir"
  cp "$dir/go.mod" "$tmp/go.mod"
  if [ -f "$dir/go.sum" ]; then cp "$dir/go.sum" "$tmp/go.sum"; else : >"$tmp/go.sum"; fi
  for r in "${replaces[@]}"; do
    set -- $r
    go mod edit -modfile="$tmp/go.mod" -replace="$1=$2"
  done
  (cd "$dir" && GOWORK=off go mod tidy -modfile="$tmp/go.mod")
  for r in "${replaces[@]}"; do
    set -- $r
    go mod edit -modfile="$tmp/go.mod" -dropreplace="$1"
  done
  cp "$tmp/go.mod" "$dir/go.mod"
  cp "$tmp/go.sum" "$dir/go.sum"
  [ -s "$dir/go.sum" ] || rm "$dir/go.sum"
done
