package inittrace

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	stderr := []byte("init runtime @0.31 ms, 1.0 ms clock, 0 bytes, 0 allocs\n" +
		"something the program wrote\n" +
		"init github.com/santhosh-tekuri/jsonschema/v6 @19 ms, 13 ms clock, 1701320 bytes, 21288 allocs\n" +
		"init gopkg.in/yaml%2ev3 @20 ms, 0.33 ms clock, 25736 bytes, 276 allocs\n")
	got, err := Parse(stderr)
	if err != nil {
		t.Fatal(err)
	}
	want := []Package{
		{Name: "runtime", ClockMS: 1.0},
		{Name: "github.com/santhosh-tekuri/jsonschema/v6", ClockMS: 13, Bytes: 1701320, Allocs: 21288},
		{Name: "gopkg.in/yaml%2ev3", ClockMS: 0.33, Bytes: 25736, Allocs: 276},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Parse (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(Package{ClockMS: 14.33, Bytes: 1727056, Allocs: 21564}, Sum(got)); diff != "" {
		t.Errorf("Sum (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Package{want[1], want[2]}, Costliest(got, 2)); diff != "" {
		t.Errorf("Costliest (-want +got):\n%s", diff)
	}
	if got[0].Name != "runtime" {
		t.Error("Costliest reordered its argument")
	}
}

func TestParseRefusesWhatItCannotRead(t *testing.T) {
	if _, err := Parse([]byte("usage: skillkit COMMAND\n")); !errors.Is(err, ErrNoReport) {
		t.Errorf("no init lines: got %v, want ErrNoReport", err)
	}
	// A changed format must not read as a cheap init.
	if _, err := Parse([]byte("init runtime @0.31 ms, 1.0 ms clock, 0 B, 0 allocs\n")); err == nil {
		t.Error("a line in another format was accepted")
	}
}
