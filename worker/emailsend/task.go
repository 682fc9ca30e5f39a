package emailsend

import (
	"encoding/json"
	"fmt"
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
	b, err := json.Marshal(CampaignPayload{CampaignID: id})
	if err != nil {
		return queue.Job{}, err
	}
	return queue.Job{
		Type: TypeSendCampaign, Payload: b, Queue: queue.Name(queue.Worker, queue.Default),
		TaskID: "email-campaign-" + strconv.FormatInt(id, 10), MaxRetry: 10, Timeout: 6 * time.Hour,
	}, nil
}

// NewSendTestJob builds a test send of campaign id to the address to.
func NewSendTestJob(id int64, to string) (queue.Job, error) {
	b, err := json.Marshal(TestPayload{CampaignID: id, To: to})
	if err != nil {
		return queue.Job{}, err
	}
	return queue.Job{
		Type: TypeSendTest, Payload: b, Queue: queue.Name(queue.Worker, queue.Default), MaxRetry: 3, Timeout: time.Minute,
	}, nil
}

func parseCampaign(t *asynq.Task) (CampaignPayload, error) {
	var p CampaignPayload
	if err := json.Unmarshal(t.Payload(), &p); err != nil || p.CampaignID <= 0 {
		return CampaignPayload{}, fmt.Errorf("malformed %s payload %q: %w", TypeSendCampaign, t.Payload(), asynq.SkipRetry)
	}
	return p, nil
}

func parseTest(t *asynq.Task) (TestPayload, error) {
	var p TestPayload
	if err := json.Unmarshal(t.Payload(), &p); err != nil || p.CampaignID <= 0 || p.To == "" {
		return TestPayload{}, fmt.Errorf("malformed %s payload %q: %w", TypeSendTest, t.Payload(), asynq.SkipRetry)
	}
	return p, nil
}
