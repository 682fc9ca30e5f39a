// Package notifications is the bff side of seller notifications (docs/shell.md): the paged list with is_new per account, one notification (which
// marks it read), mark all as read, the popup's read-status reports (action 1 "don't show this
// notification", action 2 "seen in the popup"), the bell's short list with the unread count, the
// popup's list, and the admin call that posts a notification to one seller or to all.
//
// Other packages raise notifications with Add inside their own transactions (a rejected print file
// tells its seller). Messages are HTML: Add sanitizes them before they are stored and every answer
// sanitizes them again, so a row written by other means never reaches a browser with a script in it.
//
// "All sellers" means the accounts of sellers: admins, designers and team members in their own
// accounts see only the notifications posted to them.
//
// Read state belongs to the account a notification is shown in: a team member working in a seller's
// account sees the seller's notifications and reads them for the seller, the way the popup's
// dismissed list is kept per seller (id|seller_id). An admin impersonating a seller may look at a
// notification without marking it read.
//
// The package does not deliver notifications elsewhere (e-mail, chat channels of
// /settings/notification); it only keeps what the dashboard shows.
package notifications
