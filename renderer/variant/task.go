package variant

import (
	"fmt"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/renderer/tasks"
)

func parsePayload(t *asynq.Task) (tasks.VariantPayload, tasks.VariantSpec, error) {
	p, err := queue.ParsePayload(t, func(p tasks.VariantPayload) bool { return blob.ValidateKey(p.Key) == nil })
	if err != nil {
		return tasks.VariantPayload{}, tasks.VariantSpec{}, err
	}
	s, ok := tasks.LookupVariant(p.Variant)
	if !ok {
		return tasks.VariantPayload{}, tasks.VariantSpec{}, fmt.Errorf("%s: unknown variant %q: %w", tasks.TypeVariant, p.Variant, asynq.SkipRetry)
	}
	return p, s, nil
}
