package web

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path"
	"strings"

	"github.com/augur-verify/augur/store"
	"github.com/augur-verify/augur/validate"
)

// loadReport returns validation id and its report under its own file
// names (nil before a verdict), or answers the request itself and
// returns nil.
func (h *handler) loadReport(w http.ResponseWriter, r *http.Request) (*store.Validation, *validate.Report) {
	id := r.PathValue("id")
	v, err := h.st.Get(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		h.notFound(w, r, fmt.Sprintf("There is no validation %q.", id))
		return nil, nil
	}
	if err != nil {
		h.serverError(w, r, err)
		return nil, nil
	}
	if len(v.Report) == 0 {
		return v, nil
	}
	var rep validate.Report
	if err := json.Unmarshal(v.Report, &rep); err != nil {
		h.serverError(w, r, fmt.Errorf("validation %s: stored report: %w", v.ID, err))
		return nil, nil
	}
	rep.Rename(v.SpecName, v.ProgramName)
	return v, &rep
}

// reportText serves "/validations/{id}/report.txt": the report augur
// validate --verbose prints, every condition listed.
func (h *handler) reportText(w http.ResponseWriter, r *http.Request) {
	v, rep := h.loadReport(w, r)
	if v == nil {
		return
	}
	if rep == nil {
		h.notFound(w, r, fmt.Sprintf("Validation %s has no report yet (it is %s).", v.ID, v.Status))
		return
	}
	var b bytes.Buffer
	rep.WriteText(&b, true)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`inline; filename="augur-%s.txt"`, v.ID))
	w.Write(b.Bytes())
}

// archive serves "/validations/{id}/archive.zip": the two sources under
// their base names, the text and JSON reports naming them so (their
// reproduce lines run in the archive's directory), and the SMT-LIB2 script
// of every value condition, in a directory named after the validation.
func (h *handler) archive(w http.ResponseWriter, r *http.Request) {
	v, rep := h.loadReport(w, r)
	if v == nil {
		return
	}
	dir := "augur-" + v.ID + "/"
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name string, data []byte) error {
		f, err := zw.Create(dir + name)
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		return err
	}
	specName, progName := baseName(v.SpecName, "spec.sare"), baseName(v.ProgramName, "program.sched")
	if specName == progName {
		progName = "kernel-" + progName
	}
	files := []struct {
		name string
		data []byte
	}{{specName, []byte(v.Spec)}, {progName, []byte(v.Program)}}
	if rep != nil {
		// The reports name the files as the archive holds them, so that
		// their reproduce lines run in its directory.
		rep.Rename(specName, progName)
		var text bytes.Buffer
		rep.WriteText(&text, true)
		js, _ := json.MarshalIndent(rep, "", "  ")
		files = append(files, struct {
			name string
			data []byte
		}{"report.txt", text.Bytes()}, struct {
			name string
			data []byte
		}{"report.json", append(js, '\n')})
		for _, c := range rep.Conditions {
			script := c.Script()
			if script == "" {
				continue
			}
			files = append(files, struct {
				name string
				data []byte
			}{fmt.Sprintf("conditions/C%d.smt2", c.ID), []byte(script)})
		}
	}
	for _, f := range files {
		if err := add(f.name, f.data); err != nil {
			h.serverError(w, r, err)
			return
		}
	}
	if err := zw.Close(); err != nil {
		h.serverError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="augur-%s.zip"`, v.ID))
	w.Write(buf.Bytes())
}

// baseName is the last element of a slash-separated file name, or def.
func baseName(name, def string) string {
	b := path.Base(strings.ReplaceAll(name, "\\", "/"))
	if b == "." || b == "/" || b == "" || b == ".." {
		return def
	}
	return b
}
