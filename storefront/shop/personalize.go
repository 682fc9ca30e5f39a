package shop

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/pressroom/pressroom/commerce/checkout"
	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/fonts"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// The buyer's personalization on the product page (docs/personalization.md): a field per custom
// object of the product's designs, posted with the add-to-cart form (multipart when a photo is asked
// for), and the data the preview script draws from. The rules are commerce/checkout's and
// renderer/design's; this file only reads and writes forms.

// Form names of a custom object's field: its text or option index, its photo file, and the id of a
// photo an earlier post of the form uploaded. Print space and object id are hex-encoded, since
// either may hold any character.
const (
	answerPrefix = "pz."
	photoPrefix  = "pzf."
	keptPrefix   = "pzp."
)

// maxPhotosPerPost bounds the photo fields one add-to-cart post may carry.
const maxPhotosPerPost = 4

func fieldName(prefix, space, objectID string) string {
	return prefix + hex.EncodeToString([]byte(space)) + "." + hex.EncodeToString([]byte(objectID))
}

// formField is one custom object's field as the product page shows it.
type formField struct {
	Space, ObjectID string
	// Name is the form name of its text or choice (PhotoName and KeptName for a photo).
	Name, PhotoName, KeptName string
	Label                     string
	Kind                      string
	Image, Required           bool
	MaxLength                 int
	// Pattern is the HTML pattern of the charset ("" for any), Hint what it allows.
	Pattern, Hint string
	Options       []formOption
	// Value is the text shown: what the buyer sent, or the seller's sample at first.
	Value string
	// PhotoID is a photo kept from an earlier post, with its Warning when it would print blurred.
	PhotoID int64
	Warning string
	Error   string
}

// formOption is one choice of a dropdown.
type formOption struct {
	Index    int
	Label    string
	Selected bool
	// Picture is the URL of a picture choice.
	Picture string
}

// personalizeView is what the product page needs to ask for a personalization and preview it.
type personalizeView struct {
	Fields    []formField
	Multipart bool
	Preview   previewData
	Script    *uiEntry
}

// previewData is what the preview script reads (ui/src/shop): the designs with their custom
// objects, where to load their fonts and pictures, and the base mockup the buyer's objects are drawn
// over, with the print area's corners as fractions of its width and height.
type previewData struct {
	ProductID int64           `json:"product_id"`
	Asset     string          `json:"asset"`
	Designs   []previewDesign `json:"designs"`
	Mockup    *previewMockup  `json:"mockup"`
}

type previewDesign struct {
	PrintSpace string           `json:"print_space"`
	Doc        *design.Document `json:"doc"`
}

type previewMockup struct {
	ID         int64         `json:"id"`
	PrintSpace string        `json:"print_space"`
	Base       string        `json:"base"`
	Quad       [4][2]float64 `json:"quad"`
}

var charsetHints = map[string]struct{ pattern, hint string }{
	design.CharsetLetters:      {`[\p{L}\p{Mn} ]*`, "Letters and spaces."},
	design.CharsetAlphanumeric: {`[\p{L}\p{Mn}\p{Nd} ]*`, "Letters, digits and spaces."},
	design.CharsetDigits:       {`[0-9]*`, "Digits only."},
}

// personalizeFor builds the fields of a product's designs, with what the buyer sent (picked) and the
// refusals (errs, by checkout.PersonalizationField). nil when the product has nothing to fill.
func (s *Server) personalizeFor(ctx context.Context, rs reqStore, campaignID int64, productID int64, picked []checkout.Answer, errs map[string]string, mockups []Mockup) (*personalizeView, error) {
	designs, err := checkout.Designs(ctx, s.d.DB, productID)
	if err != nil {
		return nil, err
	}
	sent := map[string]checkout.Answer{}
	for _, a := range picked {
		sent[checkout.PersonalizationField(a.PrintSpace, a.ObjectID)] = a
	}
	v := &personalizeView{Preview: previewData{ProductID: productID, Asset: rs.Base + "/pz/" + strconv.FormatInt(productID, 10) + "/asset?k="}}
	for _, d := range designs {
		fields := d.Doc.Fields()
		if len(fields) == 0 {
			continue
		}
		v.Preview.Designs = append(v.Preview.Designs, previewDesign{PrintSpace: d.PrintSpace, Doc: d.Doc})
		for _, f := range fields {
			key := checkout.PersonalizationField(d.PrintSpace, f.ObjectID)
			ff := formField{Space: d.PrintSpace, ObjectID: f.ObjectID, Name: fieldName(answerPrefix, d.PrintSpace, f.ObjectID),
				PhotoName: fieldName(photoPrefix, d.PrintSpace, f.ObjectID), KeptName: fieldName(keptPrefix, d.PrintSpace, f.ObjectID),
				Label: f.Label, Kind: f.Kind, Image: f.Image, Required: f.Required, MaxLength: f.MaxLength, Error: errs[key]}
			if h, ok := charsetHints[f.Charset]; ok {
				ff.Pattern, ff.Hint = h.pattern, h.hint
			}
			a, answered := sent[key]
			switch {
			case f.Kind == design.InputDropdown:
				for i, c := range f.Options {
					o := formOption{Index: i, Label: c.Label, Selected: answered && a.Choice != nil && *a.Choice == i}
					if f.Image {
						o.Picture = v.Preview.Asset + url.QueryEscape(c.Src)
					}
					ff.Options = append(ff.Options, o)
				}
			case f.Image:
				v.Multipart = true
				if answered && a.PhotoID != 0 {
					ff.PhotoID = a.PhotoID
					if p, err := checkout.Photo(ctx, s.d.DB, rs.ID, a.PhotoID); err == nil && p.Ready {
						ff.Warning = design.PhotoWarning(d.Doc, f.ObjectID, p.Width, p.Height)
					}
				}
			case answered:
				ff.Value = a.Text
			default:
				ff.Value = f.Sample
			}
			v.Fields = append(v.Fields, ff)
		}
	}
	if len(v.Fields) == 0 {
		return nil, nil
	}
	v.Script = s.ui.entry(personalizeEntry)
	for _, m := range mockups {
		if m.ProductID != productID || m.BaseURL == "" {
			continue
		}
		quad, err := s.templates.quad(ctx, m.TemplateKey)
		if err != nil {
			s.d.Log.Warn("mockup template unreadable: the preview shows no mockup", "key", m.TemplateKey, "err", err)
			break
		}
		v.Preview.Mockup = &previewMockup{ID: m.ID, PrintSpace: m.PrintSpace, Base: rs.Base + "/img/" + strconv.FormatInt(m.ID, 10) + "?base=1", Quad: quad}
		break
	}
	return v, nil
}

// formAnswers reads the personalization fields of an add-to-cart post for the product's designs,
// keeping any photo sent. photoErrs names the photos refused, by checkout.PersonalizationField.
func (s *Server) formAnswers(ctx context.Context, r *http.Request, storeID, productID int64) (answers []checkout.Answer, photoErrs map[string]string, err error) {
	designs, err := checkout.Designs(ctx, s.d.DB, productID)
	if err != nil {
		return nil, nil, err
	}
	photoErrs = map[string]string{}
	photos := 0
	for _, d := range designs {
		for _, f := range d.Doc.Fields() {
			a := checkout.Answer{PrintSpace: d.PrintSpace, ObjectID: f.ObjectID}
			name := fieldName(answerPrefix, d.PrintSpace, f.ObjectID)
			switch {
			case f.Kind == design.InputDropdown:
				v, ok := r.PostForm[name]
				if !ok {
					continue
				}
				i, err := strconv.Atoi(strings.TrimSpace(v[0]))
				if err != nil {
					i = -1
				}
				a.Choice = &i
			case f.Image:
				if kept, err := strconv.ParseInt(r.PostFormValue(fieldName(keptPrefix, d.PrintSpace, f.ObjectID)), 10, 64); err == nil {
					a.PhotoID = kept
				}
				if r.MultipartForm != nil {
					if files := r.MultipartForm.File[fieldName(photoPrefix, d.PrintSpace, f.ObjectID)]; len(files) > 0 && files[0].Size > 0 {
						photos++
						if photos > maxPhotosPerPost {
							photoErrs[checkout.PersonalizationField(d.PrintSpace, f.ObjectID)] = fmt.Sprintf("Send at most %d photos at once.", maxPhotosPerPost)
							continue
						}
						id, msg, err := s.keepPhoto(ctx, storeID, files[0])
						if err != nil {
							return nil, nil, err
						}
						if id != 0 {
							a.PhotoID = id
						}
						if msg != "" {
							photoErrs[checkout.PersonalizationField(d.PrintSpace, f.ObjectID)] = msg
						}
					}
				}
				if a.PhotoID == 0 {
					continue
				}
			default:
				v, ok := r.PostForm[name]
				if !ok {
					continue
				}
				a.Text = v[0]
			}
			answers = append(answers, a)
		}
	}
	return answers, photoErrs, nil
}

// Messages about a photo before it is checked.
var (
	msgPhotoType = "Upload a PNG, JPEG or WebP photo."
	msgPhotoSize = func(max int64) string { return fmt.Sprintf("The photo is larger than %d MB.", max>>20) }
	photoTypes   = map[string]string{"image/png": ".png", "image/jpeg": ".jpg", "image/webp": ".webp"}
)

// keepPhoto stores a buyer's photo and waits for its check (render:sanitize), up to the configured
// time. It answers the photo's id (0 when nothing was kept) and what the buyer must read, if anything:
// a refusal, or that the check is still running (the id is then kept in the form for the next post).
func (s *Server) keepPhoto(ctx context.Context, storeID int64, fh *multipart.FileHeader) (int64, string, error) {
	if fh.Size > s.cfg.PhotoMaxBytes {
		return 0, msgPhotoSize(s.cfg.PhotoMaxBytes), nil
	}
	f, err := fh.Open()
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	ext, ok := photoTypes[http.DetectContentType(head[:n])]
	if !ok {
		return 0, msgPhotoType, nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return 0, "", err
	}
	key := checkout.PhotoKeyPrefix(storeID) + time.Now().UTC().Format("2006-01") + "/" + uuid.NewString() + ext
	if err := s.d.Blobs.Put(ctx, key, f, fh.Size, http.DetectContentType(head[:n])); err != nil {
		return 0, "", fmt.Errorf("store photo: %w", err)
	}
	name := fh.Filename
	if len(name) > 200 {
		name = name[:200]
	}
	id, err := checkout.RecordPhoto(ctx, s.d.DB, key, name)
	if err != nil {
		return 0, "", err
	}
	state, err := s.waitPhoto(ctx, storeID, id)
	switch {
	case err != nil:
		return 0, "", err
	case state.Pending:
		return id, checkout.MsgPhotoWait, nil
	case !state.Ready:
		return 0, state.Message, nil
	}
	return id, "", nil
}

// waitPhoto polls a photo's check until it is done or the configured wait is over.
func (s *Server) waitPhoto(ctx context.Context, storeID, id int64) (checkout.PhotoState, error) {
	deadline := time.Now().Add(s.cfg.PhotoWait)
	for {
		state, err := checkout.Photo(ctx, s.d.DB, storeID, id)
		if err != nil || !state.Pending || time.Now().After(deadline) {
			return state, err
		}
		select {
		case <-ctx.Done():
			return state, ctx.Err()
		case <-time.After(150 * time.Millisecond):
		}
	}
}

// apiPhoto is POST {base}/api/photos: a multipart "file", kept and checked, answered with its state
// (docs/personalization.md). A photo still being checked answers 202; read it again with GET.
func (s *Server) apiPhoto(w http.ResponseWriter, r *http.Request) {
	rs := storeOf(r)
	fh, err := formFile(r, "file")
	if err != nil {
		writeJSON(w, http.StatusUnprocessableEntity, envelope{Message: msgPhotoType, Errors: []checkout.FieldError{{Field: "file", Message: msgPhotoType}}})
		return
	}
	id, msg, err := s.keepPhoto(r.Context(), rs.ID, fh)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	if id == 0 {
		writeJSON(w, http.StatusUnprocessableEntity, envelope{Message: msg, Errors: []checkout.FieldError{{Field: "file", Message: msg}}})
		return
	}
	s.apiPhotoState(w, r, id)
}

// apiPhotoGet is GET {base}/api/photos/{id}: a photo's state.
func (s *Server) apiPhotoGet(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		writeJSON(w, http.StatusNotFound, envelope{Message: "Not found."})
		return
	}
	s.apiPhotoState(w, r, id)
}

func (s *Server) apiPhotoState(w http.ResponseWriter, r *http.Request, id int64) {
	state, err := checkout.Photo(r.Context(), s.d.DB, storeOf(r).ID, id)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	status := http.StatusOK
	if state.Pending {
		status = http.StatusAccepted
	}
	writeJSON(w, status, envelope{Success: state.Ready || state.Pending, Message: state.Message, Data: state})
}

// formFile reads the one file of a multipart post.
func formFile(r *http.Request, field string) (*multipart.FileHeader, error) {
	if err := r.ParseMultipartForm(maxForm); err != nil {
		return nil, err
	}
	files := r.MultipartForm.File[field]
	if len(files) == 0 {
		return nil, errors.New("no file")
	}
	return files[0], nil
}

// asset is GET {base}/pz/{productId}/asset?k={key}: a font or a picture the preview of an active
// product draws, and nothing else: the keys its designs' custom objects name (fontUrl,
// backgroundUrl, and a picture dropdown's options). A picture is its design variant (1500 px WebP)
// when the renderer made one.
func (s *Server) asset(w http.ResponseWriter, r *http.Request) {
	rs := storeOf(r)
	productID, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	key := r.URL.Query().Get("k")
	if err != nil || key == "" {
		s.notFound(w, r, "No such file.")
		return
	}
	offers, err := checkout.Offers(r.Context(), s.d.DB, rs.ID, 0, productID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if len(offers) == 0 {
		s.notFound(w, r, "No such file.")
		return
	}
	designs, err := checkout.Designs(r.Context(), s.d.DB, productID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	font, picture := false, false
	for _, d := range designs {
		for _, o := range d.Doc.Objects {
			switch o := o.(type) {
			case *design.TextObject:
				if o.IsCustom && (o.FontURL == key || o.BackgroundURL == key) {
					font = font || o.FontURL == key
					picture = picture || o.BackgroundURL == key
				}
			case *design.ImageObject:
				if o.IsCustom && o.Input != nil {
					for _, c := range o.Input.Options {
						picture = picture || c.Src == key
					}
				}
			}
		}
	}
	switch {
	case font:
		if data, ok := fonts.PlatformFile(key); ok {
			w.Header().Set("Cache-Control", cacheImage)
			w.Header().Set("Content-Type", "font/ttf")
			w.Write(data)
			return
		}
		s.serveBlob(w, r, key, typeByName(key), cacheImage)
	case picture:
		if _, err := s.d.Blobs.Stat(r.Context(), tasks.VariantKey("design", key)); err == nil {
			key = tasks.VariantKey("design", key)
		}
		s.serveBlob(w, r, key, typeByName(key), cacheImage)
	default:
		s.notFound(w, r, "No such file.")
	}
}

// uiEntry is a script of the built UI the storefront loads: its file and the chunks it imports.
type uiEntry struct {
	File     string
	Preloads []string
}

// personalizeEntry is the preview script's entry in the UI build's manifest.
const personalizeEntry = "src/shop/personalize.tsx"

// uiBuild reads the UI build's manifest (ui/dist/.vite/manifest.json) once, for the entries the pages
// load; without a build the pages work without their scripts.
type uiBuild struct {
	dir  string
	once sync.Once
	man  map[string]struct {
		File    string   `json:"file"`
		Imports []string `json:"imports"`
	}
}

func (u *uiBuild) entry(name string) *uiEntry {
	u.once.Do(func() {
		b, err := readFileIn(u.dir, ".vite/manifest.json")
		if err == nil {
			_ = json.Unmarshal(b, &u.man)
		}
	})
	e, ok := u.man[name]
	if !ok {
		return nil
	}
	out := &uiEntry{File: "/" + e.File}
	seen := map[string]bool{}
	var walk func(string)
	walk = func(n string) {
		for _, imp := range u.man[n].Imports {
			if !seen[imp] {
				seen[imp] = true
				out.Preloads = append(out.Preloads, "/"+u.man[imp].File)
				walk(imp)
			}
		}
	}
	walk(name)
	return out
}
