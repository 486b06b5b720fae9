//go:build race

package main

// raceBuild: the race detector's shadow memory makes a process several
// times larger; memory bounds measured in tests allow for it.
const raceBuild = true
