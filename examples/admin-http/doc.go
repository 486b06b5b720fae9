// Command admin-http serves a skill admin API over net/http on top of a
// skillkit Kit, and one HTML page that uses it: list and filter skills
// with their class, read a skill, show diagnostics, install from git or an
// uploaded ZIP (with progress as Server-Sent Events), uninstall, update,
// enable and disable, check for updates, install dependencies, write
// agent-style skills, save and rotate secrets, run a compute skill, and
// warn about an agent's skills and tools. Its routes, envelope and field
// names are those of NetaClaw's skill admin API, so a front end written for
// that API reads its answers. README.md documents every route and field.
//
//	go run ./examples/admin-http -skills ./skills -addr 127.0.0.1:8080 [-token T] [-prefix /admin/skills] [-host name]
//
// Every request, the page's included, needs the token (-token or
// ADMIN_TOKEN; without either, a random one is generated and printed once)
// as a bearer token or as a Basic password, which is how a browser sends
// it; a Host header that names this server (its address, or a -host name);
// and no foreign Origin or cross-site Sec-Fetch-Site. It is an example of
// the thin layer a host writes, not a product: an API that installs and
// runs code belongs behind the host's own authentication.
package main
