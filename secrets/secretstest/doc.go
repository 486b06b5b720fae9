// Package secretstest holds the conformance suite for implementations of
// [secrets.Store], and a store that fails on purpose for testing what uses
// one.
//
// [TestStore] runs every case; each case is also an exported function of
// its own (TestPutGetReplace, TestCompareAndSwap, ...), so a store that
// cannot meet one can run the others and say why it skips it. The
// compare-and-swap cases run when the store implements
// [secrets.CompareAndSwapper] and skip otherwise. Each case needs a new,
// empty store.
//
// [FailingStore] wraps a store and makes chosen calls fail, before or after
// their write took effect, so that crash and failure paths of a vault (a
// rotation cut short, a save whose acknowledgement was lost) are tested
// through the public API.
package secretstest
