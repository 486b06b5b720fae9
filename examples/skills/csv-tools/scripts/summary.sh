#!/usr/bin/env bash
# Print the row count (without the header) and the column count of a CSV file.
set -euo pipefail
awk -F, 'NR == 1 { cols = NF } END { printf "rows: %d\ncolumns: %d\n", NR - 1, cols }' "$1"
