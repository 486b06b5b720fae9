// Package testcorpus finds the corpus of real published skills that tests
// parse, validate, list and fingerprint, and generates large synthetic skill
// folders for benchmarks. The corpus lives outside the module;
// the environment variable SKILLKIT_CORPUS names it (.ci/run sets it), either
// absolute or relative to the module root. When
// the variable is unset, tests that need the corpus are skipped; when it is
// set and the folder is missing, they fail, so CI cannot pass without it.
package testcorpus
