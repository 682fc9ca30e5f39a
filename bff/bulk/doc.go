// Package bulk is the bff side of bulk campaigns (docs/bulk.md): creating bulk
// multi-print-space records (one, or one per artwork of a named bulk upload), reading a record and
// an upload's progress, the list with its query (q, status, type, time), the row actions (retry, remove, start,
// stop by ids; start-all, stop-all) answering per-id statuses, the origin campaign of the
// bulk-v3 flow, the background campaign jobs (create, list, log) that the worker's scheduler
// picks up, and the campaign import (docs/campaigns.md#import): a CSV or JSON file read and checked
// row by row, its good rows made bulk records of type campaign_import under a bulk upload of kind
// campaigns, its bad and repeated rows kept with their lines and reasons for the import's report.
//
// A record belongs to the account the session acts in. Creating or starting a record queues its
// bulk:record task (package worker/bulk, which does the work and the record checks) through
// the outbox in the transaction that writes the record; retrying a record whose print files
// failed queues their render:export tasks again the same way. Reads need get_campaigns, changes
// update_campaign; designers have neither.
//
// This package does not judge a record's designs beyond their being JSON text: the worker's
// checks give the messages on the row. An imported row is checked here against what the account
// has (its campaigns, uploads and stores, the catalogue's products) so that the report names a bad
// row at once; the worker checks again what may have changed since.
package bulk
