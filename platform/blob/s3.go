package blob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// S3 keeps blobs in one bucket of an S3-compatible service (AWS S3, MinIO, Ceph, R2, versitygw,
// ...). Keys are object names unchanged; signed URLs are the service's own pre-signed URLs
// (signature version 4), which the service verifies.
//
// It uses minio-go: a small, maintained client that speaks to any S3-compatible endpoint and
// pre-signs GET URLs and POST policies, which is how an upload pins its Content-Type and size.
type S3 struct {
	client *minio.Client
	// signer pre-signs URLs: client, or a client of the public endpoint when one is configured.
	// Pre-signing is local (the region is configured), so it never dials that endpoint.
	signer    *minio.Client
	bucket    string
	maxObject int64
}

// partSize is the multipart chunk for large or unknown-length bodies: one such buffer is the
// memory a Put holds. (Without it minio-go sizes parts for 5 TiB when the length is unknown.)
const partSize = 16 << 20

// NewS3 builds the client; it does not contact the service.
func NewS3(cfg Config) (*S3, error) {
	cfg.Backend = BackendS3
	if err := cfg.Validate(false); err != nil {
		return nil, err
	}
	lookup := minio.BucketLookupAuto
	if cfg.S3.UsePathStyle {
		lookup = minio.BucketLookupPath
	}
	client := func(endpoint string, secure bool) (*minio.Client, error) {
		return minio.New(endpoint, &minio.Options{
			Creds:        credentials.NewStaticV4(cfg.S3.AccessKeyID, cfg.S3.SecretAccessKey, ""),
			Secure:       secure,
			Region:       cfg.S3.Region,
			BucketLookup: lookup,
		})
	}
	c, err := client(cfg.S3.Endpoint, cfg.S3.UseTLS)
	if err != nil {
		return nil, fmt.Errorf("PRESSROOM_S3_ENDPOINT=%q: %w", cfg.S3.Endpoint, err)
	}
	s := &S3{client: c, signer: c, bucket: cfg.S3.Bucket, maxObject: cfg.MaxObjectBytes}
	if cfg.S3.PublicEndpoint != "" {
		u, _ := url.Parse(cfg.S3.PublicEndpoint) // Validate parsed it
		if s.signer, err = client(u.Host, u.Scheme == "https"); err != nil {
			return nil, fmt.Errorf("PRESSROOM_S3_PUBLIC_ENDPOINT=%q: %w", cfg.S3.PublicEndpoint, err)
		}
	}
	return s, nil
}

// Check asks the service whether the bucket exists.
func (s *S3) Check(ctx context.Context) error {
	ok, err := s.client.BucketExists(ctx, s.bucket)
	if err != nil {
		return fmt.Errorf("S3 bucket %s: %w", s.bucket, err)
	}
	if !ok {
		return fmt.Errorf("S3 bucket %s does not exist", s.bucket)
	}
	return nil
}

// Put uploads the body in one request, or in 16 MiB parts when it is larger or of unknown
// length; S3 publishes the object only when the upload completes.
func (s *S3) Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) error {
	if err := ValidateKey(key); err != nil {
		return err
	}
	ct, err := checkContentType(contentType)
	if err != nil {
		return err
	}
	if size > s.maxObject {
		return fmt.Errorf("put %s: %d bytes over the limit of %d: %w", key, size, s.maxObject, ErrTooLarge)
	}
	// Wrapping also hides io.ReaderAt, which would make minio-go upload parts in parallel with
	// a buffer each.
	lr := &limitReader{r: r, left: s.maxObject}
	_, err = s.client.PutObject(ctx, s.bucket, key, lr, size, minio.PutObjectOptions{ContentType: ct, PartSize: partSize})
	switch {
	case lr.exceeded:
		return fmt.Errorf("put %s: over the limit of %d bytes: %w", key, s.maxObject, ErrTooLarge)
	case err != nil:
		return fmt.Errorf("put %s: %w", key, err)
	}
	return nil
}

// Get opens the object; the first request is made here, so a missing key is reported now.
func (s *S3) Get(ctx context.Context, key string) (io.ReadCloser, Info, error) {
	if err := ValidateKey(key); err != nil {
		return nil, Info{}, err
	}
	obj, err := s.client.GetObject(ctx, s.bucket, key, minio.GetObjectOptions{})
	if err != nil {
		return nil, Info{}, s3Error("get", key, err)
	}
	oi, err := obj.Stat()
	if err != nil {
		obj.Close()
		return nil, Info{}, s3Error("get", key, err)
	}
	return obj, infoOf(key, oi), nil
}

// Stat asks for the object's headers.
func (s *S3) Stat(ctx context.Context, key string) (Info, error) {
	if err := ValidateKey(key); err != nil {
		return Info{}, err
	}
	oi, err := s.client.StatObject(ctx, s.bucket, key, minio.StatObjectOptions{})
	if err != nil {
		return Info{}, s3Error("stat", key, err)
	}
	return infoOf(key, oi), nil
}

// Delete removes the object; S3 answers success for a missing key too.
func (s *S3) Delete(ctx context.Context, key string) error {
	if err := ValidateKey(key); err != nil {
		return err
	}
	if err := s.client.RemoveObject(ctx, s.bucket, key, minio.RemoveObjectOptions{}); err != nil {
		return s3Error("delete", key, err)
	}
	return nil
}

// SignUpload pre-signs a browser-based POST upload: a policy, signed with signature version 4,
// that names the key, the exact Content-Type and a content-length-range of 1 to maxBytes, which the
// service enforces while the body streams (a pre-signed PUT cannot carry a size range).
func (s *S3) SignUpload(ctx context.Context, key, contentType string, maxBytes int64, ttl time.Duration) (SignedUpload, error) {
	if err := checkSignUpload(key, contentType, maxBytes, ttl); err != nil {
		return SignedUpload{}, err
	}
	maxBytes = min(maxBytes, s.maxObject)
	p := minio.NewPostPolicy()
	for _, err := range []error{
		p.SetBucket(s.bucket), p.SetKey(key), p.SetContentType(contentType),
		p.SetContentLengthRange(1, maxBytes), p.SetExpires(time.Now().UTC().Add(ttl)),
	} {
		if err != nil {
			return SignedUpload{}, fmt.Errorf("sign upload %s: %w", key, err)
		}
	}
	u, fields, err := s.signer.PresignedPostPolicy(ctx, p)
	if err != nil {
		return SignedUpload{}, fmt.Errorf("sign upload %s: %w", key, err)
	}
	return SignedUpload{Method: http.MethodPost, URL: u.String(), Fields: fields, MaxBytes: maxBytes}, nil
}

// SignGet pre-signs a GET of key.
func (s *S3) SignGet(ctx context.Context, key string, ttl time.Duration) (string, error) {
	return s.signGet(ctx, key, ttl, nil)
}

// SignDownload pre-signs a GET of key with the response-content-disposition parameter, which the
// service answers as the Content-Disposition header; the parameter is part of the signature.
func (s *S3) SignDownload(ctx context.Context, key, fileName string, ttl time.Duration) (string, error) {
	cd, err := ContentDisposition(fileName)
	if err != nil {
		return "", err
	}
	return s.signGet(ctx, key, ttl, url.Values{"response-content-disposition": {cd}})
}

func (s *S3) signGet(ctx context.Context, key string, ttl time.Duration, params url.Values) (string, error) {
	if err := checkSignGet(key, ttl); err != nil {
		return "", err
	}
	u, err := s.signer.PresignedGetObject(ctx, s.bucket, key, ttl, params)
	if err != nil {
		return "", fmt.Errorf("sign get %s: %w", key, err)
	}
	return u.String(), nil
}

func infoOf(key string, oi minio.ObjectInfo) Info {
	return Info{Key: key, Size: oi.Size, ContentType: oi.ContentType, ModTime: oi.LastModified}
}

// s3Error turns the service's "no such key" into ErrNotFound.
func s3Error(op, key string, err error) error {
	var resp minio.ErrorResponse
	if errors.As(err, &resp) && (resp.Code == minio.NoSuchKey || resp.StatusCode == http.StatusNotFound && resp.Code != minio.NoSuchBucket) {
		return fmt.Errorf("%s %s: %w", op, key, ErrNotFound)
	}
	return fmt.Errorf("%s %s: %w", op, key, err)
}
