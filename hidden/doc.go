// Package hidden finds the characters of a text that a person reading it
// does not see while a model still reads them, and makes them visible.
//
// # Contract
//
// [Chars] yields each hidden character of a string with its byte offset and
// [Kind]: invisible format characters, bidirectional controls, Unicode tag
// characters, stray variation selectors and control characters. [Has]
// reports whether there is any; [Mark] returns the text with each one
// replaced by a visible mark ("[U+202E]", or one mark for a run), so skill text shown to a model
// or printed to a terminal carries nothing hidden.
//
// A character is reported only where it hides something: a zero-width
// joiner between emoji or inside a joining script, a subdivision flag's tag
// sequence, one variation selector after its base character, a direction
// mark on a right-to-left line and a leading byte order mark are ordinary
// text. Invalid UTF-8 is not a hidden character; it is left as it is.
//
// The scanner (package scan), the catalog and activation (package prompt)
// and the read tools (package tools) share this one definition, so what a
// scan reports is what a model is shown marked.
package hidden
