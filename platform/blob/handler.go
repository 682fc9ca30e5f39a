package blob

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
)

// Handler serves the local store's signed URLs: GET and HEAD stream an object (with ranges,
// ETag and Last-Modified, and a download's Content-Disposition), PUT stores the body. Mount it, without stripping, at the path of
// PublicURL, e.g. for echo: e.Any("/blobs/*", echo.WrapHandler(store.Handler(log))).
//
// Every refusal is a small JSON body in the API's envelope shape: 403 for a missing, tampered or
// expired signature, a method other than the signed one or a Content-Type other than the signed
// one; 404 for a missing object; 413 for a body over the signed cap or MaxUploadBytes. log (nil: discarded)
// records failures of the disk, which the client only sees as a 500.
func (s *Local) Handler(log *slog.Logger) http.Handler {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &handler{s: s, log: log}
}

type handler struct {
	s   *Local
	log *slog.Logger
}

// Messages of the Handler's answers.
const (
	msgNotFound = "The file does not exist."
	msgTooLarge = "The file is too large."
	msgMethod   = "This method is not allowed here."
	msgInternal = "Something went wrong on our side. Please try again."
	msgUploaded = "Uploaded."
	msgBadBody  = "The upload was interrupted. Please try again."
)

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.cors(w, r)
	key, ok := strings.CutPrefix(r.URL.Path, h.s.basePath+"/")
	if !ok || ValidateKey(key) != nil {
		writeJSON(w, http.StatusNotFound, false, msgNotFound, nil)
		return
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		h.get(w, r, key)
	case http.MethodPut:
		h.put(w, r, key)
	case http.MethodOptions:
		w.WriteHeader(http.StatusNoContent)
	default:
		w.Header().Set("Allow", "GET, HEAD, PUT, OPTIONS")
		writeJSON(w, http.StatusMethodNotAllowed, false, msgMethod, nil)
	}
}

// cors allows the configured other origins; the UI on PublicURL's own origin needs nothing.
func (h *handler) cors(w http.ResponseWriter, r *http.Request) {
	origin := r.Header.Get("Origin")
	if origin == "" || !h.s.corsOrigin[origin] {
		return
	}
	hd := w.Header()
	hd.Add("Vary", "Origin")
	hd.Set("Access-Control-Allow-Origin", origin)
	hd.Set("Access-Control-Expose-Headers", "ETag, Content-Length, Content-Range")
	if r.Method == http.MethodOptions {
		hd.Set("Access-Control-Allow-Methods", "GET, HEAD, PUT")
		hd.Set("Access-Control-Allow-Headers", "Content-Type, Range")
		hd.Set("Access-Control-Max-Age", "600")
	}
}

func (h *handler) get(w http.ResponseWriter, r *http.Request, key string) {
	sg, ref := h.s.verify(r.URL.Query(), http.MethodGet, key)
	if ref != nil {
		writeJSON(w, ref.status, false, ref.message, nil)
		return
	}
	obj, info, err := h.s.open(r.Context(), key)
	switch {
	case errors.Is(err, ErrNotFound):
		writeJSON(w, http.StatusNotFound, false, msgNotFound, nil)
		return
	case err != nil:
		h.log.Error("serve blob", "key", key, "err", err)
		writeJSON(w, http.StatusInternalServerError, false, msgInternal, nil)
		return
	}
	defer obj.Close()
	hd := w.Header()
	hd.Set("Content-Type", info.ContentType)
	hd.Set("ETag", etag(info))
	// The URL stops working at its expiry, so no cache may keep the answer longer.
	expires, _ := strconv.ParseInt(r.URL.Query().Get("expires"), 10, 64)
	hd.Set("Cache-Control", "private, max-age="+strconv.FormatInt(max(expires-h.s.now().Unix(), 0), 10))
	// Uploaded files share the app's origin: never let one run as a page.
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	if sg.fileName != "" {
		// Signed by SignDownload, which checked the name.
		cd, _ := ContentDisposition(sg.fileName)
		hd.Set("Content-Disposition", cd)
	}
	http.ServeContent(w, r, "", info.ModTime, obj)
}

// etag changes whenever the object is replaced: a new file has a new size or modification time.
func etag(info Info) string {
	return `"` + strconv.FormatInt(info.Size, 36) + "-" + strconv.FormatInt(info.ModTime.UnixNano(), 36) + `"`
}

func (h *handler) put(w http.ResponseWriter, r *http.Request, key string) {
	sg, ref := h.s.verify(r.URL.Query(), http.MethodPut, key)
	if ref == nil && r.Header.Get("Content-Type") != sg.contentType {
		ref = refusedType
	}
	if ref != nil {
		writeJSON(w, ref.status, false, ref.message, nil)
		return
	}
	// The signed cap holds whatever the client declares: a body past it is cut off unstored.
	limit := min(sg.maxBytes, h.s.maxUpload, h.s.maxObject)
	if r.ContentLength > limit {
		writeJSON(w, http.StatusRequestEntityTooLarge, false, msgTooLarge, nil)
		return
	}
	info, err := h.s.put(r.Context(), key, http.MaxBytesReader(w, r.Body, limit), r.ContentLength, sg.contentType, limit)
	var tooBig *http.MaxBytesError
	switch {
	case errors.Is(err, ErrTooLarge) || errors.As(err, &tooBig):
		writeJSON(w, http.StatusRequestEntityTooLarge, false, msgTooLarge, nil)
	case errors.Is(err, io.ErrUnexpectedEOF) || r.Context().Err() != nil:
		writeJSON(w, http.StatusBadRequest, false, msgBadBody, nil)
	case err != nil:
		h.log.Error("store uploaded blob", "key", key, "err", err)
		writeJSON(w, http.StatusInternalServerError, false, msgInternal, nil)
	default:
		w.Header().Set("ETag", etag(info))
		writeJSON(w, http.StatusOK, true, msgUploaded, map[string]any{"key": info.Key, "size": info.Size, "contentType": info.ContentType})
	}
}

// envelope is the API's answer shape, which the UI reads errors from.
type envelope struct {
	Success bool        `json:"success"`
	Message string      `json:"message"`
	Data    any         `json:"data"`
	Errors  []errorItem `json:"errors"`
}

type errorItem struct {
	Message string `json:"message"`
}

func writeJSON(w http.ResponseWriter, status int, ok bool, msg string, data any) {
	e := envelope{Success: ok, Message: msg, Data: data, Errors: []errorItem{}}
	if !ok {
		e.Errors = []errorItem{{Message: msg}}
	}
	b, _ := json.Marshal(e)
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(b)
}
