package emailsend

import (
	"strconv"
	"time"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/platform/queue"
)

// Task types.
const (
	// TypeSendCampaign mails a campaign to its store's subscribed subscribers.
	TypeSendCampaign = "email:send-campaign"
	// TypeSendTest mails one test copy of a campaign to an address.
	TypeSendTest = "email:send-test"
)

// CampaignPayload is what a campaign send carries.
type CampaignPayload struct {
	CampaignID int64 `json:"campaign_id"`
}

// TestPayload is what a test send carries: the campaign and the address of the copy.
type TestPayload struct {
	CampaignID int64  `json:"campaign_id"`
	To         string `json:"to"`
}

// NewSendCampaignJob builds the send of campaign id. The task id is deterministic so one send of a
// campaign cannot be queued twice; a long send resumes where it stopped when retried.
func NewSendCampaignJob(id int64) (queue.Job, error) {
	return queue.NewJob(queue.Job{
		Type: TypeSendCampaign, Queue: queue.Name(queue.Worker, queue.Default),
		TaskID: "email-campaign-" + strconv.FormatInt(id, 10), MaxRetry: 10, Timeout: 6 * time.Hour,
	}, CampaignPayload{CampaignID: id})
}

// NewSendTestJob builds a test send of campaign id to the address to.
func NewSendTestJob(id int64, to string) (queue.Job, error) {
	return queue.NewJob(queue.Job{
		Type: TypeSendTest, Queue: queue.Name(queue.Worker, queue.Default), MaxRetry: 3, Timeout: time.Minute,
	}, TestPayload{CampaignID: id, To: to})
}

func parseCampaign(t *asynq.Task) (CampaignPayload, error) {
	return queue.ParsePayload(t, func(p CampaignPayload) bool { return p.CampaignID > 0 })
}

func parseTest(t *asynq.Task) (TestPayload, error) {
	return queue.ParsePayload(t, func(p TestPayload) bool { return p.CampaignID > 0 && p.To != "" })
}
