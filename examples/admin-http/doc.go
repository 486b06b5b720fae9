// Command admin-http serves a skill admin API over net/http on top of a
// skillkit Kit: list skills with their class, read a skill, show
// diagnostics, install from git or an uploaded ZIP (with progress as
// Server-Sent Events), uninstall, update, enable and disable, check for
// updates, install dependencies, write agent-style skills, save and rotate
// secrets. README.md documents every route.
//
//	go run ./examples/admin-http -skills ./skills -addr 127.0.0.1:8080 [-token T] [-prefix /admin/skills] [-host name]
//
// Every request needs the bearer token (-token or ADMIN_TOKEN; without
// either, a random one is generated and printed once), a Host header that
// names this server (its address, or a -host name), and no foreign Origin.
// It is an example of the thin layer a host writes, not a product: an API
// that installs and runs code belongs behind the host's own
// authentication.
package main
