package emailmarketing

import (
	"encoding/csv"
	"fmt"
	"io"
	"net/http"
	"net/mail"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/bff/envelope"
)

// Messages of the subscriber calls.
const (
	MsgSubscriberNotFound = "Subscriber not found."
	MsgUnsubscribed       = "The subscriber has been unsubscribed."
	MsgNoCSV              = "Choose a CSV file to import."
	MsgNoEmailColumn      = "The CSV file needs a header row with an email column."
	MsgTooManyRows        = "The CSV file has more than 50000 rows; split it into smaller files."
	MsgCSVUnreadable      = "The file is not a readable CSV file."
)

// MaxImportRows caps the rows of one CSV import.
const MaxImportRows = 50000

// Subscriber is one of a store's e-mail subscribers.
type Subscriber struct {
	ID        int64     `db:"id" json:"id"`
	StoreID   int64     `db:"store_id" json:"store_id"`
	Email     string    `db:"email" json:"email"`
	FirstName string    `db:"first_name" json:"first_name"`
	LastName  string    `db:"last_name" json:"last_name"`
	Status    string    `db:"status" json:"status"`
	Source    string    `db:"source" json:"source"`
	CreatedAt time.Time `db:"created_at" json:"created_at"`
}

const subscriberColumns = `id, store_id, email, first_name, last_name, status, source, created_at`

// handleSubscribers lists the subscribers of the caller's stores (or of store_id), matching q on
// e-mail and names, newest first.
func (s *Service) handleSubscribers(c echo.Context) error {
	q, err := envelope.ParseListQuery(c, "id", "email")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	var ids []int64
	if raw := c.QueryParam("store_id"); raw != "" {
		st, err := s.store(c, raw)
		if err != nil {
			return err
		}
		ids = []int64{st.ID}
	} else {
		stores, err := s.stores(ctx, c)
		if err != nil {
			return err
		}
		ids = storeIDs(stores)
	}
	const where = ` FROM email_subscribers WHERE store_id = ANY($1)
AND ($2 = '' OR email ILIKE '%' || $2 || '%' OR (first_name || ' ' || last_name) ILIKE '%' || $2 || '%')`
	var total int
	if err := s.d.DB.GetContext(ctx, &total, `SELECT count(*)`+where, pq.Array(ids), q.Q); err != nil {
		return err
	}
	dir := " DESC"
	if q.OrderAsc {
		dir = " ASC"
	}
	page := []Subscriber{}
	err = s.d.DB.SelectContext(ctx, &page, `SELECT `+subscriberColumns+where+` ORDER BY `+q.OrderBy+dir+`, id DESC LIMIT $3 OFFSET $4`,
		pq.Array(ids), q.Q, q.PerPage, q.Offset())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, envelope.NewPage(page, total, q))
}

// ImportResult is what a CSV import did.
type ImportResult struct {
	// Imported are new subscribers, Updated existing ones whose names were refreshed.
	Imported int `json:"imported"`
	Updated  int `json:"updated"`
	// Skipped rows had no valid e-mail or repeated one; Problems names the first few.
	Skipped  int      `json:"skipped"`
	Problems []string `json:"problems"`
}

type importRow struct{ email, first, last string }

// parseCSV reads rows with a header naming email and optionally first_name and last_name (or
// "first name", "last name"); e-mails are checked and de-duplicated case-insensitively. refusal,
// when not empty, is why the whole file is refused.
func parseCSV(r io.Reader) (rows []importRow, res ImportResult, refusal string) {
	res.Problems = []string{}
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	header, err := cr.Read()
	if err != nil {
		return nil, res, MsgNoEmailColumn
	}
	col := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		col[strings.ReplaceAll(h, " ", "_")] = i
	}
	emailCol, ok := col["email"]
	if !ok {
		return nil, res, MsgNoEmailColumn
	}
	field := func(rec []string, name string) string {
		if i, ok := col[name]; ok && i < len(rec) {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	seen := map[string]bool{}
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, res, MsgCSVUnreadable
		}
		if len(rows)+res.Skipped >= MaxImportRows {
			return nil, res, MsgTooManyRows
		}
		email := ""
		if emailCol < len(rec) {
			email = strings.TrimSpace(rec[emailCol])
		}
		problem := ""
		if a, err := mail.ParseAddress(email); err != nil || a.Address != email || len(email) > 254 {
			problem = fmt.Sprintf("Line %d: %q is not a valid e-mail address.", line, email)
		} else if seen[strings.ToLower(email)] {
			problem = fmt.Sprintf("Line %d: %s appears twice.", line, email)
		}
		if problem != "" {
			res.Skipped++
			if len(res.Problems) < 10 {
				res.Problems = append(res.Problems, problem)
			}
			continue
		}
		seen[strings.ToLower(email)] = true
		rows = append(rows, importRow{email: email, first: field(rec, "first_name"), last: field(rec, "last_name")})
	}
	return rows, res, ""
}

type importBody struct {
	StoreID int64 `json:"store_id"`
	// CSV is the file's text: the UI reads the chosen file and sends it, within the JSON body limit.
	CSV string `json:"csv"`
}

// handleImport is POST .../subscribers/import with store_id and csv. New addresses are
// subscribed; known ones keep their status (an unsubscribe is never undone by an import) and get
// the file's names.
func (s *Service) handleImport(c echo.Context) error {
	var b importBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	st, err := s.store(c, strconv.FormatInt(b.StoreID, 10))
	if err != nil {
		return err
	}
	if strings.TrimSpace(b.CSV) == "" {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgNoCSV, envelope.FieldError{Field: "csv", Message: MsgNoCSV})
	}
	rows, res, refusal := parseCSV(strings.NewReader(b.CSV))
	if refusal != "" {
		return envelope.Fail(http.StatusUnprocessableEntity, refusal, envelope.FieldError{Field: "csv", Message: refusal})
	}
	ctx := c.Request().Context()
	tx, err := s.d.DB.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	const q = `INSERT INTO email_subscribers (store_id, email, first_name, last_name, source)
SELECT $1, e, f, l, 'csv' FROM unnest($2::text[], $3::text[], $4::text[]) AS t(e, f, l)
ON CONFLICT (store_id, lower(email)) DO UPDATE SET first_name = EXCLUDED.first_name, last_name = EXCLUDED.last_name, updated_at = now()
RETURNING (xmax = 0) AS inserted`
	const chunk = 1000
	for start := 0; start < len(rows); start += chunk {
		part := rows[start:min(start+chunk, len(rows))]
		emails, firsts, lasts := make([]string, len(part)), make([]string, len(part)), make([]string, len(part))
		for i, r := range part {
			emails[i], firsts[i], lasts[i] = r.email, r.first, r.last
		}
		var inserted []bool
		if err := tx.SelectContext(ctx, &inserted, q, st.ID, pq.Array(emails), pq.Array(firsts), pq.Array(lasts)); err != nil {
			return fmt.Errorf("import subscribers: %w", err)
		}
		for _, ins := range inserted {
			if ins {
				res.Imported++
			} else {
				res.Updated++
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	msg := fmt.Sprintf("%d subscribers imported, %d updated, %d skipped.", res.Imported, res.Updated, res.Skipped)
	return envelope.OKMessage(c, msg, res)
}

func (s *Service) handleUnsubscribe(c echo.Context) error {
	id, stores, err := s.pathID(c, MsgSubscriberNotFound)
	if err != nil {
		return err
	}
	var out Subscriber
	err = s.d.DB.GetContext(c.Request().Context(), &out, `UPDATE email_subscribers SET status = 'unsubscribed', updated_at = now()
WHERE id = $2 AND store_id = ANY($1) RETURNING `+subscriberColumns, pq.Array(stores), id)
	if isNoRows(err) {
		return envelope.Fail(http.StatusNotFound, MsgSubscriberNotFound)
	}
	if err != nil {
		return err
	}
	return envelope.OKMessage(c, MsgUnsubscribed, out)
}
