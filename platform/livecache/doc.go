// Package livecache keeps values read from Postgres in process memory for as long as Postgres
// tells the process of every change to them: a Cache follows a notification channel
// (database.Follow), serves nothing until it listens, drops what each notification concerns as it
// arrives, and serves nothing again from the moment the connection is lost until it listens anew.
// A value read from Postgres while a notification arrived is not kept, since it may predate the
// change the notification announces.
//
// It is for reads that every request makes (the caller's session, the campaigns page) and whose
// tables carry triggers sending the notifications. It is not a general cache: nothing is kept
// without a channel, and the triggers are the only source of truth about what changed.
package livecache
