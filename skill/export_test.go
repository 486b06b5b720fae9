package skill

// For the tests of the flat frontmatter reader against yaml.v3.
var (
	FlatYAML  = flatYAML
	ParseYAML = parseYAML
)
