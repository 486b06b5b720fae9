# Reads {"mode": "..."} and behaves accordingly.
input=$(cat)
mode=$(printf '%s' "$input" | sed -n 's/.*"mode":"\([^"]*\)".*/\1/p')
case "$mode" in
ok) echo '{"ok":true}' ;;
hold) sleep 300 & echo '{"ok":true,"held":true}' ;;
flood) head -c 104857600 /dev/zero ;;
invalid) echo 'this is not {json' ;;
two) echo '{"ok":true}{"ok":false}' ;;
empty) ;;
fail)
  for i in $(seq 1 100); do echo "trace line $i" >&2; done
  echo "fatal: could not log in with token $SKILL_TOKEN" >&2
  exit 3 ;;
env) printf '{"ok":true,"secret_x":"%s","token":"%s","extra":"%s"}\n' "${SECRET_X-unset}" "${SKILL_TOKEN-unset}" "${EXTRA-unset}" ;;
wrong-type) echo '{"ok":"yes"}' ;;
esac
