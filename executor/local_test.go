package executor_test

import (
	"testing"

	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/executor/executortest"
)

func TestLocalRunnerConformance(t *testing.T) {
	for _, iso := range []executor.Isolation{executor.IsolateAuto, executor.IsolateOff} {
		t.Run(iso.String(), func(t *testing.T) {
			executortest.TestRunner(t, func(t *testing.T, scratch string) executor.Runner {
				return &executor.LocalRunner{Isolation: iso}
			})
		})
	}
}
