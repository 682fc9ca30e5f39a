// Package feeds builds the sellers' social feeds (docs/social-feeds.md): a store's products, each
// colour and size an item with its price, availability, link and mockup, as a Google Merchant RSS
// 2.0 feed (the g: namespace) or a Facebook catalogue CSV. A build streams the catalogue a batch of
// products at a time (commerce/checkout.EachOffer) through the format's writer straight into blob
// storage, so its memory stays flat however large the store. The storefront serves the file at the
// feed's stable address.
//
// Builds are feeds:build tasks. The bff queues one through the outbox when a seller saves a feed or
// asks for a rebuild; the Watcher queues one when the catalogue under a feed changed since its last
// build (prices, products on sale, mockups, stock, the store's name), which it tells by a
// fingerprint of that catalogue, so a change made anywhere reaches the feed within an interval.
package feeds
