package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/augur-verify/augur/store"
)

// Access is what a request may do on the dashboard beyond reading: the
// server in front of the dashboard (the API's handler) decides it, from
// its tokens and the request's login, and passes it in the request's
// context (WithAccess). Without one, a request may act.
type Access struct {
	// Act permits the buttons: re-running and cancelling a validation.
	Act bool
	// Login is the path of the login page that grants Act ("": none).
	Login string
	// Logout is the path the Log out form posts to, set when the request
	// is logged in ("": not logged in, or no login at all).
	Logout string
}

type accessKey struct{}

// WithAccess returns ctx carrying the request's Access.
func WithAccess(ctx context.Context, a Access) context.Context {
	return context.WithValue(ctx, accessKey{}, a)
}

// access is the request's Access (Act when none was given).
func access(r *http.Request) Access {
	if a, ok := r.Context().Value(accessKey{}).(Access); ok {
		return a
	}
	return Access{Act: true}
}

// actions are the buttons of a validation's page.
type actions struct {
	// Cancel and Rerun are the forms' URLs, "" when the button does not
	// apply (Cancel while queued or running, Rerun once finished).
	Cancel, Rerun string
	// Login is the login page's URL when the request may not act.
	Login string
}

func (h *handler) actions(r *http.Request, v *store.Validation) actions {
	page := "/validations/" + url.PathEscape(v.ID)
	var a actions
	switch v.Status {
	case store.Queued, store.Running:
		a.Cancel = page + "/cancel"
	default:
		a.Rerun = page + "/rerun"
	}
	if acc := access(r); !acc.Act {
		a.Cancel, a.Rerun = "", ""
		if acc.Login != "" {
			a.Login = acc.Login + "?" + url.Values{"next": {page}}.Encode()
		}
	}
	return a
}

// forbidden answers an action the request may not take.
func (h *handler) forbidden(w http.ResponseWriter, r *http.Request) {
	msg := "Re-running and cancelling validations needs one of the service's tokens."
	if l := access(r).Login; l != "" {
		msg += " Log in at " + l + " first."
	}
	h.render(w, r, http.StatusForbidden, "error", &page{Title: "Forbidden",
		Data: errorPage{Status: http.StatusForbidden, Heading: "Not allowed", Message: msg}})
}

// cancel is POST /validations/{id}/cancel: the Cancel button.
func (h *handler) cancel(w http.ResponseWriter, r *http.Request) {
	if !access(r).Act {
		h.forbidden(w, r)
		return
	}
	id := r.PathValue("id")
	err := h.st.Cancel(r.Context(), id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		h.notFound(w, r, fmt.Sprintf("There is no validation %q: it may have been pruned.", id))
		return
	case errors.Is(err, store.ErrFinished):
		h.render(w, r, http.StatusConflict, "error", &page{Title: "Already finished",
			Data: errorPage{Status: http.StatusConflict, Heading: "Already finished",
				Message: "The validation reached its verdict before it could be cancelled."}})
		return
	case err != nil:
		h.serverError(w, r, err)
		return
	}
	http.Redirect(w, r, "/validations/"+url.PathEscape(id), http.StatusSeeOther)
}

// rerun is POST /validations/{id}/rerun: the Re-run button submits the
// same pair, with the same options and metadata, as a new validation (a
// deterministic verdict already in the cache answers it at once).
func (h *handler) rerun(w http.ResponseWriter, r *http.Request) {
	if !access(r).Act {
		h.forbidden(w, r)
		return
	}
	id := r.PathValue("id")
	v, err := h.st.Get(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		h.notFound(w, r, fmt.Sprintf("There is no validation %q: it may have been pruned.", id))
		return
	}
	if err != nil {
		h.serverError(w, r, err)
		return
	}
	nv, err := h.st.Submit(r.Context(), &store.Validation{
		SpecName: v.SpecName, Spec: v.Spec, ProgramName: v.ProgramName, Program: v.Program,
		Options: v.Options, Meta: v.Meta,
	})
	if err != nil {
		h.serverError(w, r, err)
		return
	}
	http.Redirect(w, r, "/validations/"+url.PathEscape(nv.ID), http.StatusSeeOther)
}
