//go:build !unix

package search

import "time"

func threadCPU() time.Duration  { return 0 }
func processCPU() time.Duration { return 0 }
