package skillkit

// Scanned reports whether the Kit has scanned its sources, for tests of
// what does not need a scan.
func Scanned(k *Kit) bool { return k.loaded() != nil }

// SetFault sets the skills folder's fault hook (see the installer's crash
// tests): it is called at each named point of a transaction.
func SetFault(k *Kit, fault func(point string) error) { k.dir.Fault = fault }
