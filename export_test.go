package skillkit

// Scanned reports whether the Kit has scanned its sources, for tests of
// what does not need a scan.
func Scanned(k *Kit) bool { return k.loaded() != nil }
