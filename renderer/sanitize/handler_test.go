package sanitize

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"log/slog"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"
	"github.com/klauspost/compress/zlib"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/platform/testinfra"
	"github.com/pressroom/pressroom/renderer/imagelimit"
	"github.com/pressroom/pressroom/renderer/pngmeta"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// testPNG encodes a w x h image with a pattern, then inserts an iTXt XMP chunk of xmpBytes and a
// tEXt chunk right after IHDR (where Photoshop puts them).
func testPNG(t testing.TB, w, h, xmpBytes int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetNRGBA(x, y, color.NRGBA{uint8(x), uint8(y), uint8(x * y), uint8(128 + x%128)})
		}
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	if xmpBytes == 0 {
		return b
	}
	xmp := append([]byte("XML:com.adobe.xmp\x00\x00\x00\x00\x00"), bytes.Repeat([]byte("<x:xmpmeta/> "), xmpBytes/13+1)...)
	ihdrEnd := 8 + 8 + 13 + 4
	var out bytes.Buffer
	out.Write(b[:ihdrEnd])
	writeChunk(&out, "iTXt", xmp)
	writeChunk(&out, "tEXt", []byte("Software\x00Adobe Photoshop"))
	out.Write(b[ihdrEnd:])
	return out.Bytes()
}

func writeChunk(w *bytes.Buffer, typ string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	w.Write(n[:])
	w.WriteString(typ)
	w.Write(data)
	crc := crc32.NewIEEE()
	crc.Write([]byte(typ))
	crc.Write(data)
	binary.BigEndian.PutUint32(n[:], crc.Sum32())
	w.Write(n[:])
}

// chunkTypes lists a PNG's chunk types in order.
func chunkTypes(t testing.TB, b []byte) []string {
	t.Helper()
	var types []string
	for p := 8; p+8 <= len(b); {
		n := int(binary.BigEndian.Uint32(b[p:]))
		types = append(types, string(b[p+4:p+8]))
		p += 12 + n
	}
	return types
}

// hugeHeaderPNG is a valid signature and IHDR declaring w x h, and nothing else.
func hugeHeaderPNG(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString(pngmeta.Signature)
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6
	writeChunk(&b, "IHDR", ihdr)
	writeChunk(&b, "IDAT", []byte{0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01})
	writeChunk(&b, "IEND", nil)
	return b.Bytes()
}

type fixture struct {
	db    *sqlx.DB
	store blob.Store
	h     *Handler
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	db, _ := testinfra.Postgres(t)
	cfg := blob.DefaultConfig()
	cfg.Dir = t.TempDir()
	store, err := blob.New(cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHandler(db, store, imagelimit.Config{MaxPixels: 100_000_000})
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{db: db, store: store, h: h}
}

// upload stores body under a fresh key with contentType and records a pending row.
func (f *fixture) upload(t *testing.T, name string, body []byte, contentType string) (int64, string) {
	t.Helper()
	key := "u/1/uploads/" + strconv.FormatInt(time.Now().UnixNano(), 36) + "-" + name
	if err := f.store.Put(context.Background(), key, bytes.NewReader(body), int64(len(body)), contentType); err != nil {
		t.Fatal(err)
	}
	var id int64
	if err := f.db.Get(&id, `INSERT INTO uploads (blob_key, file_name) VALUES ($1, $2) RETURNING id`, key, name); err != nil {
		t.Fatal(err)
	}
	return id, key
}

type uploadRow struct {
	Status      string   `db:"status"`
	Message     string   `db:"message"`
	ContentType string   `db:"content_type"`
	Width       *int     `db:"width"`
	Height      *int     `db:"height"`
	DPIX        *float64 `db:"dpi_x"`
	ByteSize    *int64   `db:"byte_size"`
	Stripped    bool     `db:"stripped"`
}

func (f *fixture) row(t *testing.T, id int64) uploadRow {
	t.Helper()
	var r uploadRow
	err := f.db.Get(&r, `SELECT status, message, content_type, width, height, dpi_x, byte_size, stripped FROM uploads WHERE id = $1`, id)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func (f *fixture) stored(t *testing.T, key string) ([]byte, blob.Info) {
	t.Helper()
	r, info, err := f.store.Get(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b, info
}

func task(id int64) *asynq.Task {
	job, _ := tasks.NewSanitizeJob(id)
	return job.Task()
}

func decodeNRGBA(t *testing.T, b []byte) *image.NRGBA {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	n, ok := img.(*image.NRGBA)
	if !ok {
		t.Fatalf("decoded %T", img)
	}
	return n
}

func TestSanitize(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()

	t.Run("4500 px PNG with 2 MB XMP is stripped, pixels identical", func(t *testing.T) {
		orig := testPNG(t, 4500, 64, 2<<20)
		id, key := f.upload(t, "art.png", orig, "image/png")
		if err := f.h.ProcessTask(ctx, task(id)); err != nil {
			t.Fatal(err)
		}
		got, info := f.stored(t, key)
		for _, typ := range chunkTypes(t, got) {
			if pngmeta.IsTextChunk(typ) {
				t.Fatalf("stored file still has a %s chunk: %v", typ, chunkTypes(t, got))
			}
		}
		if len(got) >= len(orig)-2<<20 {
			t.Fatalf("stored %d bytes of %d: XMP not removed", len(got), len(orig))
		}
		if !bytes.Equal(decodeNRGBA(t, got).Pix, decodeNRGBA(t, orig).Pix) {
			t.Fatal("pixels differ")
		}
		r := f.row(t, id)
		if r.Status != "ready" || !r.Stripped || *r.Width != 4500 || *r.Height != 64 || *r.ByteSize != int64(len(got)) ||
			r.ContentType != "image/png" || info.ContentType != "image/png" {
			t.Fatalf("row = %+v", r)
		}
		// Delivered again after a crash between the blob and the row: same blob, same row.
		if _, err := f.db.Exec(`UPDATE uploads SET status = 'pending' WHERE id = $1`, id); err != nil {
			t.Fatal(err)
		}
		if err := f.h.ProcessTask(ctx, task(id)); err != nil {
			t.Fatal(err)
		}
		again, _ := f.stored(t, key)
		if !bytes.Equal(again, got) {
			t.Fatal("second run changed the blob")
		}
		if r2 := f.row(t, id); r2.Status != r.Status || r2.Stripped != r.Stripped || *r2.ByteSize != *r.ByteSize {
			t.Fatalf("second run row = %+v, first %+v", r2, r)
		}
	})

	t.Run("1000 px PNG is stored byte for byte", func(t *testing.T) {
		orig := testPNG(t, 1000, 40, 4096)
		id, key := f.upload(t, "small.png", orig, "image/png")
		if err := f.h.ProcessTask(ctx, task(id)); err != nil {
			t.Fatal(err)
		}
		got, _ := f.stored(t, key)
		if !bytes.Equal(got, orig) {
			t.Fatal("1000 px PNG was changed")
		}
		if r := f.row(t, id); r.Status != "ready" || r.Stripped || *r.Width != 1000 || *r.ByteSize != int64(len(orig)) {
			t.Fatalf("row = %+v", r)
		}
	})

	t.Run("declared DPI is recorded", func(t *testing.T) {
		orig := testPNG(t, 200, 10, 0)
		var b bytes.Buffer
		b.Write(orig[:33])
		phys := make([]byte, 9)
		binary.BigEndian.PutUint32(phys[0:], 11811)
		binary.BigEndian.PutUint32(phys[4:], 11811)
		phys[8] = 1
		writeChunk(&b, "pHYs", phys)
		b.Write(orig[33:])
		id, _ := f.upload(t, "dpi.png", b.Bytes(), "image/png")
		if err := f.h.ProcessTask(ctx, task(id)); err != nil {
			t.Fatal(err)
		}
		if r := f.row(t, id); r.DPIX == nil || *r.DPIX != 300 {
			t.Fatalf("row = %+v", r)
		}
	})

	t.Run("JPEG named .png is kept byte for byte with its real type", func(t *testing.T) {
		img := image.NewRGBA(image.Rect(0, 0, 1600, 40))
		for i := range img.Pix {
			img.Pix[i] = uint8(i * 7)
		}
		var b bytes.Buffer
		if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 80}); err != nil {
			t.Fatal(err)
		}
		id, key := f.upload(t, "photo.png", b.Bytes(), "image/png")
		if err := f.h.ProcessTask(ctx, task(id)); err != nil {
			t.Fatal(err)
		}
		got, info := f.stored(t, key)
		r := f.row(t, id)
		if !bytes.Equal(got, b.Bytes()) || info.ContentType != "image/jpeg" || r.Status != "ready" ||
			r.ContentType != "image/jpeg" || r.Stripped || *r.Width != 1600 {
			t.Fatalf("row %+v, stored type %s, identical %v", r, info.ContentType, bytes.Equal(got, b.Bytes()))
		}
	})

	t.Run("13500 px wide PNG, mostly transparent, is checked holding rows, not its pixels", func(t *testing.T) {
		// The limits of the renderer's defaults: sized for 13500 px sides.
		h, err := NewHandler(f.db, f.store, imagelimit.Config{})
		if err != nil {
			t.Fatal(err)
		}
		// 1200 rows keep the test quick; decoding them would allocate 65 MB (a 13500x16200 one: 875 MB).
		body := sparsePNG(t, 13500, 1200)
		id, _ := f.upload(t, "all-over.png", body, "image/png")
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if err := h.ProcessTask(ctx, task(id)); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		if r := f.row(t, id); r.Status != "ready" || r.Width == nil || *r.Width != 13500 {
			t.Fatalf("row = %+v, want ready at 13500 px", r)
		}
		allocated := after.TotalAlloc - before.TotalAlloc
		t.Logf("%d KB file checked with %d KB allocated", len(body)>>10, allocated>>10)
		if allocated > 16<<20 {
			t.Errorf("checking a %d KB PNG allocated %d MB; want under 16 MB (its pixels are 65 MB)", len(body)>>10, allocated>>20)
		}
	})

	refusals := []struct {
		name, file, ct string
		body           []byte
		want           string
	}{
		{"text file renamed .png", "notes.png", "image/png", []byte("just some notes, not an image\n"), MsgNotImage},
		{"empty file", "empty.png", "image/png", nil, MsgNotImage},
		{"100000x100000 header", "bomb.png", "image/png", hugeHeaderPNG(100000, 100000), MsgTooBig},
		{"truncated PNG header", "cut.png", "image/png", hugeHeaderPNG(100, 100)[:20], MsgDamaged},
		{"PNG cut in its pixel data", "half.png", "image/png", truncatedPixels(t), MsgDamaged},
		{"PNG with corrupt pixel data", "noise.png", "image/png", corruptPixels(t), MsgDamaged},
	}
	for _, tc := range refusals {
		t.Run(tc.name, func(t *testing.T) {
			id, key := f.upload(t, tc.file, tc.body, tc.ct)
			start := time.Now()
			if err := f.h.ProcessTask(ctx, task(id)); err != nil {
				t.Fatal(err)
			}
			r := f.row(t, id)
			if r.Status != "rejected" || !strings.HasPrefix(r.Message, tc.want) {
				t.Fatalf("row = %+v, want rejected with %q", r, tc.want)
			}
			got, _ := f.stored(t, key)
			if !bytes.Equal(got, tc.body) {
				t.Fatal("refused file was changed")
			}
			t.Logf("refused in %s: %s", time.Since(start), r.Message)
		})
	}

	t.Run("missing blob is refused", func(t *testing.T) {
		var id int64
		if err := f.db.Get(&id, `INSERT INTO uploads (blob_key) VALUES ('u/1/uploads/never-put.png') RETURNING id`); err != nil {
			t.Fatal(err)
		}
		if err := f.h.ProcessTask(ctx, task(id)); err != nil {
			t.Fatal(err)
		}
		if r := f.row(t, id); r.Status != "rejected" || r.Message != MsgMissing {
			t.Fatalf("row = %+v", r)
		}
	})

	t.Run("malformed payloads skip retries", func(t *testing.T) {
		for _, p := range []string{``, `{`, `{"upload_id":0}`, `{"upload_id":"7"}`, `{"upload_id":999999}`} {
			err := f.h.ProcessTask(ctx, asynq.NewTask(tasks.TypeSanitize, []byte(p)))
			if !errors.Is(err, asynq.SkipRetry) {
				t.Errorf("payload %q: err = %v, want SkipRetry", p, err)
			}
		}
	})
}

// TestSanitizeThroughQueue runs the task as production does: the row and its outbox entry are
// committed together, the relay hands it to Redis, an Asynq server runs the handler.
func TestSanitizeThroughQueue(t *testing.T) {
	f := newFixture(t)
	addr, n := testinfra.Redis(t)
	qcfg := queue.DefaultConfig()
	qcfg.RedisAddr, qcfg.RedisDB, qcfg.ShutdownTimeout = addr, n, time.Second
	log := slog.New(slog.DiscardHandler)
	client := asynq.NewClient(qcfg.RedisOpt())
	defer client.Close()
	srv := queue.NewServer(qcfg, queue.Renderer, 2, log)
	mux := asynq.NewServeMux()
	mux.Handle(tasks.TypeSanitize, f.h)
	if err := srv.Start(mux); err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	relay, err := outbox.NewRelay(outbox.DefaultConfig(), f.db, client, log)
	if err != nil {
		t.Fatal(err)
	}

	orig := testPNG(t, 2000, 20, 1<<20)
	key := "u/1/uploads/queued.png"
	ctx := context.Background()
	if err := f.store.Put(ctx, key, bytes.NewReader(orig), int64(len(orig)), "image/png"); err != nil {
		t.Fatal(err)
	}
	tx := f.db.MustBegin()
	var id int64
	if err := tx.Get(&id, `INSERT INTO uploads (blob_key) VALUES ($1) RETURNING id`, key); err != nil {
		t.Fatal(err)
	}
	job, _ := tasks.NewSanitizeJob(id)
	outboxID, err := outbox.Add(ctx, tx, job)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := relay.Dispatch(ctx, outboxID); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for f.row(t, id).Status == "pending" {
		if time.Now().After(deadline) {
			t.Fatal("upload still pending after 30s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if r := f.row(t, id); r.Status != "ready" || !r.Stripped || *r.Width != 2000 {
		t.Fatalf("row = %+v", r)
	}
}

func TestNewSanitizeJob(t *testing.T) {
	job, err := tasks.NewSanitizeJob(42)
	if err != nil {
		t.Fatal(err)
	}
	if job.Type != tasks.TypeSanitize || job.Queue != "renderer.interactive" || job.TaskID != "sanitize-42" ||
		string(job.Payload) != `{"upload_id":42}` || job.MaxRetry == 0 || job.Timeout == 0 {
		t.Fatalf("job = %+v", job)
	}
}

// sparsePNG is a valid w x h RGBA PNG, transparent but for a red square in its top left corner,
// written a row at a time (at 13500x16200 it is under a megabyte).
func sparsePNG(t *testing.T, w, h int) []byte {
	t.Helper()
	var idat bytes.Buffer
	zw, err := zlib.NewWriterLevel(&idat, zlib.BestSpeed)
	if err != nil {
		t.Fatal(err)
	}
	row := make([]byte, 1+4*w)
	for y := range h {
		clear(row)
		for x := 0; y < 200 && x < 200; x++ {
			copy(row[1+4*x:], []byte{200, 30, 30, 255})
		}
		zw.Write(row)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	out.WriteString(pngmeta.Signature)
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 6
	writeChunk(&out, "IHDR", ihdr)
	writeChunk(&out, "IDAT", idat.Bytes())
	writeChunk(&out, "IEND", nil)
	return out.Bytes()
}

// truncatedPixels is a PNG whose header is whole but whose image data stops half way, as an upload cut
// off in transit leaves it.
func truncatedPixels(t *testing.T) []byte {
	orig := testPNG(t, 600, 400, 0)
	return orig[:len(orig)/2]
}

// corruptPixels is a complete PNG whose compressed pixel data was overwritten (the CRCs are
// recomputed, so only decoding the pixels finds it).
func corruptPixels(t *testing.T) []byte {
	orig := testPNG(t, 600, 400, 0)
	var out bytes.Buffer
	out.Write(orig[:8])
	for rest := orig[8:]; len(rest) >= 12; {
		n := binary.BigEndian.Uint32(rest)
		typ, data := string(rest[4:8]), bytes.Clone(rest[8:8+n])
		if typ == "IDAT" {
			for i := 2; i < len(data); i += 3 {
				data[i] ^= 0x5a
			}
		}
		writeChunk(&out, typ, data)
		rest = rest[12+n:]
	}
	return out.Bytes()
}

// TestSanitizeDrawsSVGSources: an upload made from an SVG (a clipart) is drawn into its PNG at print
// size, then checked like any other; an SVG refused then is rejected with its message.
func TestSanitizeDrawsSVGSources(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	nested := `<rect width="1" height="1"/>`
	for range 12 {
		nested = `<g transform="scale(10)">` + nested + `</g>`
	}
	for _, tc := range []struct {
		name, svg string
		status    string
		w, h      int
		message   string
	}{
		{"a clipart", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 10"><circle cx="5" cy="5" r="4" fill="#2a9d8f"/></svg>`,
			statusReady, SVGLongSide, SVGLongSide / 2, ""},
		{"a script the bff would have refused", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><script>x()</script></svg>`,
			statusReject, 0, 0, "The SVG contains a script (<script>), which is not accepted."},
		{"shapes far outside the picture", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9">` + nested + `</svg>`,
			statusReject, 0, 0, "The SVG's shapes reach far outside its picture"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			key := "u/1/cliparts/" + strconv.FormatInt(time.Now().UnixNano(), 36) + "-clip.png"
			source := strings.TrimSuffix(key, ".png") + ".svg"
			if err := f.store.Put(ctx, source, strings.NewReader(tc.svg), int64(len(tc.svg)), "image/svg+xml"); err != nil {
				t.Fatal(err)
			}
			var id int64
			if err := f.db.Get(&id, `INSERT INTO uploads (blob_key, file_name, source_key) VALUES ($1, 'clip.svg', $2) RETURNING id`, key, source); err != nil {
				t.Fatal(err)
			}
			if err := f.h.ProcessTask(ctx, task(id)); err != nil {
				t.Fatal(err)
			}
			r := f.row(t, id)
			if r.Status != tc.status || !strings.HasPrefix(r.Message, tc.message) {
				t.Fatalf("row = %+v, want %s %q", r, tc.status, tc.message)
			}
			if tc.status != statusReady {
				return
			}
			if *r.Width != tc.w || *r.Height != tc.h || r.ContentType != "image/png" {
				t.Fatalf("row = %+v, want a %dx%d PNG", r, tc.w, tc.h)
			}
			got, _ := f.stored(t, key)
			img := decodeNRGBA(t, got)
			if c := img.NRGBAAt(tc.w/4, tc.h/2); c.A != 255 || c.G < 150 {
				t.Errorf("centre of the circle = %v, want the fill", c)
			}
			if c := img.NRGBAAt(3*tc.w/4, tc.h/2); c.A != 0 {
				t.Errorf("right half = %v, want transparent", c)
			}
			// A second delivery draws the same file and leaves the row as it is.
			if err := f.h.ProcessTask(ctx, task(id)); err != nil || f.row(t, id).Status != statusReady {
				t.Fatalf("second delivery: %v", err)
			}
		})
	}
}
