package main

import (
	"testing"

	"github.com/augur-verify/augur/store"
)

// In GitHub Actions and GitLab CI, augur submit labels the submission
// with the links back to the run and the commit.
func TestCIMetaLinks(t *testing.T) {
	for _, v := range []string{"GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_RUN_ID", "GITHUB_SHA", "GITHUB_REF_NAME", "GITHUB_HEAD_REF", "GITHUB_JOB",
		"CI_JOB_URL", "CI_PIPELINE_URL", "CI_PROJECT_URL", "CI_COMMIT_SHA", "CI_PROJECT_PATH", "CI_COMMIT_REF_NAME", "CI_PIPELINE_ID", "CI_JOB_NAME"} {
		t.Setenv(v, "")
	}
	t.Setenv("GITHUB_SERVER_URL", "https://github.com")
	t.Setenv("GITHUB_REPOSITORY", "acme/kernels")
	t.Setenv("GITHUB_RUN_ID", "42")
	t.Setenv("GITHUB_SHA", "abc123")
	var m store.Meta
	ciMeta(&m)
	if m.Labels["ci_url"] != "https://github.com/acme/kernels/actions/runs/42" || m.Labels["commit_url"] != "https://github.com/acme/kernels/commit/abc123" {
		t.Errorf("GitHub: %+v", m)
	}
	// A label given on the command line wins.
	m = store.Meta{Labels: map[string]string{"ci_url": "https://ci.example/1"}}
	ciMeta(&m)
	if m.Labels["ci_url"] != "https://ci.example/1" {
		t.Errorf("the given label was replaced: %+v", m)
	}
}
