package sqlstore

// Migrations is the number of migrations of each dialect.
var Migrations = func() int {
	ms, err := migrations(SQLite)
	if err != nil {
		panic(err)
	}
	return len(ms)
}()
