package emailsend

import (
	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/worker/tasks"
)

func parseCampaign(t *asynq.Task) (tasks.SendCampaignPayload, error) {
	return queue.ParsePayload(t, func(p tasks.SendCampaignPayload) bool { return p.CampaignID > 0 })
}

func parseTest(t *asynq.Task) (tasks.SendTestPayload, error) {
	return queue.ParsePayload(t, func(p tasks.SendTestPayload) bool { return p.CampaignID > 0 && p.To != "" })
}
