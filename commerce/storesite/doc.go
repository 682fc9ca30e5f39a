// Package storesite is what a store's public site shows buyers, shared by the storefront (its pages
// and sitemap.xml) and the bff (the sitemap screens): the conditions under which a campaign, a
// collection, a page, a blog post and a blog category are public in a store, the sitemap made of
// them (its sections, in files of at most MaxURLs addresses), and a store's address outside a
// request. It serves no HTTP and renders no page. See docs/sitemap.md.
package storesite
