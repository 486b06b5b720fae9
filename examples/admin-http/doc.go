// Command admin-http serves the seed's skill admin API over net/http on top
// of a skillkit Kit: list skills with their class, read a skill, show
// diagnostics, install from git or an uploaded ZIP (with progress as
// Server-Sent Events), uninstall, update, enable and disable, check for
// updates, install dependencies, write agent-style skills, save and rotate
// secrets.
//
//	go run ./examples/admin-http -skills ./skills -addr 127.0.0.1:8080 [-token T]
//
// It is an example of the thin layer a host writes, not a product: put it
// behind the host's own authentication (or at least -token / ADMIN_TOKEN).
package main
