// Package storelink is where buyers reach the storefront and the key the links sent to them are
// signed with: PRESSROOM_STOREFRONT_PUBLIC_URL and PRESSROOM_STOREFRONT_SIGNING_KEY. The worker builds
// every link it mails or publishes to a store on it (cart recovery, review links of the delivery
// e-mail, product feeds), and the storefront checks the same key, so a deployment sets both once.
// See docs/storefront.md.
package storelink
