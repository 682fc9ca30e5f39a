package variant

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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
	b, err := json.Marshal(Payload{Key: key, Variant: name})
	if err != nil {
		return queue.Job{}, err
	}
	sum := sha256.Sum256([]byte(name + "\x00" + key))
	return queue.Job{
		Type: TypeVariant, Payload: b, Queue: queue.Name(queue.Renderer, queue.Interactive),
		TaskID: "variant-" + name + "-" + hex.EncodeToString(sum[:16]), MaxRetry: 2, Timeout: 2 * time.Minute,
	}, nil
}

func parsePayload(t *asynq.Task) (Payload, Spec, error) {
	var p Payload
	if err := json.Unmarshal(t.Payload(), &p); err != nil || blob.ValidateKey(p.Key) != nil {
		return Payload{}, Spec{}, fmt.Errorf("malformed %s payload %q: %w", TypeVariant, t.Payload(), asynq.SkipRetry)
	}
	s, ok := Lookup(p.Variant)
	if !ok {
		return Payload{}, Spec{}, fmt.Errorf("%s: unknown variant %q: %w", TypeVariant, p.Variant, asynq.SkipRetry)
	}
	return p, s, nil
}
