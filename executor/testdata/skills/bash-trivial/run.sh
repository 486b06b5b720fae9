IFS= read -r input || true
echo '{"ok":true}'
