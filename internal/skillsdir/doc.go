// Package skillsdir is the skills-folder transaction core that the
// installer, deps and authoring packages share: one [Dir] per skills
// folder, opened once by skillkit.Kit, so every operation on a skill —
// install, update, uninstall, a dependency build, an agent's write — is
// serialized with every other one on that skill, within the process and
// across processes, and leaves the folder with the old version or the new
// one, complete, whatever fails and wherever the process dies.
//
// Its parts:
//
//   - Name locks: [Dir.Lock] takes a skill's lock (a per-name lock in the
//     process, a file lock in .skillhub/locks across processes); [Dir.Hold]
//     first settles dead transactions, then takes it.
//   - Transactions: [Dir.Begin] makes a staging folder
//     .skillhub/staging/<id> on the skills folder's file system (so a swap
//     is a rename), held by a lock file that tells recovery the
//     transaction is alive; its trash entry is .skillhub/trash/<id>.
//   - The swap: [Dir.Swap] journals, moves the old version to the trash and
//     the staged one into place, writes the record (the commit point) and
//     empties the trash, undoing everything on a failure before the commit
//     point. [Dir.Remove] is its uninstall, [Dir.PlaceDir] swaps a folder
//     inside a skill (a .venv, node_modules).
//   - Recovery: [Dir.Recover] settles every dead transaction by what the
//     disk holds and its journal says (see the installer package
//     documentation for the rules); [Dir.Settle] does it only where a
//     transaction ever ran, for readers.
//   - Progress: [Event], [Reporter]; the three packages alias Event, Op and
//     Step, so a host has one event type.
//
// Open does no I/O beyond making the folder: a Kit opened for one small
// command costs microseconds. Errors start with "skillkit:": they are
// passed up through whichever public package called.
package skillsdir
