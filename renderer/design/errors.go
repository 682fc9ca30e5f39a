package design

import (
	"errors"
	"strings"
)

// ErrInvalid is matched (errors.Is) by every error Parse returns: the document is not one this version reads.
var ErrInvalid = errors.New("invalid design document")

// Problem is one thing wrong with a document.
type Problem struct {
	// Field is the path of the offending value, e.g. "objects[1].textWidth"; empty for the document as a whole
	// (bad JSON, too large).
	Field string `json:"field,omitempty"`
	// Message says what is wrong, for a person.
	Message string `json:"message"`
}

func (p Problem) String() string {
	if p.Field == "" {
		return p.Message
	}
	return p.Field + ": " + p.Message
}

// ValidationError lists every problem found in a document, in document order.
type ValidationError struct {
	Problems []Problem
}

func (e *ValidationError) Error() string {
	var b strings.Builder
	b.WriteString("invalid design document: ")
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// Is makes errors.Is(err, ErrInvalid) true.
func (e *ValidationError) Is(target error) bool { return target == ErrInvalid }
