package symeval

import "fmt"

// guard turns a panic inside an exported function (a bug here or in the
// engine) into an error, so that no panic escapes the package. Use as
// defer guard(&err, "what").
func guard(err *error, what string) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%s: internal error: %v", what, r)
	}
}
