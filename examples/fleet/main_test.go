package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/internal/testdb"
)

func TestFleetExample(t *testing.T) {
	for _, db := range []struct {
		name string
		url  func(testing.TB) string
	}{
		{"sqlite", func(testing.TB) string { return "" }},
		{"postgres", testdb.PostgresDSN},
	} {
		t.Run(db.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := run(t.Context(), &buf, db.url(t), "../skills", t.TempDir()); err != nil {
				t.Fatalf("%v\n%s", err, buf.String())
			}
			out := buf.String()
			for _, want := range []string{
				"installed word-stats sha256:",
				"doctor: replica replica-b (",
				"lacks word-stats",
				"installed word-stats\n",
				"doctor: every replica holds what the registry records",
				`"words": 6`,
				"B sees STATS_TOKEN: true",
				"A's catalog lists word-stats: false",
				"removed word-stats\nthe replica holds 0 skills",
			} {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
		})
	}
}
