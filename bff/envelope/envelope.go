package envelope

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"
)

// Response is the body of every JSON answer.
type Response struct {
	Success bool         `json:"success"`
	Message string       `json:"message"`
	Data    any          `json:"data"`
	Errors  []FieldError `json:"errors"`
}

// FieldError is one problem, tied to an input field when it has one.
type FieldError struct {
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
}

// TooLong is the error of a field whose value is longer than max characters; label names it in the
// message ("The phone may not be longer than 64 characters.").
func TooLong(field, label string, max int) FieldError {
	return FieldError{Field: field, Message: fmt.Sprintf("The %s may not be longer than %d characters.", label, max)}
}

// OK answers 200 with data.
func OK(c echo.Context, data any) error {
	return c.JSON(http.StatusOK, Response{Success: true, Data: data, Errors: []FieldError{}})
}

// OKMessage answers 200 with a message the UI shows (a toast) and data.
func OKMessage(c echo.Context, message string, data any) error {
	return c.JSON(http.StatusOK, Response{Success: true, Message: message, Data: data, Errors: []FieldError{}})
}

// Accepted answers 202 with data: the work continues in the background.
func Accepted(c echo.Context, data any) error {
	return c.JSON(http.StatusAccepted, Response{Success: true, Data: data, Errors: []FieldError{}})
}

// Error is a failure the user may read: its Message and Errors are shown as they are.
type Error struct {
	Status  int
	Message string
	Errors  []FieldError
	// Header is set on the answer (Retry-After, WWW-Authenticate).
	Header http.Header
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s", e.Status, e.Message) }

// Fail builds an *Error; when errs is empty the message is also its only error, so the UI's rule
// "first errors[].message, else message" reads the same text either way.
func Fail(status int, message string, errs ...FieldError) *Error {
	if len(errs) == 0 {
		errs = []FieldError{{Message: message}}
	}
	return &Error{Status: status, Message: message, Errors: errs}
}

// Messages the UI shows for the standard failures.
const (
	MsgUnauthenticated = "Unauthenticated."
	MsgForbidden       = "This action is unauthorized."
	MsgNotFound        = "Not found."
	MsgInternal        = "Something went wrong on our side. Please try again."
	MsgTooLarge        = "The request body is too large."
)

// ErrorHandler renders every error a handler returns as an envelope. Errors that are not *Error or
// *echo.HTTPError are logged with the request id and answered as 500 without their details.
func ErrorHandler(log *slog.Logger) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		var e *Error
		var he *echo.HTTPError
		switch {
		case errors.As(err, &e):
		case errors.As(err, &he):
			e = fromHTTPError(he)
		default:
			log.Error("request failed", "err", err, "method", c.Request().Method, "path", c.Request().URL.Path,
				"request_id", c.Response().Header().Get(echo.HeaderXRequestID))
			e = Fail(http.StatusInternalServerError, MsgInternal)
		}
		for k, vs := range e.Header {
			for _, v := range vs {
				c.Response().Header().Add(k, v)
			}
		}
		body := Response{Success: false, Message: e.Message, Errors: e.Errors}
		if c.Request().Method == http.MethodHead {
			err = c.NoContent(e.Status)
		} else {
			err = c.JSON(e.Status, body)
		}
		if err != nil {
			log.Error("write error response", "err", err)
		}
	}
}

func fromHTTPError(he *echo.HTTPError) *Error {
	switch he.Code {
	case http.StatusNotFound:
		return Fail(he.Code, MsgNotFound)
	case http.StatusUnauthorized:
		return Fail(he.Code, MsgUnauthenticated)
	case http.StatusForbidden:
		return Fail(he.Code, MsgForbidden)
	case http.StatusRequestEntityTooLarge:
		return Fail(he.Code, MsgTooLarge)
	}
	if he.Code >= 500 {
		return Fail(he.Code, MsgInternal)
	}
	msg := http.StatusText(he.Code) + "."
	if s, ok := he.Message.(string); ok && s != "" {
		msg = s
	}
	return Fail(he.Code, msg)
}

// Bind decodes the JSON body into dst, answering a clear 400 for malformed JSON or wrong types.
func Bind(c echo.Context, dst any) error {
	if err := (&echo.DefaultBinder{}).BindBody(c, dst); err != nil {
		var he *echo.HTTPError
		if errors.As(err, &he) && he.Code == http.StatusRequestEntityTooLarge {
			return Fail(he.Code, MsgTooLarge)
		}
		return Fail(http.StatusBadRequest, "The request body is not valid JSON for this call.")
	}
	return nil
}
