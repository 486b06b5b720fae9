// Command scan measures the loader in a fresh process, on generated skills
// or on a folder given with -dir (such as the corpus):
//
//   - memory: the Go heap in use and the resident set (Linux: VmRSS and its
//     peak VmHWM from /proc/self/status) after the first cold scan, with its
//     snapshot held;
//   - time: the fastest of -runs runs of the baseline (list every folder and
//     read every SKILL.md, nothing else), a cold scan (a new Loader), and a
//     rescan with nothing changed; each as wall time and as CPU time (user +
//     system), since a busy machine inflates wall time more than CPU time.
//
// Generating the skills comes first and keeps nothing in memory, which the
// "before" line shows.
//
//	go run ./bench/scan                            # 10,000 generated skills
//	go run ./bench/scan -dir ../shared/corpus -runs 20
package main
