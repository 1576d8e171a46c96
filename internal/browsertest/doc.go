// Package browsertest starts headless Chromium for tests that drive the
// dashboard with chromedp, and skips them when no Chromium is installed
// (Debian: apt-get install -y chromium).
//
// Files, in reading order: browsertest.go.
package browsertest
