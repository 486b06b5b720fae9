// Package registrytest holds the conformance suite that every
// [registry.Store] implementation must pass, and a store that fails on
// purpose for testing what uses one.
//
// [TestStore] runs every case; each case is also an exported function of
// its own (TestRoundTrip, TestCompareAndSwap, ...), so a store that cannot
// meet one (say, a read-only mirror) can run the others and say why it
// skips it. The cases check the error contract (ErrNotFound from Get and
// Delete, ErrInvalidRecord from Put), round trips of every field (times
// compared as instants), replacement, sorted listing, deletion, canceled
// contexts, and concurrent Puts, Lists and Deletes (run them with -race).
// The compare-and-swap cases run when the store implements
// [registry.CompareAndSwapper] and skip otherwise; with it, concurrent
// read-change-write cycles through [registry.Update] must lose no change.
// Each case needs a new, empty store and leaves what it wrote in it.
//
// [TestPackages] is the suite of a [registry.PackageStore] (round trips,
// an archive stored once, the size limit, keys that are not fingerprints,
// concurrent writers) and, when it implements it, of
// [registry.ReplicaStore].
//
// [FailingStore] wraps a store and makes chosen calls fail, before or after
// their write took effect, so that crash and failure paths of an installer
// or a host are tested through the public API.
package registrytest
