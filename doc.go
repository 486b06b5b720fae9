// Package skillkit gives a Go agent host a complete Agent Skills system in one
// call: [Open] wires the loader, the registry of installed skills, the
// secrets vault, the executor of compute skills and the agent tools for one
// skills folder, with safe defaults, and every part replaceable.
//
//	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: "skills"})
//	ts, err := kit.Toolset(ctx, tools.Agent{Tools: []string{"bash"}})
//	// ts.Prompt goes into the system prompt, ts.Tools to the model.
//
// The packages below do the work and can be used on their own: diagnostics,
// skill (the model), registry, loader, prompt, secrets, executor, installer
// and tools. See the README for the package map, the security model and the
// limits.
package skillkit
