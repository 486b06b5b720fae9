// Command fleet runs two replicas of a host — two Kits on two skills
// folders — on one shared database, and shows what a fleet shares: a
// skill installed on one replica is placed on the other by Sync and runs
// there; a secret saved on one resolves on the other; disabling a skill
// on one hides it on both; Doctor tells which replica lags; an uninstall
// is synced away. docs/fleet.md explains the model.
//
//	go run ./examples/fleet                              # SQLite, in a temporary folder
//	go run ./examples/fleet -db postgres://USER@HOST/DB  # PostgreSQL
//
// A host runs one Kit per replica and keeps it in step with
// Kit.KeepSynced: on start, on a timer, and on PostgreSQL's NOTIFY.
package main
