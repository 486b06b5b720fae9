// Package authoring writes the skills agents author: [Writer.Create],
// [Writer.Edit] and [Writer.Delete] are what the skill_manage tool does
// (*Writer is the tools.Manager skillkit.Kit gives the tools). It works on
// the skills folder that the installer and deps packages share, through
// skillkit's internal transaction core, so an agent's write is as atomic as
// an install and serialized with every other operation on the skill; hosts
// get a [Writer] from skillkit.Kit.Authoring or use Kit.CreateSkill,
// EditSkill and DeleteSkill, which rescan afterwards.
//
// # The rules
//
// The name follows the specification's naming rules (skill.ValidateName);
// SKILL.md holds at most MaxContentChars characters and loads (lenient)
// with a frontmatter naming exactly that skill; files lie under
// references/, templates/, scripts/ or assets/ only, each at most
// MaxFileBytes, written without the executable bit, and their paths hold
// no control, bidirectional or zero-width character. So an agent cannot
// write skill.config.yaml, requirements.txt or package.json: its skills
// have no entrypoint or setup, and skillkit runs none of their code (their
// frontmatter install specs are installed only with
// deps.InstallOptions.AllowAgentWritten). They go through the same
// staging, folder checks, validation, fingerprint, journal and swap as an
// install, and are recorded with source agent. An agent may change or delete only what it
// wrote, unless Options.AgentMayChangeInstalled, and even then never the
// code skillkit runs for a skill a person installed (entrypoint, setup
// scripts, dependency files, their folders, scripts/ of a skill with a
// runtime) nor its install specs; a pinned skill not at all. metadata.env
// in the frontmatter becomes the skill's env schema, which the secrets
// vault lists and checks (ENV_NOT_CONFIGURED); its entries may not have a
// default, a value the agent would choose for processes to receive.
//
// # Proposals
//
// What an agent writes steers every later session, so a write the trust
// policy asks about (by default: one the scan rates caution), or with
// Options.ReviewAgentWrites every write, goes to a proposal queue instead
// of the skills folder: .skillhub/proposals/NAME.json, one [Proposal] per
// skill (a newer one replaces the older), written atomically under the
// skill's lock and bounded by MaxProposals and MaxQueueBytes. The loader
// never sees it. A person lists the queue ([Writer.Proposals]), reads the
// diff against the live skill ([Writer.Review]), and approves
// ([Writer.ApproveProposal]: the same checks, a new scan and the same
// transaction, refused when the live skill changed since unless forced)
// or rejects it ([Writer.RejectProposal]).
package authoring
