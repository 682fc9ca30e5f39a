// Package richtext is the one sanitizer of the rich text sellers write in the dashboard's editor
// (store pages and blog posts): the bff sanitizes a body when it is saved and the storefront again
// when it shows it, with the same policy, so a row written by any other path cannot carry a script
// either. It knows HTML, not stores: what a page or a post is belongs to bff/stores, bff/blog and
// the storefront. See docs/store-pages.md.
package richtext
