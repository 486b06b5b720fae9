package skill

import "github.com/skillkit-go/skillkit/diagnostics"

// For the tests of the flat frontmatter reader against yaml.v3.
var (
	FlatYAML  = flatYAML
	ParseYAML = parseYAML
)

// ParseFrontmatter is Parse with the flat reader on or off.
func ParseFrontmatter(data []byte, strict, flat bool) (*Frontmatter, diagnostics.List) {
	fm, _, _, diags := parseFrontmatter(data, strict, flat)
	return fm, diags
}
