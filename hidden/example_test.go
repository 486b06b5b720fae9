package hidden_test

import (
	"fmt"

	"github.com/skillkit-go/skillkit/hidden"
)

// A description that reverses what a reader sees and carries a terminal
// escape: both are made visible, the emoji joiner is left alone.
func ExampleMark() {
	desc := "Formats files \u202eexe.txt\u202c and says hi \x1b[2K 👩\u200d💻"
	fmt.Println(hidden.Has(desc))
	fmt.Println(hidden.Mark(desc))
	for h := range hidden.Chars(desc) {
		fmt.Println(h.Offset, h.Kind)
	}
	// Output:
	// true
	// Formats files [U+202E]exe.txt[U+202C] and says hi [U+001B][2K 👩‍💻
	// 14 bidi
	// 24 bidi
	// 40 control
}
