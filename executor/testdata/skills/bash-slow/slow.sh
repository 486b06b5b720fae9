input=$(cat)
pid_file=$(printf '%s' "$input" | sed -n 's/.*"pid_file":"\([^"]*\)".*/\1/p')
sleep 300 &
echo $! > "$pid_file"
echo "waiting for the grandchild" >&2
wait
