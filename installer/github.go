package installer

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/skillkit-go/skillkit/internal/gitcmd"
)

// defaultGitHubAPI is the GitHub REST API's base URL.
const defaultGitHubAPI = "https://api.github.com"

// GitHubClient asks the GitHub REST API for the latest commit of a
// repository's branch or tag, for CheckUpdates. git
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
	if ref == "" {
		ref = "HEAD"
	}
	body, err := c.get(ctx, owner, repo, "/commits/"+url.PathEscape(ref), "application/vnd.github.sha", 4096)
	if err != nil {
		return "", fmt.Errorf("%w (ref %s)", err, ref)
	}
	sha := strings.TrimSpace(string(body))
	if !gitcmd.IsCommitID(sha) {
		return "", fmt.Errorf("installer: GitHub API %s/%s@%s: not a commit id: %q", owner, repo, ref, gitcmd.LastLines(body, 1))
	}
	return sha, nil
}

// treeAt returns the tree object id of folder subdir ("" for the top) of
// owner/repo at commit: for the top, the commit's tree (GET
// /repos/OWNER/REPO/git/commits/COMMIT); else the folder's entry in its
// parent's listing (GET /repos/OWNER/REPO/contents/PARENT?ref=COMMIT).
func (c *GitHubClient) treeAt(ctx context.Context, owner, repo, commit, subdir string) (string, error) {
	if subdir == "" {
		body, err := c.get(ctx, owner, repo, "/git/commits/"+url.PathEscape(commit), "application/vnd.github+json", 1<<20)
		if err != nil {
			return "", err
		}
		var doc struct {
			Tree struct {
				SHA string `json:"sha"`
			} `json:"tree"`
		}
		if err := json.Unmarshal(body, &doc); err != nil || !gitcmd.IsCommitID(doc.Tree.SHA) {
			return "", fmt.Errorf("installer: GitHub API %s/%s: commit %s has no tree id", owner, repo, commit)
		}
		return doc.Tree.SHA, nil
	}
	parent := path.Dir(subdir)
	if parent == "." {
		parent = ""
	}
	var escaped []string
	for _, p := range strings.Split(parent, "/") {
		escaped = append(escaped, url.PathEscape(p))
	}
	body, err := c.get(ctx, owner, repo, "/contents/"+strings.Join(escaped, "/")+"?ref="+url.QueryEscape(commit), "application/vnd.github+json", 8<<20)
	if err != nil {
		return "", err
	}
	var entries []struct {
		Path string `json:"path"`
		Type string `json:"type"`
		SHA  string `json:"sha"`
	}
	if err := json.Unmarshal(body, &entries); err != nil {
		return "", fmt.Errorf("installer: GitHub API %s/%s: listing %s: %w", owner, repo, parent, err)
	}
	for _, e := range entries {
		if e.Path == subdir && e.Type == "dir" && gitcmd.IsCommitID(e.SHA) {
			return e.SHA, nil
		}
	}
	return "", fmt.Errorf("installer: GitHub API %s/%s: no folder %s at %.12s", owner, repo, subdir, commit)
}

// get sends GET /repos/OWNER/REPO+rest asking for media type accept and
// returns at most limit bytes of a 200 answer.
func (c *GitHubClient) get(ctx context.Context, owner, repo, rest, accept string, limit int64) ([]byte, error) {
	base := defaultGitHubAPI
	if c.BaseURL != "" {
		base = strings.TrimSuffix(c.BaseURL, "/")
	}
	u := base + "/repos/" + url.PathEscape(owner) + "/" + url.PathEscape(repo) + rest
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("installer: GitHub API: %w", err)
	}
	req.Header.Set("Accept", accept)
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
		return nil, fmt.Errorf("installer: GitHub API %s/%s: %w", owner, repo, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit))
	if err != nil {
		return nil, fmt.Errorf("installer: GitHub API %s/%s: %w", owner, repo, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("installer: GitHub API %s/%s: %s: %s", owner, repo, resp.Status, gitcmd.LastLines(body, 3))
	}
	return body, nil
}
