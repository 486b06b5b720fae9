package sqlstore

import (
	"reflect"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/registry"
)

// Every field of registry.Record has a column: a field added to Record
// without one fails here, before a record loses it in a database.
func TestEveryRecordFieldHasAColumn(t *testing.T) {
	columns := strings.Split(registryColumns, ", ")
	fields := reflect.TypeFor[registry.Record]().NumField()
	if len(columns) != fields {
		t.Fatalf("registry.Record has %d fields, skillkit_registry maps %d columns: %v", fields, len(columns), columns)
	}
	if got := len((&Registry{db: &DB{}}).args(registry.Record{})); got != fields {
		t.Fatalf("args gives %d values for %d fields", got, fields)
	}
	if n := strings.Count(registryColumns, ",") + 1; strings.Count(insertRecord(), "?") != n {
		t.Fatalf("the INSERT has %d placeholders for %d columns", strings.Count(insertRecord(), "?"), n)
	}
}
