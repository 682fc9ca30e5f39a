package tasks

import (
	"strconv"
	"time"

	"github.com/pressroom/pressroom/platform/queue"
)

// E-mail task types.
const (
	// TypeSendCampaign mails a campaign to its store's subscribed subscribers.
	TypeSendCampaign = "email:send-campaign"
	// TypeSendTest mails one test copy of a campaign to an address.
	TypeSendTest = "email:send-test"
	// TypeSyncProfiles copies a store's subscribed subscribers to its Klaviyo list.
	TypeSyncProfiles = "email:sync-profiles"
)

// SendCampaignPayload is what a campaign send carries.
type SendCampaignPayload struct {
	CampaignID int64 `json:"campaign_id"`
}

// SendTestPayload is what a test send carries: the campaign and the address of the copy.
type SendTestPayload struct {
	CampaignID int64  `json:"campaign_id"`
	To         string `json:"to"`
}

// SyncProfilesPayload is what a sync task carries: the email_sync_runs row.
type SyncProfilesPayload struct {
	RunID int64 `json:"run_id"`
}

// Statuses of an e-mail campaign (email_campaigns.status).
const (
	EmailDraft     = "draft"
	EmailScheduled = "scheduled"
	EmailSending   = "sending"
	EmailSent      = "sent"
	EmailFailed    = "failed"
)

// Statuses of a sync run (email_sync_runs.status).
const (
	SyncQueued  = "queued"
	SyncRunning = "running"
	SyncDone    = "done"
	SyncFailed  = "failed"
)

// UnsubscribePlaceholder is where a campaign's HTML body takes the recipient's unsubscribe link.
const UnsubscribePlaceholder = "{{unsubscribe_url}}"

// UnsubscribePath is the public path of an unsubscribe link, followed by the delivery's token.
const UnsubscribePath = "/api/public/email-marketing/unsubscribe/"

// NewSendCampaignJob builds the send of campaign id. The task id is deterministic so one send of a
// campaign cannot be queued twice; a long send resumes where it stopped when retried.
func NewSendCampaignJob(id int64) (queue.Job, error) {
	return queue.NewJob(queue.Job{
		Type: TypeSendCampaign, Queue: queue.Name(queue.Worker, queue.Default),
		TaskID: "email-campaign-" + strconv.FormatInt(id, 10), MaxRetry: 10, Timeout: 6 * time.Hour,
	}, SendCampaignPayload{CampaignID: id})
}

// NewSendTestJob builds a test send of campaign id to the address to.
func NewSendTestJob(id int64, to string) (queue.Job, error) {
	return queue.NewJob(queue.Job{
		Type: TypeSendTest, Queue: queue.Name(queue.Worker, queue.Default), MaxRetry: 3, Timeout: time.Minute,
	}, SendTestPayload{CampaignID: id, To: to})
}

// NewSyncProfilesJob builds the task of sync run runID on the worker's default queue. The task id
// is deterministic so the run cannot be queued twice.
func NewSyncProfilesJob(runID int64) (queue.Job, error) {
	return queue.NewJob(queue.Job{
		Type: TypeSyncProfiles, Queue: queue.Name(queue.Worker, queue.Default),
		TaskID: "email-sync-" + strconv.FormatInt(runID, 10), MaxRetry: 8, Timeout: time.Hour,
	}, SyncProfilesPayload{RunID: runID})
}
