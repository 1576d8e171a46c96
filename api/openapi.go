package api

import _ "embed"

// openAPI is the OpenAPI 3.0 document of the service, served on
// /openapi.json.
//
//go:embed openapi.json
var openAPI []byte

// OpenAPI returns the service's OpenAPI 3.0 document.
func OpenAPI() []byte { return append([]byte(nil), openAPI...) }
