package checkout

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/uploadcheck"
	"github.com/pressroom/pressroom/renderer/design"
)

// ProductDesign is one print space's design of a product on sale, as a buyer personalizes it.
type ProductDesign struct {
	PrintSpace string
	DesignID   int64
	Revision   int64
	Doc        *design.Document
}

// Designs lists a product's designs in print-space order (the main one first). A document that no
// longer parses is left out: it cannot be personalized (nor printed; the seller sees why).
func Designs(ctx context.Context, db sqlx.QueryerContext, productID int64) ([]ProductDesign, error) {
	const q = `SELECT id, print_space, revision, design_json FROM campaign_designs WHERE product_id = $1 ORDER BY id`
	var rows []struct {
		ID         int64  `db:"id"`
		PrintSpace string `db:"print_space"`
		Revision   int64  `db:"revision"`
		Doc        []byte `db:"design_json"`
	}
	if err := sqlx.SelectContext(ctx, db, &rows, q, productID); err != nil {
		return nil, fmt.Errorf("load designs of product %d: %w", productID, err)
	}
	out := make([]ProductDesign, 0, len(rows))
	for _, r := range rows {
		doc, err := design.Parse(r.Doc)
		if err != nil {
			continue
		}
		out = append(out, ProductDesign{PrintSpace: r.PrintSpace, DesignID: r.ID, Revision: r.Revision, Doc: doc})
	}
	return out, nil
}

// Answer is a buyer's answer to one field of a product's personalization, as a page or the cart API
// sends it (docs/personalization.md): the text typed, the option chosen (its index), or the id of a
// photo uploaded to this store (UploadPhoto).
type Answer struct {
	PrintSpace string `json:"print_space"`
	ObjectID   string `json:"object_id"`
	Text       string `json:"text,omitempty"`
	Choice     *int   `json:"choice,omitempty"`
	PhotoID    int64  `json:"photo_id,omitempty"`
}

// PersonalizationField names the field of one custom object in errors: personalization.{space}.{id}.
func PersonalizationField(space, objectID string) string {
	return "personalization." + space + "." + objectID
}

// Messages about the buyer's answers beyond one field's rules.
const (
	MsgNoSuchField = "This product has no such personalization field."
	MsgPhotoGone   = "The photo was not found: upload it again."
	MsgPhotoRefuse = "This photo cannot be used: %s"
	MsgPhotoWait   = "The photo is still being checked: try again in a moment."
)

// Photo kinds and statuses of the uploads table (renderer/sanitize records the outcome).
const (
	PhotoKind     = "buyer_photo"
	uploadReady   = "ready"
	uploadPending = "pending"
)

// PhotoKeyPrefix is where a store's buyers' photos are kept: b/{storeId}/.
func PhotoKeyPrefix(storeID int64) string { return fmt.Sprintf("b/%d/", storeID) }

// personalize checks a buyer's answers for a product against its designs now and returns the
// personalization they make: an *InvalidError names each refused field.
func personalize(ctx context.Context, db sqlx.QueryerContext, storeID, productID int64, answers []Answer) (design.Personalization, error) {
	p := design.Personalization{Texts: []design.TextValue{}, Images: []design.ImageValue{}}
	designs, err := Designs(ctx, db, productID)
	if err != nil {
		return p, err
	}
	bySpace := map[string]map[string]design.Answer{}
	var errs []FieldError
	for _, a := range answers {
		i := slices.IndexFunc(designs, func(d ProductDesign) bool { return d.PrintSpace == a.PrintSpace })
		if i < 0 || !slices.ContainsFunc(designs[i].Doc.Fields(), func(f design.Field) bool { return f.ObjectID == a.ObjectID }) {
			errs = append(errs, FieldError{Field: PersonalizationField(a.PrintSpace, a.ObjectID), Message: MsgNoSuchField})
			continue
		}
		da := design.Answer{Text: a.Text, Choice: -1}
		if a.Choice != nil {
			da.Choice = *a.Choice
		}
		if a.PhotoID != 0 {
			photo, msg, err := photoOf(ctx, db, storeID, a.PhotoID)
			if err != nil {
				return p, err
			}
			if msg != "" {
				errs = append(errs, FieldError{Field: PersonalizationField(a.PrintSpace, a.ObjectID), Message: msg})
				continue
			}
			da.Photo = photo
		}
		if bySpace[a.PrintSpace] == nil {
			bySpace[a.PrintSpace] = map[string]design.Answer{}
		}
		bySpace[a.PrintSpace][a.ObjectID] = da
	}
	for _, d := range designs {
		got, problems := design.Collect(d.Doc, d.PrintSpace, bySpace[d.PrintSpace])
		for _, pr := range problems {
			errs = append(errs, FieldError{Field: PersonalizationField(pr.PrintSpace, pr.ObjectID), Message: pr.Message})
		}
		p.Merge(got)
	}
	if len(errs) > 0 {
		return p, &InvalidError{Errors: errs}
	}
	return p, nil
}

// photoOf reads a buyer's photo of this store: its key and size once checked, or the message a buyer
// reads when it cannot be used.
func photoOf(ctx context.Context, db sqlx.QueryerContext, storeID, id int64) (*design.Photo, string, error) {
	const q = `SELECT blob_key, status, message, coalesce(width, 0) AS width, coalesce(height, 0) AS height
FROM uploads WHERE id = $1 AND kind = $2 AND starts_with(blob_key, $3)`
	var r struct {
		Key     string `db:"blob_key"`
		Status  string `db:"status"`
		Message string `db:"message"`
		Width   int    `db:"width"`
		Height  int    `db:"height"`
	}
	err := sqlx.GetContext(ctx, db, &r, q, id, PhotoKind, PhotoKeyPrefix(storeID))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, MsgPhotoGone, nil
	case err != nil:
		return nil, "", fmt.Errorf("load photo %d: %w", id, err)
	case r.Status == uploadPending:
		return nil, MsgPhotoWait, nil
	case r.Status != uploadReady:
		return nil, fmt.Sprintf(MsgPhotoRefuse, r.Message), nil
	}
	return &design.Photo{Key: r.Key, Width: r.Width, Height: r.Height}, "", nil
}

// personalizationKey tells two lines of one product, colour and size apart: a digest of what the
// buyer gave, "" for nothing.
func personalizationKey(p design.Personalization) (string, []byte, error) {
	b, err := json.Marshal(p)
	if err != nil {
		return "", nil, err
	}
	if p.Empty() {
		return "", b, nil
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), b, nil
}

// lineWarnings says, per line, what the buyer should know before paying: a photo that would print
// below the print space's minimum DPI (design.PhotoWarning).
func lineWarnings(ctx context.Context, db sqlx.QueryerContext, lines []Line) error {
	docs := map[int64][]ProductDesign{}
	for i, l := range lines {
		var photos []design.ImageValue
		for _, img := range l.Personalization.Images {
			if img.Choice == "" {
				photos = append(photos, img)
			}
		}
		if len(photos) == 0 {
			continue
		}
		if _, ok := docs[l.ProductID]; !ok {
			d, err := Designs(ctx, db, l.ProductID)
			if err != nil {
				return err
			}
			docs[l.ProductID] = d
		}
		for _, img := range photos {
			for _, d := range docs[l.ProductID] {
				if d.PrintSpace != img.PrintSpace {
					continue
				}
				if msg := design.PhotoWarning(d.Doc, img.ObjectID, img.Width, img.Height); msg != "" {
					lines[i].Warnings = append(lines[i].Warnings, img.Label+": "+msg)
				}
			}
		}
	}
	return nil
}

// RecordPhoto records a buyer's photo stored under key (in PhotoKeyPrefix of its store) as a pending
// upload and queues its check (render:sanitize) through the outbox, in one transaction. The photo is
// usable once the check marked it ready (photoOf).
func RecordPhoto(ctx context.Context, db *sqlx.DB, key, fileName string) (int64, error) {
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	id, _, err := uploadcheck.Record(ctx, tx, uploadcheck.Upload{Key: key, FileName: fileName, Kind: PhotoKind})
	if err != nil {
		return 0, fmt.Errorf("record photo: %w", err)
	}
	if id == 0 {
		return 0, fmt.Errorf("record photo: %s is recorded already", key)
	}
	return id, tx.Commit()
}

// PhotoState is a buyer's photo as its check left it.
type PhotoState struct {
	ID     int64 `json:"id"`
	Ready  bool  `json:"ready"`
	Width  int   `json:"width"`
	Height int   `json:"height"`
	// Message is why it cannot be used ("" when ready, or still being checked).
	Message string `json:"message,omitempty"`
	// Pending is true while the check runs.
	Pending bool `json:"pending"`
}

// Photo reads a buyer's photo of this store; ErrNotFound when there is none.
func Photo(ctx context.Context, db sqlx.QueryerContext, storeID, id int64) (PhotoState, error) {
	p, msg, err := photoOf(ctx, db, storeID, id)
	switch {
	case err != nil:
		return PhotoState{}, err
	case msg == MsgPhotoGone:
		return PhotoState{}, ErrNotFound
	case msg == MsgPhotoWait:
		return PhotoState{ID: id, Pending: true}, nil
	case msg != "":
		return PhotoState{ID: id, Message: msg}, nil
	}
	return PhotoState{ID: id, Ready: true, Width: p.Width, Height: p.Height}, nil
}
