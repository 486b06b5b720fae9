package sqlstore

// Migrations is the number of migrations of each dialect.
var Migrations = func() int {
	ms, err := migrations(SQLite)
	if err != nil {
		panic(err)
	}
	return len(ms)
}()

// Rebind is the store's placeholder rewriting, for tests that write to the
// tables directly.
func (d *DB) Rebind(query string) string { return d.rebind(query) }
