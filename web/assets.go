package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"time"
)

// asset is one embedded file with its content hash, which versions its URL
// so that browsers may cache it for good.
type asset struct {
	content []byte
	ctype   string
	etag    string
	version string
}

func (h *handler) loadAssets() {
	h.assets = map[string]*asset{}
	err := fs.WalkDir(assetFS, "assets", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(assetFS, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		v := hex.EncodeToString(sum[:6])
		ct := assetTypes[path.Ext(p)]
		if ct == "" {
			ct = mime.TypeByExtension(path.Ext(p))
		}
		if ct == "" {
			ct = "application/octet-stream"
		}
		h.assets[path.Base(p)] = &asset{content: b, ctype: ct, etag: `"` + v + `"`, version: v}
		return nil
	})
	if err != nil {
		panic(err)
	}
	h.cssURL = h.assetURL("style.css")
	h.jsURL = h.assetURL("live.js")
	h.iconURL = h.assetURL("favicon.svg")
}

// assetTypes are the content types of the assets whose extension the
// system's MIME tables may not know, or know under another name.
var assetTypes = map[string]string{
	".ico": "image/x-icon",
	".svg": "image/svg+xml",
}

func (h *handler) assetURL(name string) string {
	a := h.assets[name]
	if a == nil {
		panic("web: missing asset " + name)
	}
	return "/assets/" + name + "?v=" + a.version
}

// asset serves an embedded file; a URL naming its current version is
// cached for a year, any other revalidated with its ETag.
func (h *handler) asset(w http.ResponseWriter, r *http.Request) {
	h.serveAsset(w, r, r.PathValue("name"))
}

// favicon serves "/favicon.ico", which browsers ask for on pages that do
// not name their icon (the login page, the API's).
func (h *handler) favicon(w http.ResponseWriter, r *http.Request) {
	h.serveAsset(w, r, "favicon.ico")
}

func (h *handler) serveAsset(w http.ResponseWriter, r *http.Request, name string) {
	a := h.assets[name]
	if a == nil {
		h.notFound(w, r, "There is no such file.")
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", a.ctype)
	hd.Set("ETag", a.etag)
	if r.URL.Query().Get("v") == a.version {
		hd.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		hd.Set("Cache-Control", "no-cache")
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(a.content))
}
