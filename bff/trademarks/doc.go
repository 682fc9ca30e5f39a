// Package trademarks is the admin's list of trademarked terms: listed, added and removed. The
// matching rule is platform/trademark's; the campaign editor shows its warnings. Behaviour is
// described in docs/domains.md.
package trademarks
