// Package version tells the UI which build of Pressroom is serving it: GET /api/api3/version answers
// the build identity as last_update, and the UI, polling it every 60 seconds, offers "Update Now"
// when it changes. It is not a changelog nor a health check.
package version
