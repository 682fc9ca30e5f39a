// Package domains is the seller's custom domains screen: the domains of the seller's stores, added
// with the DNS record that proves them, checked again on demand, and removed. The naming and
// checking rules are platform/customdomain's; the storefront serves verified domains. Behaviour is
// described in docs/domains.md.
package domains
