package shop

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/pressroom/pressroom/commerce/reviews"
	"github.com/pressroom/pressroom/platform/uploadcheck"
)

// reviewsShown is how many of a campaign's reviews its page lists, the newest.
const reviewsShown = 20

// maxReviewField caps one text field of the review form; the text itself is at most
// reviews.MaxBody characters, which fit.
const maxReviewField = 16 << 10

// maxReviewForm caps a review post: the photo and the fields around it.
const maxReviewForm = reviews.MaxPhotoBytes + 64<<10

// writeReviewData is the buyer's review page of one order item.
type writeReviewData struct {
	Item   reviews.Item
	Action string
	// Refusal says why the item cannot be reviewed (then no form is shown); Thanks that the
	// review just sent was received.
	Refusal string
	Thanks  bool
}

// reviewItem reads the item of a review link, answering false (and the not-found page) when the
// link is not valid for this store.
func (s *Server) reviewItem(w http.ResponseWriter, r *http.Request) (reviews.Item, bool) {
	rs := storeOf(r)
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || !reviews.Valid(s.cfg.SigningKey, rs.ID, id, r.PathValue("token")) {
		s.notFound(w, r, reviews.MsgNotFound)
		return reviews.Item{}, false
	}
	it, err := reviews.LoadItem(r.Context(), s.d.DB, rs.ID, id)
	if errors.Is(err, reviews.ErrNotFound) {
		s.notFound(w, r, reviews.MsgNotFound)
		return reviews.Item{}, false
	} else if err != nil {
		s.fail(w, r, err)
		return reviews.Item{}, false
	}
	return it, true
}

func (s *Server) showWriteReview(w http.ResponseWriter, r *http.Request, status int, it reviews.Item, errs, form map[string]string) {
	rs := storeOf(r)
	d := writeReviewData{Item: it, Action: rs.Base + r.URL.Path}
	if err := it.Check(); errors.Is(err, reviews.ErrAlreadyReviewed) && r.URL.Query().Get("thanks") == "1" {
		d.Thanks = true
	} else if err != nil {
		d.Refusal = reviews.Message(err)
	}
	if form == nil {
		form = map[string]string{"author": reviews.ShownName(it.CustomerName)}
	}
	w.Header().Set("X-Robots-Tag", "noindex")
	s.show(w, r, status, cachePrivate, "write-review", view{Title: "Review " + it.ProductName + " — " + rs.Name, Data: d, Errors: errs, Form: form})
}

// writeReview is the review page of an order item's signed link (the delivery e-mail's).
func (s *Server) writeReview(w http.ResponseWriter, r *http.Request) {
	if it, ok := s.reviewItem(w, r); ok {
		s.showWriteReview(w, r, http.StatusOK, it, nil, nil)
	}
}

// reviewForm is what a review post carried; Photo is set once its file is stored.
type reviewForm struct {
	fields map[string]string
	photo  *reviews.Photo
	errs   map[string]string
}

// readReviewForm reads the post as it streams: the text fields, capped, and the photo straight into
// the blob store under a fresh key, capped at reviews.MaxPhotoBytes. A photo of another type, or too
// large, is a field error; nothing of it stays stored.
func (s *Server) readReviewForm(r *http.Request, storeID int64) (reviewForm, error) {
	f := reviewForm{fields: map[string]string{}, errs: map[string]string{}}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct != "multipart/form-data" {
		if err := r.ParseForm(); err != nil {
			return f, err
		}
		for _, k := range []string{"rating", "author", "body"} {
			f.fields[k] = r.PostFormValue(k)
		}
		return f, nil
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return f, err
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return f, nil
		}
		if err != nil {
			return f, err
		}
		name := part.FormName()
		switch {
		case name == "photo" && part.FileName() != "" && f.photo == nil && f.errs["photo"] == "":
			key, ct, err := reviews.PhotoKey(storeID, part.FileName())
			if errors.Is(err, uploadcheck.ErrFileType) {
				f.errs["photo"] = reviews.MsgPhotoType
				break
			} else if err != nil {
				return f, err
			}
			body := &capped{r: part, left: reviews.MaxPhotoBytes}
			if err := s.d.Blobs.Put(r.Context(), key, body, -1, ct); err != nil {
				if body.over {
					f.errs["photo"] = reviews.MsgPhotoTooBig
					break
				}
				return f, err
			}
			f.photo = &reviews.Photo{Key: key, FileName: part.FileName()}
		case name == "rating" || name == "author" || name == "body":
			b, err := io.ReadAll(io.LimitReader(part, maxReviewField+1))
			if err != nil {
				return f, err
			}
			if len(b) > maxReviewField {
				f.errs[name] = "This field is too long."
			}
			f.fields[name] = string(b)
		}
		part.Close()
	}
}

// capped reads r and fails once more than left bytes came.
type capped struct {
	r    io.Reader
	left int64
	over bool
}

func (c *capped) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if c.left -= int64(n); c.left < 0 {
		c.over = true
		return n, errors.New("over the size limit")
	}
	return n, err
}

// submitReview takes the review of an order item's signed link. A refused review shows the form
// again with each message by its field and what the buyer wrote (the photo must be chosen again);
// nothing is kept of it, the photo's file included.
func (s *Server) submitReview(w http.ResponseWriter, r *http.Request) {
	rs := storeOf(r)
	it, ok := s.reviewItem(w, r)
	if !ok {
		return
	}
	if err := it.Check(); err != nil {
		s.showWriteReview(w, r, http.StatusConflict, it, nil, nil)
		return
	}
	f, err := s.readReviewForm(r, rs.ID)
	removePhoto := func() {
		if f.photo != nil {
			if err := s.d.Blobs.Delete(r.Context(), f.photo.Key); err != nil {
				s.d.Log.Warn("review photo left behind", "key", f.photo.Key, "err", err)
			}
		}
	}
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		removePhoto()
		s.showWriteReview(w, r, http.StatusRequestEntityTooLarge, it, map[string]string{"photo": reviews.MsgPhotoTooBig}, f.fields)
		return
	} else if err != nil {
		removePhoto()
		http.Error(w, "The review could not be read. Please send it again.", http.StatusBadRequest)
		return
	}
	rating, _ := strconv.Atoi(strings.TrimSpace(f.fields["rating"]))
	in := reviews.Input{Rating: rating, Author: f.fields["author"], Body: f.fields["body"], Photo: f.photo}
	if len(f.errs) == 0 {
		// The photo's check is queued with the review; the worker's outbox relay sends it.
		_, err = reviews.Submit(r.Context(), s.d.DB, rs.ID, it.ID, in)
	}
	for _, fe := range reviews.Invalid(err) {
		f.errs[fe.Field] = fe.Message
	}
	switch {
	case len(f.errs) > 0:
		removePhoto()
		s.showWriteReview(w, r, http.StatusUnprocessableEntity, it, f.errs, f.fields)
		return
	case reviews.Message(err) != "":
		removePhoto()
		it, _ = reviews.LoadItem(r.Context(), s.d.DB, rs.ID, it.ID)
		s.showWriteReview(w, r, http.StatusConflict, it, nil, nil)
		return
	case err != nil:
		removePhoto()
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, rs.Base+r.URL.Path+"?thanks=1", http.StatusSeeOther)
}

// reviewPhoto serves the checked photo of a review the store shows on campaign id's page.
func (s *Server) reviewPhoto(w http.ResponseWriter, r *http.Request) {
	rs := storeOf(r)
	campaign, err1 := strconv.ParseInt(r.PathValue("id"), 10, 64)
	review, err2 := strconv.ParseInt(r.PathValue("review"), 10, 64)
	if err1 != nil || err2 != nil {
		s.notFound(w, r, "No such picture.")
		return
	}
	key, ct, err := reviews.PublicPhoto(r.Context(), s.d.DB, rs.ID, campaign, review)
	if errors.Is(err, reviews.ErrNotFound) {
		s.notFound(w, r, "No such picture.")
		return
	} else if err != nil {
		s.fail(w, r, err)
		return
	}
	s.serveBlob(w, r, key, ct, cachePublic)
}
