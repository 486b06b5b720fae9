// Package sqlstore keeps skillkit's registry, secrets and the packages of
// installed skills in a SQL database, so that several replicas of a host
// share what is installed, enabled and configured (docs/fleet.md). It speaks PostgreSQL and SQLite through database/sql and
// imports no driver: the host opens the *sql.DB with the driver it chose
// (github.com/jackc/pgx/v5/stdlib, modernc.org/sqlite, ...) and passes it
// with its [Dialect] to [Open].
//
// # Contract
//
//   - [Open] migrates the schema: numbered migrations embedded in the
//     program, each applied once, in order, in one transaction under a
//     lock (a PostgreSQL advisory lock, key [MigrationLockKey]; on SQLite an
//     immediate transaction), recorded in skillkit_schema_migrations.
//     Replicas that start together migrate once. A database whose schema is
//     newer than the program is refused with [ErrSchemaTooNew].
//   - [Registry] is a registry.Store in the table skillkit_registry and
//     [Secrets] a secrets.Store in skillkit_secrets. Both pass the
//     conformance suites registrytest.TestStore and secretstest.TestStore,
//     and implement the compare-and-swap capability of their package, so
//     registry.Update and the secrets vault's Rotate and Adopt lose no
//     concurrent write, across replicas.
//   - [Packages] is a registry.PackageStore in skillkit_packages (one ZIP
//     archive per fingerprint: the files of every installed version, for
//     replicas to fetch) and a registry.ReplicaStore in skillkit_replicas
//     (what each replica holds after its last sync); both pass
//     registrytest.TestPackages. [Packages.Prune] deletes the packages no
//     record names any more. On PostgreSQL every change of a registry row
//     is announced with NOTIFY on [NotifyChannel], so that replicas can
//     sync at once (docs/fleet.md).
//   - The secrets table holds sealed values only; the vault seals them
//     before they reach it, and the key never touches the database.
//   - Concurrency control is optimistic. A registry row carries a revision
//     that every write increases; a conditional write reads the row,
//     compares it with what the caller read, and updates it only where its
//     revision is unchanged (UPDATE ... WHERE revision = ?), else it
//     reports a conflict and the caller reads again. A secret's sealed
//     bytes are its own revision (a random nonce makes every seal unique),
//     so its conditional writes are single statements. No transaction or
//     row lock is held across a round trip.
//   - Listings are sorted in byte order, whatever the database's
//     collation.
//
// # Limits
//
//   - PostgreSQL keeps times to the microsecond; SQLite keeps them as
//     RFC 3339 text, to the nanosecond.
//   - SQLite needs a busy timeout on every connection (modernc.org/sqlite:
//     "?_pragma=busy_timeout(10000)"), or concurrent writers fail with
//     SQLITE_BUSY; WAL mode lets readers go on while one writes.
//   - The tables are created in the connection's default schema
//     (PostgreSQL: the search_path); give each skillkit deployment its own
//     database or schema.
package sqlstore
