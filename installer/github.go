package installer

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// defaultGitHubAPI is the GitHub REST API's base URL.
const defaultGitHubAPI = "https://api.github.com"

// GitHubClient asks the GitHub REST API for the latest commit of a
// repository's branch or tag, for CheckUpdates (seed 002 §9). git
// ls-remote needs no client and works for every host; the API answers
// without starting a process and with a token also for private
// repositories. Its zero value is ready.
type GitHubClient struct {
	// BaseURL is the API's root; default https://api.github.com. A GitHub
	// Enterprise server's is https://HOST/api/v3.
	BaseURL string
	// HTTPClient sends the requests; default a client with a 30-second
	// timeout.
	HTTPClient *http.Client
	// Token, when set, is sent as a bearer token (higher rate limits,
	// private repositories). It is never logged.
	Token string
}

// latestCommit returns the commit ref (a branch or tag; "" for the default
// branch) of owner/repo points to now: GET /repos/OWNER/REPO/commits/REF
// with the media type that answers the bare commit id.
func (c *GitHubClient) latestCommit(ctx context.Context, owner, repo, ref string) (string, error) {
	base := defaultGitHubAPI
	if c.BaseURL != "" {
		base = strings.TrimSuffix(c.BaseURL, "/")
	}
	if ref == "" {
		ref = "HEAD"
	}
	u := base + "/repos/" + url.PathEscape(owner) + "/" + url.PathEscape(repo) + "/commits/" + url.PathEscape(ref)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return "", fmt.Errorf("installer: GitHub API: %w", err)
	}
	req.Header.Set("Accept", "application/vnd.github.sha")
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	req.Header.Set("User-Agent", "skillkit")
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	hc := c.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	resp, err := hc.Do(req)
	if err != nil {
		return "", fmt.Errorf("installer: GitHub API %s/%s: %w", owner, repo, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if err != nil {
		return "", fmt.Errorf("installer: GitHub API %s/%s: %w", owner, repo, err)
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("installer: GitHub API %s/%s@%s: %s: %s", owner, repo, ref, resp.Status, lastLines(body, 3))
	}
	sha := strings.TrimSpace(string(body))
	if !isCommitID(sha) {
		return "", fmt.Errorf("installer: GitHub API %s/%s@%s: not a commit id: %q", owner, repo, ref, lastLines(body, 1))
	}
	return sha, nil
}
