// Package env reads typed PRESSROOM_* settings from the process environment. Each package's
// Config loader calls it; every error names the variable so an operator knows what to fix.
// It knows nothing of which variables exist: that belongs to the packages that use them.
package env

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Lookup is where values come from: os.LookupEnv in the binaries, a map in tests.
type Lookup func(name string) (string, bool)

// OS reads the real process environment.
var OS Lookup = os.LookupEnv

// Map turns a map into a Lookup, for tests.
func Map(m map[string]string) Lookup {
	return func(name string) (string, bool) {
		v, ok := m[name]
		return v, ok
	}
}

// Reader collects the first error while a Config is loaded field by field, so a loader reads as a
// flat list of assignments and reports the first bad variable.
type Reader struct {
	lookup Lookup
	err    error
}

// NewReader reads from lookup (OS when nil).
func NewReader(lookup Lookup) *Reader {
	if lookup == nil {
		lookup = OS
	}
	return &Reader{lookup: lookup}
}

// Err is the first problem met, naming its variable.
func (r *Reader) Err() error { return r.err }

func (r *Reader) value(name string) (string, bool) {
	v, ok := r.lookup(name)
	v = strings.TrimSpace(v)
	return v, ok && v != ""
}

func (r *Reader) fail(name, v, want string) {
	if r.err == nil {
		r.err = fmt.Errorf("%s=%q: want %s", name, v, want)
	}
}

// String sets *dst from name when it is set and not blank.
func (r *Reader) String(dst *string, name string) {
	if v, ok := r.value(name); ok {
		*dst = v
	}
}

// Int sets *dst from name when set.
func (r *Reader) Int(dst *int, name string) {
	if v, ok := r.value(name); ok {
		n, err := strconv.Atoi(v)
		if err != nil {
			r.fail(name, v, "a whole number")
			return
		}
		*dst = n
	}
}

// Int64 sets *dst from name when set.
func (r *Reader) Int64(dst *int64, name string) {
	if v, ok := r.value(name); ok {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			r.fail(name, v, "a whole number")
			return
		}
		*dst = n
	}
}

// Bool sets *dst from name when set (1, true, yes, on / 0, false, no, off).
func (r *Reader) Bool(dst *bool, name string) {
	if v, ok := r.value(name); ok {
		switch strings.ToLower(v) {
		case "1", "true", "yes", "on":
			*dst = true
		case "0", "false", "no", "off":
			*dst = false
		default:
			r.fail(name, v, "true or false")
		}
	}
}

// Duration sets *dst from name when set, in Go duration syntax (500ms, 7s, 168h).
func (r *Reader) Duration(dst *time.Duration, name string) {
	if v, ok := r.value(name); ok {
		d, err := time.ParseDuration(v)
		if err != nil {
			r.fail(name, v, "a duration such as 500ms, 30s or 168h")
			return
		}
		*dst = d
	}
}
