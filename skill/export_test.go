package skill

import (
	"github.com/skillkit-go/skillkit/diagnostics"
)

// ParseFrontmatter is Parse with the flat reader on or off.
func ParseFrontmatter(data []byte, strict, flat bool) (*Frontmatter, diagnostics.List) {
	fm, _, _, diags := parseFrontmatter(data, strict, flat)
	return fm, diags
}
