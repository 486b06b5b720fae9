package prompt

import "reflect"

// Language selects the built-in texts.
type Language string

// The languages the built-in texts ship in.
const (
	English Language = "en"
	Chinese Language = "zh"
)

// Texts are every sentence the prompt package writes around skills. A host
// replaces any of them by passing its own Texts; empty fields fall back to
// the built-in text of the chosen language.
type Texts struct {
	// Guidance precedes the catalog: how to use skills (read a skill before
	// acting on it; read required references first).
	Guidance string
	// GuidanceExecute follows Guidance when a listed skill can be run with
	// execute_skill.
	GuidanceExecute string
	// Shortened follows the guidance when some descriptions in the catalog
	// are shortened to fit its budget.
	Shortened string
	// NamesOnly follows the guidance when the catalog lists names without
	// descriptions to fit its budget.
	NamesOnly string
	// Truncated follows the catalog when skills were left out; %d is their
	// number.
	Truncated string
	// TruncatedSearch replaces Truncated when the agent has search_skills
	// (Options.Search): it says how many skills are left out (%d) and how
	// to find them.
	TruncatedSearch string
	// LocationRoot follows the guidance when the agentskills catalog gives
	// locations relative to one folder to fit its budget; %s is the folder.
	LocationRoot string
	// UsePrompt, UseComputeEntry and UseComputeToolkit say how to use a
	// skill of each class (skillkit format).
	UsePrompt, UseComputeEntry, UseComputeToolkit string
	// Input, Required and Default label the compute-entry input summary.
	Input, Required, Default string

	// SkillFolder introduces the folder line of an activated skill; %s is
	// the folder.
	SkillFolder string
	// RequiredRefs opens the must-read list; RequiredRefsAfter closes it.
	RequiredRefs, RequiredRefsAfter string
	// OptionalRefs opens the may-read list.
	OptionalRefs string
	// Missing marks a declared reference that does not exist.
	Missing string
	// Inlined introduces references included for the task; %s is the task.
	Inlined string
	// InlineTruncated ends a reference cut to its cap; %s is its path.
	InlineTruncated string
	// InlineBinary replaces the content of a reference that is not text.
	InlineBinary string
	// MoreResources ends a capped resource listing; %d is how many are not
	// shown.
	MoreResources string
}

var english = Texts{
	Guidance: `The following skills give you specialized instructions for specific tasks.
When a task matches one of the skills below, call read_skill with the skill's name to load its full instructions before you act; follow them.
If what read_skill returns contains <skill_required_references>, you must read every file listed there with read_skill_file before doing anything else. This is a requirement, not a suggestion.`,
	GuidanceExecute:   "Skills of type compute-entry run with execute_skill: give it the skill's name and a JSON input.",
	Shortened:         "Some descriptions below are shortened to keep this list short; read_skill gives the whole skill.",
	NamesOnly:         "Only the skills' names are listed, to keep this list short: when a name suggests a skill fits the task, call read_skill to see what it does.",
	Truncated:         "Installed skills not listed here, to keep this list short: %d. Ask the user if you need a skill that is not listed.",
	TruncatedSearch:   "Installed skills not listed here, to keep this list short: %d. To find one for a task, call search_skills.",
	LocationRoot:      "Each <location> below is relative to %s.",
	UsePrompt:         "load it with read_skill",
	UseComputeEntry:   "call it with execute_skill",
	UseComputeToolkit: "load it with read_skill, then run its scripts with bash",
	Input:             "Input",
	Required:          "required",
	Default:           "default",

	SkillFolder:       "Skill folder: %s\nRelative paths in this skill are relative to the skill folder; read its files with read_skill_file.",
	RequiredRefs:      "Before you act on this skill you must read each of these files with read_skill_file:",
	RequiredRefsAfter: "Acting without reading them leads to mistakes.",
	OptionalRefs:      "Read these with read_skill_file when the task needs them:",
	Missing:           "(missing from the skill; tell the user)",
	Inlined:           "These references apply to the task %q and are included here, so you need not read them again:",
	InlineTruncated:   "[cut to keep this answer short; read the rest of %s with read_skill_file]",
	InlineBinary:      "[not a text file; not included]",
	MoreResources:     "[%d more files not listed]",
}

var chinese = Texts{
	Guidance: `以下 skill 为特定任务提供专门的指令。
当任务与下列某个 skill 相符时，先用 read_skill 按名称加载它的完整指令，再按指令执行。
如果 read_skill 的返回中包含 <skill_required_references>，你必须在执行任何操作前先用 read_skill_file 逐一读取其中列出的所有文档。这不是建议，是强制要求。`,
	GuidanceExecute:   "compute-entry 类型的 skill 用 execute_skill 调用：传入 skill 名称和 JSON 输入。",
	Shortened:         "为保持列表简短，下列部分描述已被缩短；read_skill 会返回完整内容。",
	NamesOnly:         "为保持列表简短，下面只列出 skill 名称：若某个名称看起来与任务相关，用 read_skill 查看它的用途。",
	Truncated:         "另有 %d 个 skill 已安装但未在此列出，以保持列表简短；如需未列出的 skill，请询问用户。",
	TruncatedSearch:   "另有 %d 个 skill 已安装但未在此列出，以保持列表简短；需要时用 search_skills 按任务查找。",
	LocationRoot:      "下列 <location> 均为相对于 %s 的路径。",
	UsePrompt:         "用 read_skill 加载完整指令",
	UseComputeEntry:   "用 execute_skill 调用",
	UseComputeToolkit: "用 read_skill 加载指令后通过 bash 执行脚本",
	Input:             "输入",
	Required:          "必填",
	Default:           "默认",

	SkillFolder:       "Skill 目录：%s\n此 skill 中的相对路径均相对于该目录；用 read_skill_file 读取其中的文件。",
	RequiredRefs:      "⚠️ 执行此 skill 的任务前，你必须先用 read_skill_file 读取以下文档：",
	RequiredRefsAfter: "未读取这些文档就执行操作会导致错误。",
	OptionalRefs:      "以下文档可按需用 read_skill_file 读取：",
	Missing:           "（该文件在 skill 中不存在，请告知用户）",
	Inlined:           "以下文档与任务 %q 相关，已直接附上，无需再次读取：",
	InlineTruncated:   "[为保持简短已截断；请用 read_skill_file 读取 %s 的其余部分]",
	InlineBinary:      "[不是文本文件，未附上]",
	MoreResources:     "[另有 %d 个文件未列出]",
}

// BuiltinTexts returns the built-in texts of a language (English for an
// unknown one).
func BuiltinTexts(lang Language) Texts {
	if lang == Chinese {
		return chinese
	}
	return english
}

// resolveTexts overlays the non-empty fields of a host's texts on the
// built-in ones. Every field of Texts is a string, so one loop covers them all
// and a new field cannot be forgotten.
func resolveTexts(lang Language, custom *Texts) Texts {
	t := BuiltinTexts(lang)
	if custom == nil {
		return t
	}
	dst, src := reflect.ValueOf(&t).Elem(), reflect.ValueOf(custom).Elem()
	for i := range src.NumField() {
		if v := src.Field(i).String(); v != "" {
			dst.Field(i).SetString(v)
		}
	}
	return t
}
