#!/usr/bin/env bash
# Runs go vet and go test -race in every example that is a Go module of its
# own (examples/*/go.mod: the MCP, OpenAI and Anthropic adapters). The root
# module's `go test ./...` never enters them, so CI calls this script too.
# It goes on after a failing module and exits non-zero if any failed.
set -euo pipefail
cd "$(dirname "$0")"

modules=()
for mod in */go.mod; do
  [ -e "$mod" ] && modules+=("$(dirname "$mod")")
done
if [ ${#modules[@]} -eq 0 ]; then
  echo "test-modules.sh: no example module found" >&2
  exit 1
fi

failed=()
for dir in "${modules[@]}"; do
  echo "== examples/$dir"
  if ! (cd "$dir" && go vet ./... && go test -race ./...); then
    failed+=("$dir")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "test-modules.sh: failed in ${failed[*]}" >&2
  exit 1
fi
