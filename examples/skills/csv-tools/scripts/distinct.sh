#!/usr/bin/env bash
# Print the distinct values of column N (1-based) of a CSV file with counts.
set -euo pipefail
awk -F, -v col="$2" 'NR > 1 { n[$col]++ } END { for (v in n) printf "%d\t%s\n", n[v], v }' "$1" | sort -rn
