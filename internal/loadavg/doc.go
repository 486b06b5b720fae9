// Package loadavg reads the machine's load averages, which the benchmark
// programs under bench/ print beside their numbers: on a shared machine a
// time means little without the load it was measured under.
package loadavg
