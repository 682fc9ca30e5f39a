// Package customdomain holds the rules of a store's own domain: which names a seller may add
// (normalized to lower-case ASCII, IDNA-checked, never an IP address or one of the platform's own
// hosts) and how ownership is proven, by a DNS TXT record at _pressroom-verify.{domain} holding
// the domain's token, looked up through a configurable resolver. The Checker records each check
// on the store_domains row. It serves neither HTTP nor stores: the bff, the worker and the
// storefront do. Behaviour is described in docs/domains.md.
package customdomain
