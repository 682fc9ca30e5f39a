// Package featured serves the featured articles of the dashboard's carousel (docs/shell.md): GET /api/public/featured-info answers the active articles to anyone, in
// carousel order, and admins list, create and edit them under /api/admin/featured-info.
//
// An article's content is HTML: it goes through the notifications' sanitizer when stored and again
// when served, so a row written by other means never reaches a browser with a script in it. An
// article with a link opens that address in a new tab; one without opens in the UI's modal.
package featured
