// Package uploads is the bff side of uploading files (docs/uploads.md): the pre-signed-URL calls, the direct multipart
// upload, the ingest call that records an upload and queues its render:sanitize task, the upload
// status, and GET /api/files/{key}, which serves stored files and their WebP variants.
//
// The flow: POST /api/pre-signed-url names a key under the caller's prefix
// (u/{userId}/{folder}/{random}-{name}) and signs a PUT for it; the browser PUTs the file to the
// blob store (the local store's handler at /blobs, or S3); POST /api/uploads/complete records the
// upload pending and queues render:sanitize in the same transaction; the renderer makes it ready
// or rejected; GET /api/uploads/{id} shows which. POST /api/upload does the same for a small file
// in one call. Nothing serves an upload before it is ready.
//
// The public variant, POST /api/public/pre-signed-url (no session), signs a PUT under public/ only,
// with a shorter lifetime, a per-client hourly quota and a smaller size cap checked at
// POST /api/public/uploads/complete; such uploads have no owner and are sanitized the same way.
//
// File URLs (fileUrl) are /api/files/{key}: stable, so designs can store them, and usable by an
// <img> without a session. The key's random part makes them unguessable, like the signed URL a
// browser is redirected to. ?variant=design (or any name of package renderer/variant) serves the
// WebP variant, made on first request by the renderer.
//
// A signed PUT URL works until it expires, even after the upload was checked, so the renderer
// records the checked object's version (size and modification time, tasks.BlobVersion) and the file
// and any new variant are served only while the stored object is still that one; a replaced file
// answers 409.
//
// Variants: concurrent first requests in one bff share one wait (singleflight); across bff
// processes the task id is deterministic, so Asynq queues it once, and everyone waits for the same
// blob. A variant the renderer gave up on (an image it cannot decode) answers 422 within about half
// a second, and its archived task is deleted on the next request so that one tries again; a
// renderer too slow answers 503 with Retry-After after PRESSROOM_VARIANT_WAIT.
//
// The package never reads pixels: sniffing, stripping, measuring and scaling happen in the
// renderer.
package uploads
