// Package socialfeeds is the seller's side of social feeds (Social Feed screens): a feed names a
// store, a format (Google Merchant's RSS, the Facebook catalogue's CSV) and which of the store's
// campaigns it lists. Saving one, or asking for a rebuild, queues its build (worker/tasks
// QueueFeedBuild) in the same transaction; the worker writes the file and the storefront serves it
// at the stable address the screens show, with the last build's time and item count. See
// docs/social-feeds.md.
package socialfeeds
