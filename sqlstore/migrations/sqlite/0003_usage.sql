-- How often each skill was used, per agent and tool (usage.Store): counts
-- and the last use, never what was asked. last_used is fixed-width
-- RFC 3339 text in UTC, so that comparing the text compares the times.
CREATE TABLE skillkit_usage (
	skill     TEXT NOT NULL,
	agent     TEXT NOT NULL DEFAULT '',
	tool      TEXT NOT NULL,
	uses      INTEGER NOT NULL DEFAULT 0,
	failures  INTEGER NOT NULL DEFAULT 0,
	last_used TEXT NOT NULL,
	PRIMARY KEY (skill, agent, tool)
);
