// Package web is the validation service's dashboard: server-rendered HTML
// pages over a store.Store, for engineers who want to see which kernels
// failed and why.
//
// New returns the handler; the API mounts it at "/" next to its JSON
// endpoints under /v1/. It serves
//
//   - "/": the list of validations, newest first, with verdict badges,
//     filters (a GET form whose fields are those of store.Filter) and
//     pagination by the store's cursor (list.go);
//   - "/validations/{id}": one validation: its verdict and reason, the
//     kernel source with every statement marked proved, failed or
//     undecided and the counterexample under the failing line, with where
//     its numbers come from (the annotation's equation, the elements and
//     inputs read, recomputed by the reference evaluator; explain.go),
//     what changed since the previous validation of the kernel on its
//     branch (changes.go), the specification, the conditions, the
//     timings, the metadata, and live
//     progress while it is queued or running (validation.go), and its
//     buttons: Cancel while it is queued or running, Re-run once it has
//     finished (POST forms, refused across origins; the server in front
//     says who may press them, see Access; actions.go);
//   - "/assets/": the style sheet, the script and the icon, embedded
//     (assets/), and "/favicon.ico", the icon for pages that do not name
//     theirs.
//
// Every page's header shows a Log out button (a POST form) when the
// request is logged in, and a Log in link when logging in would grant
// the buttons (Access).
//
// Templates (templates/) are parsed once, in New; a list page costs one
// store call, a validation's page one, and two more to compare it with
// the previous validation of its kernel on its branch (changes.go). Pages work without JavaScript; the one script only replaces
// the two-second refresh of a running validation by its server-sent
// events. Unknown ids and paths get a 404 page, store errors a 500 page.
//
// Files, in reading order: web.go, list.go, validation.go, explain.go,
// changes.go, actions.go, format.go, archive.go, assets.go.
package web
