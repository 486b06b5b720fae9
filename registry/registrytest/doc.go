// Package registrytest holds the conformance suite that every
// [registry.Store] implementation must pass: [TestStore] checks the error
// contract (ErrNotFound from Get and Delete, ErrInvalidRecord from Put),
// round trips of every field (times compared as instants), replacement,
// sorted listing, deletion, canceled contexts, and concurrent Puts, Lists
// and Deletes (run it with -race). It needs a new, empty store per subtest
// and leaves what it wrote in it.
package registrytest
