#!/usr/bin/env bash
# Print the header of a CSV file, one numbered column per line.
set -euo pipefail
head -n 1 "$1" | tr ',' '\n' | nl -w2 -s': '
