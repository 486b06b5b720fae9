package executor

import "context"

// agentKey is the context key of the agent a run is for.
type agentKey struct{}

// WithAgent returns a context that names the agent a run is for: Execute
// writes it in the run's audit line (attribute "agent"). The tools package
// sets it for the agent a toolset was resolved for (tools.Agent.Name); a
// host that calls Execute itself sets it the same way.
func WithAgent(ctx context.Context, agent string) context.Context {
	return context.WithValue(ctx, agentKey{}, agent)
}

// AgentFrom returns the agent WithAgent put in ctx, or "".
func AgentFrom(ctx context.Context) string {
	agent, _ := ctx.Value(agentKey{}).(string)
	return agent
}
