// Command listmem measures the peak memory of "skillkit list" over a large
// skills folder: it generates N skills (internal/testcorpus.Generate: one
// SKILL.md and one reference file each, 100 skills a group folder) outside
// the repository, runs "skillkit list" on them -runs times in fresh
// processes, and reports per binary the median and range of the peak
// resident set size (the kernel's maxrss), of the CPU time (user + system)
// and of the wall time, with the machine's load.
//
// Without -bin it builds ./cmd/skillkit into a temporary folder first, with
// the build tags of -tags (-tags lean: the lean build). With several
// binaries (-bin old,new) the runs alternate between them. The folder is
// kept, and used again by the next run with the same -n, under -dir.
//
//	go run ./bench/listmem                       # 100,000 skills, 3 runs
//	go run ./bench/listmem -n 10000 -runs 5 -tags lean
//	go run ./bench/listmem -bin /tmp/before,/tmp/after
//	go run ./bench/listmem -args --json          # list --json
package main
