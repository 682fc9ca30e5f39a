// Package envelope is the bff's HTTP contract with the UI (DESIGN.md "Contracts"): every JSON answer
// is {success, message, data, errors} with errors a list of {field?, message}; lists take q, page,
// per_page and order_by and answer a Page. Handlers return *Error for anything the user should
// read; the error handler turns every other error into a 500 whose details stay in the log.
package envelope
