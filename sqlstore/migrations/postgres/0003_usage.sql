-- How often each skill was used, per agent and tool (usage.Store): counts
-- and the last use, never what was asked.
CREATE TABLE skillkit_usage (
	skill     TEXT NOT NULL,
	agent     TEXT NOT NULL DEFAULT '',
	tool      TEXT NOT NULL,
	uses      BIGINT NOT NULL DEFAULT 0,
	failures  BIGINT NOT NULL DEFAULT 0,
	last_used TIMESTAMPTZ NOT NULL,
	PRIMARY KEY (skill, agent, tool)
);
