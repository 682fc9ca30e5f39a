// Package blog is the seller's side of the store blog: the account's blog categories, and each
// store's posts (title, address unique in the store, cover from the seller's uploads, sanitized
// rich-text body, excerpt, categories, draft or published with a publish date). The storefront
// reads the same tables to show /blog, its posts and categories; this package owns the seller's
// input and nothing of the buyers' pages. See docs/store-blog.md.
package blog
