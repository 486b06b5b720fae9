// Package skillkit gives a Go agent host a complete Agent Skills system in one
// call: [Open] wires, for one skills folder, the installer, the dependency
// installer and the agents' writer (sharing the folder's locks and crash
// recovery), the registry of installed skills, the secrets vault, and — from
// the first call that needs skills — the loader, the executor of compute
// skills and the agent tools, with safe defaults and every part replaceable.
// With Options.Packages the folder is one replica of several sharing a
// database: [Kit.Sync] places what the others installed (docs/fleet.md).
// The Kit is the only place that wires the parts: opening it costs
// microseconds, so a command that changes one skill pays for no scan.
//
//	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: "skills"})
//	ts, err := kit.Toolset(ctx, tools.Agent{Tools: []string{"bash"}})
//	// ts.Prompt goes into the system prompt, ts.Tools to the model.
//
// The packages below do the work: diagnostics, skill (the model), registry,
// loader, prompt, secrets, executor, installer, deps, authoring and tools.
// The read side (skill, loader, prompt, secrets, executor, tools) can be
// used on its own; the packages that write the skills folder are built on
// the Kit's shared folder and are reached through it. See the README for
// the package map, the security model and the limits.
package skillkit
