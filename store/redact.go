package store

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// masked stands for a password in a DSN or an error.
const masked = "xxxxx"

// RedactDSN returns dsn with its passwords masked, for logs and errors: a
// URL's userinfo password and its password and sslpassword parameters,
// and in a DSN that is no URL whatever looks like one ("user:pass@",
// "password=...").
func RedactDSN(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.Host == "" {
		return redactLoosely(dsn)
	}
	if u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), masked)
		}
	}
	if q := u.Query(); u.RawQuery != "" {
		changed := false
		for _, k := range secretParams {
			if q.Has(k) {
				q.Set(k, masked)
				changed = true
			}
		}
		if changed {
			u.RawQuery = q.Encode()
		}
	}
	return u.String()
}

// secretParams are the connection parameters that hold a password.
var secretParams = []string{"password", "sslpassword"}

var (
	looseUserinfo = regexp.MustCompile(`(://[^:/@]*:)[^/]*@`)
	looseParam    = regexp.MustCompile(`((?:ssl)?password=)[^&\s]*`)
)

// redactLoosely masks what looks like a password in a string that is no
// URL: better too much than too little.
func redactLoosely(s string) string {
	s = looseUserinfo.ReplaceAllString(s, "${1}"+masked+"@")
	return looseParam.ReplaceAllString(s, "${1}"+masked)
}

// dsnSecrets returns the passwords of dsn, as written in it and decoded.
func dsnSecrets(dsn string) []string {
	var out []string
	add := func(s string) {
		if s != "" {
			out = append(out, s)
			if e := url.QueryEscape(s); e != s {
				out = append(out, e)
			}
			if e := url.PathEscape(s); e != s {
				out = append(out, e)
			}
		}
	}
	if u, err := url.Parse(dsn); err == nil && u.Host != "" {
		if u.User != nil {
			p, _ := u.User.Password()
			add(p)
		}
		q := u.Query()
		for _, k := range secretParams {
			add(q.Get(k))
		}
	}
	// What a loose reading finds too, for a DSN that does not parse.
	for _, m := range looseUserinfo.FindAllStringSubmatch(dsn, -1) {
		add(strings.TrimSuffix(strings.TrimPrefix(m[0], m[1]), "@"))
	}
	for _, m := range looseParam.FindAllStringSubmatch(dsn, -1) {
		add(strings.TrimPrefix(m[0], m[1]))
	}
	return out
}

// RedactError returns err with every password of dsn masked in its
// message, wherever a layer below put it; errors.Is and errors.As still
// see err's chain. It returns nil for nil.
func RedactError(err error, dsn string) error {
	if err == nil {
		return nil
	}
	secrets := dsnSecrets(dsn)
	if len(secrets) == 0 {
		return err
	}
	return &redactedError{err: err, secrets: secrets}
}

// redactedError is an error whose message hides secrets.
type redactedError struct {
	err     error
	secrets []string
}

func (e *redactedError) Error() string {
	msg := redactLoosely(e.err.Error())
	// The longest first, so that no secret's part survives another's
	// replacement.
	for _, s := range sortedByLength(e.secrets) {
		msg = strings.ReplaceAll(msg, s, masked)
	}
	return msg
}

func (e *redactedError) Unwrap() error { return e.err }

// sortedByLength returns ss, longest first.
func sortedByLength(ss []string) []string {
	out := slices.Clone(ss)
	slices.SortStableFunc(out, func(a, b string) int { return len(b) - len(a) })
	return out
}
