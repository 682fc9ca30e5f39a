package variant

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/queue"
)

// TypeVariant is the Asynq task type.
const TypeVariant = "render:variant"

// Payload names the source blob and the variant to make of it.
type Payload struct {
	Key     string `json:"key"`
	Variant string `json:"variant"`
}

// NewVariantJob builds the task making variant name of the blob under key, on the renderer's
// interactive queue (a screen waits for it). Its id is derived from both, so concurrent first
// requests queue it once.
func NewVariantJob(key, name string) (queue.Job, error) {
	sum := sha256.Sum256([]byte(name + "\x00" + key))
	return queue.NewJob(queue.Job{
		Type: TypeVariant, Queue: queue.Name(queue.Renderer, queue.Interactive),
		TaskID: "variant-" + name + "-" + hex.EncodeToString(sum[:16]), MaxRetry: 2, Timeout: 2 * time.Minute,
	}, Payload{Key: key, Variant: name})
}

func parsePayload(t *asynq.Task) (Payload, Spec, error) {
	p, err := queue.ParsePayload(t, func(p Payload) bool { return blob.ValidateKey(p.Key) == nil })
	if err != nil {
		return Payload{}, Spec{}, err
	}
	s, ok := Lookup(p.Variant)
	if !ok {
		return Payload{}, Spec{}, fmt.Errorf("%s: unknown variant %q: %w", TypeVariant, p.Variant, asynq.SkipRetry)
	}
	return p, s, nil
}
