// Package blob stores Pressroom's files (uploaded artwork, print files, mockups, variants) under
// keys such as "u/7/art.png" or "p/12/design_3_4.png", and hands out signed, expiring URLs so a
// browser or the renderer's Chrome pool can PUT and GET them without a session.
//
// One interface, Store, has two implementations chosen by PRESSROOM_BLOB_BACKEND:
//
//   - Local (the default): files under a folder (PRESSROOM_BLOB_DIR, default .data/blobs),
//     written atomically (temporary file, fsync, rename), with URLs signed by HMAC-SHA256 under
//     PRESSROOM_BLOB_SIGNING_KEY and served by Local.Handler, which the bff mounts at the path of
//     PRESSROOM_BLOB_PUBLIC_URL (default http://127.0.0.1:8080/blobs). Every process that signs
//     or reads URLs must share the folder and the key.
//   - S3: one bucket of any S3-compatible service; its URLs are pre-signed by the service's
//     protocol (signature version 4) and served by the service itself, at
//     PRESSROOM_S3_PUBLIC_ENDPOINT when browsers reach it elsewhere than the processes do.
//
// A signed GET URL has the same shape either way; a download's (SignDownload) also carries, in its
// signature, the file name the answer's Content-Disposition gives, whichever store answers. A signed
// upload (SignUpload) carries its size cap in the signature and says how to send the file: a PUT of
// the body with the signed Content-Type to the local store's Handler, which stops reading past the
// cap; a multipart POST with a signed policy (content-length-range) to S3, which the service
// enforces. CORS for S3 is the bucket's configuration.
//
// The package moves bytes; it is not for deciding what they are. It never decodes images, sniffs
// types or checks dimensions (the renderer's sanitize step does), never keeps a body in memory
// (callers stream in and out), and knows nothing of who may read which key: the bff checks
// permissions before it signs a URL, and a signed URL is the whole permission.
package blob
