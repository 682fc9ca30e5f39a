// Package publicurl is the one setting every e-mailed or signed link to the dashboard is built on:
// PRESSROOM_PUBLIC_URL, the address browsers use for the bff. The bff (password, e-mail and team
// links), the worker (campaign unsubscribe links) and the local blob store all read it here, so a
// deployment sets it once and no process falls back to an address of its own (docs/operations.md).
package publicurl
