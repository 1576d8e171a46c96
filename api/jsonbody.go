package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// decodeJSON decodes a request body holding one JSON object into v,
// refusing unknown fields and trailing data. Its errors speak of the
// body's JSON, never of Go: the field, in the API's dotted names
// ("options.timeout_seconds"), what it expects and what it got:
//
//	field "spec": expected a string, got a number
//
// Errors of reading the body (such as *http.MaxBytesError) are returned
// as they are.
func decodeJSON(r io.Reader, v any) error {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError(err)
	}
	if dec.More() {
		return errors.New("trailing data after the JSON object")
	}
	return nil
}

// jsonError restates an error of encoding/json in the API's terms.
func jsonError(err error) error {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr):
		got := jsonValue(typeErr.Value)
		if typeErr.Field == "" {
			return fmt.Errorf("expected a JSON object, got %s", got)
		}
		return fmt.Errorf("field %q: expected %s, got %s", typeErr.Field, jsonType(typeErr.Type), got)
	case errors.As(err, &syntaxErr):
		return fmt.Errorf("not valid JSON at byte %d: %s", syntaxErr.Offset, syntaxErr.Error())
	case errors.Is(err, io.EOF):
		return errors.New("the body is empty: expected a JSON object")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("the JSON ends before the object does")
	}
	if field, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return fmt.Errorf("unknown field %s", field)
	}
	return err
}

// jsonType names what a JSON value must be to decode into t.
func jsonType(t reflect.Type) string {
	if t == nil {
		return "another value"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean (true or false)"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a non-negative integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map:
		if t.Elem().Kind() == reflect.String {
			return "an object of strings"
		}
		return "an object"
	case reflect.Struct:
		return "an object"
	case reflect.Pointer:
		return jsonType(t.Elem())
	}
	return "another value"
}

// jsonValue names the kind of JSON value that encoding/json describes
// as value ("number", "number -1", "string", "bool", "array", "object").
func jsonValue(value string) string {
	switch {
	case value == "number":
		return "a number"
	case strings.HasPrefix(value, "number "):
		return "the number " + strings.TrimPrefix(value, "number ")
	case value == "bool":
		return "a boolean"
	case value == "string":
		return "a string"
	case value == "array", value == "object":
		return "an " + value
	}
	return value
}
