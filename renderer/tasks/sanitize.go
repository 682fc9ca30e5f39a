package tasks

import (
	"strconv"
	"time"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/queue"
)

// TypeSanitize is the task checking and stripping one upload.
const TypeSanitize = "render:sanitize"

// SanitizePayload is what a sanitize task carries: the uploads row, never the bytes.
type SanitizePayload struct {
	UploadID int64 `json:"upload_id"`
}

// NewSanitizeJob builds the task for upload id on the renderer's interactive queue (a seller waits
// for it). The task id is deterministic so a repeated ingest call cannot queue it twice.
func NewSanitizeJob(uploadID int64) (queue.Job, error) {
	return queue.NewJob(queue.Job{
		Type: TypeSanitize, Queue: queue.Name(queue.Renderer, queue.Interactive),
		TaskID: "sanitize-" + strconv.FormatInt(uploadID, 10), MaxRetry: 5, Timeout: 5 * time.Minute,
	}, SanitizePayload{UploadID: uploadID})
}

// BlobVersion identifies one stored object: its size and modification time as the store reports
// them. The sanitize task records the version of the object it checked, and the bff serves an
// upload only while the object's version is that one, since a signed PUT URL keeps working until
// it expires and could replace a checked file.
func BlobVersion(info blob.Info) string {
	return strconv.FormatInt(info.Size, 10) + "-" + strconv.FormatInt(info.ModTime.UnixNano(), 10)
}
