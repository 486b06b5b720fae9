input=$(cat)
pid_file=$(printf '%s' "$input" | sed -n 's/.*"pid_file":"\([^"]*\)".*/\1/p')
# The grandchild writes its pid as the /proc it sees numbers it (in a PID
# namespace, $! would be the namespace's number): read runs in the shell
# itself, and exec keeps its pid.
# The sleep's unique argument lets the host find it by its command line.
sh -c 'read -r pid rest < /proc/self/stat; m=300.$(date +%N); echo "$pid $m" > "$1.tmp"; mv "$1.tmp" "$1"; exec sleep "$m"' _ "$pid_file" &
while [ ! -s "$pid_file" ]; do sleep 0.01; done
echo "waiting for the grandchild" >&2
wait
