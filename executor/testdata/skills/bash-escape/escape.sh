# Reads {"marker": "299.123", "pid_dir": "/x"}. Starts "sleep MARKER" twice,
# once in a new session (setsid) and once double-forked (its parent exits at
# once), each writing its pid as the /proc it sees numbers it to
# PID_DIR/setsid and PID_DIR/forked, waits until both did, and returns.
input=$(cat)
marker=$(printf '%s' "$input" | sed -n 's/.*"marker":"\([^"]*\)".*/\1/p')
dir=$(printf '%s' "$input" | sed -n 's/.*"pid_dir":"\([^"]*\)".*/\1/p')
# read on /proc/self/stat runs in the shell itself, and exec keeps its pid.
sleeper='read -r pid rest < /proc/self/stat; echo "$pid" > "$1.tmp"; mv "$1.tmp" "$1"; exec sleep "$2"'
setsid sh -c "$sleeper" _ "$dir/setsid" "$marker" </dev/null >/dev/null 2>&1 &
( sh -c "$sleeper" _ "$dir/forked" "$marker" </dev/null >/dev/null 2>&1 & )
for _ in $(seq 1 200); do
  [ -s "$dir/setsid" ] && [ -s "$dir/forked" ] && break
  sleep 0.05
done
echo '{"ok":true}'
