package emailmarketing

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"net/mail"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/lib/pq"
	"github.com/microcosm-cc/bluemonday"

	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	platformmail "github.com/pressroom/pressroom/platform/mail"
	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/worker/tasks"
)

// Messages of the campaign calls.
const (
	MsgCampaignNotFound     = "Campaign not found."
	MsgCampaignCreated      = "The campaign has been created."
	MsgCampaignUpdated      = "The campaign has been updated."
	MsgCampaignDeleted      = "The campaign has been deleted."
	MsgCampaignNotDraft     = "Only draft campaigns can be changed or deleted."
	MsgCampaignSendQueued   = "The campaign is being sent to its subscribers."
	MsgCampaignNoRecipients = "The store has no subscribed subscribers to send to."
	MsgCampaignNameRequired = "The name field is required."
	MsgSubjectRequired      = "The subject field is required."
	MsgSubjectInvalid       = "The subject may not be greater than 200 characters or contain line breaks."
	MsgPreheaderTooLong     = "The preheader may not be greater than 200 characters."
	MsgBodyRequired         = "The email body is required."
	MsgBodyTooLong          = "The email body may not be greater than 200 KB."
	MsgSenderRequired       = "Choose a sender."
	MsgStoreRequired        = "Choose a store."
	MsgSenderOtherStore     = "The sender does not belong to the campaign's store."
	MsgSenderUnverified     = "The sender's domain is not verified yet."
	MsgTestAddressInvalid   = "Enter a valid e-mail address for the test."
	MsgTestQueued           = "A test e-mail is on its way to %s."
)

// maxBody caps a campaign's HTML body.
const maxBody = 200 << 10

// Campaign is an e-mail campaign of a store with its send's progress.
type Campaign struct {
	ID          int64      `db:"id" json:"id"`
	StoreID     int64      `db:"store_id" json:"store_id"`
	StoreName   string     `db:"store_name" json:"store_name"`
	SenderID    *int64     `db:"sender_id" json:"sender_id"`
	SenderEmail string     `db:"sender_email" json:"sender_email"`
	Name        string     `db:"name" json:"name"`
	Subject     string     `db:"subject" json:"subject"`
	Preheader   string     `db:"preheader" json:"preheader"`
	BodyHTML    string     `db:"body_html" json:"body_html"`
	Status      string     `db:"status" json:"status"`
	ScheduledAt *time.Time `db:"scheduled_at" json:"scheduled_at"`
	Recipients  int        `db:"recipients" json:"recipients"`
	Sent        int        `db:"sent" json:"sent"`
	Failed      int        `db:"failed" json:"failed"`
	Error       string     `db:"error" json:"error"`
	CreatedAt   time.Time  `db:"created_at" json:"created_at"`
	UpdatedAt   time.Time  `db:"updated_at" json:"updated_at"`
	StartedAt   *time.Time `db:"started_at" json:"started_at"`
	FinishedAt  *time.Time `db:"finished_at" json:"finished_at"`
}

// campaignColumns read a campaign joined to its store and sender; a sent campaign keeps the
// address it was sent from.
const campaignColumns = `c.id, c.store_id, st.name AS store_name, c.sender_id,
coalesce(NULLIF(c.from_address, ''), s.username || '@' || d.domain, '') AS sender_email,
c.name, c.subject, c.preheader, c.body_html, c.status, c.scheduled_at, c.recipients, c.sent, c.failed, c.error,
c.created_at, c.updated_at, c.started_at, c.finished_at`

// campaignFrom joins campaigns to their stores and senders, limited to the stores in $1.
const campaignFrom = ` FROM email_campaigns c JOIN stores st ON st.id = c.store_id
LEFT JOIN email_senders s ON s.id = c.sender_id LEFT JOIN store_domains d ON d.id = s.store_domain_id
WHERE c.store_id = ANY($1)`

// campaignStatuses are the statuses the list filters on.
var campaignStatuses = []string{tasks.EmailDraft, tasks.EmailScheduled, tasks.EmailSending, tasks.EmailSent, tasks.EmailFailed}

func (s *Service) handleCampaigns(c echo.Context) error {
	q, err := envelope.ParseListQuery(c, "id", "name", "created_at")
	if err != nil {
		return err
	}
	status := c.QueryParam("status")
	if status != "" && !slices.Contains(campaignStatuses, status) {
		msg := "The status must be one of " + strings.Join(campaignStatuses, ", ") + "."
		return envelope.Fail(http.StatusUnprocessableEntity, msg, envelope.FieldError{Field: "status", Message: msg})
	}
	ctx := c.Request().Context()
	stores, err := s.stores(ctx, c)
	if err != nil {
		return err
	}
	ids := pq.Array(storeIDs(stores))
	const match = ` AND ($2 = '' OR c.name ILIKE '%' || $2 || '%' OR c.subject ILIKE '%' || $2 || '%') AND ($3 = '' OR c.status = $3)`
	var total int
	if err := s.d.DB.GetContext(ctx, &total, `SELECT count(*)`+campaignFrom+match, ids, q.Q, status); err != nil {
		return err
	}
	dir := " DESC"
	if q.OrderAsc {
		dir = " ASC"
	}
	// q.OrderBy is one of the names ParseListQuery allowed.
	page := []Campaign{}
	err = s.d.DB.SelectContext(ctx, &page, `SELECT `+campaignColumns+campaignFrom+match+` ORDER BY c.`+q.OrderBy+dir+`, c.id DESC LIMIT $4 OFFSET $5`,
		ids, q.Q, status, q.PerPage, q.Offset())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, envelope.NewPage(page, total, q))
}

// campaign is the caller's campaign named by the id path parameter, or 'Campaign not found.', and
// the ids of the caller's stores.
func (s *Service) campaign(c echo.Context) (Campaign, []int64, error) {
	id, stores, err := s.pathID(c, MsgCampaignNotFound)
	if err != nil {
		return Campaign{}, nil, err
	}
	out, err := s.campaignIn(c.Request().Context(), stores, id)
	return out, stores, err
}

func (s *Service) campaignIn(ctx context.Context, stores []int64, id int64) (Campaign, error) {
	var out Campaign
	err := s.d.DB.GetContext(ctx, &out, `SELECT `+campaignColumns+campaignFrom+` AND c.id = $2`, pq.Array(stores), id)
	if isNoRows(err) {
		return Campaign{}, envelope.Fail(http.StatusNotFound, MsgCampaignNotFound)
	}
	return out, err
}

func (s *Service) handleCampaign(c echo.Context) error {
	out, _, err := s.campaign(c)
	if err != nil {
		return err
	}
	return envelope.OK(c, out)
}

type campaignBody struct {
	StoreID   int64  `json:"store_id"`
	SenderID  int64  `json:"sender_id"`
	Name      string `json:"name"`
	Subject   string `json:"subject"`
	Preheader string `json:"preheader"`
	BodyHTML  string `json:"body_html"`
}

// validate checks and normalizes the fields a user types: trimmed text, a sanitized body that
// carries an unsubscribe link.
func (b *campaignBody) validate() error {
	b.Name, b.Subject, b.Preheader = strings.TrimSpace(b.Name), strings.TrimSpace(b.Subject), strings.TrimSpace(b.Preheader)
	var errs []envelope.FieldError
	add := func(field, msg string) { errs = append(errs, envelope.FieldError{Field: field, Message: msg}) }
	switch {
	case b.Name == "":
		add("name", MsgCampaignNameRequired)
	case len([]rune(b.Name)) > 200:
		add("name", "The name may not be greater than 200 characters.")
	}
	switch {
	case b.Subject == "":
		add("subject", MsgSubjectRequired)
	case len([]rune(b.Subject)) > 200 || strings.ContainsAny(b.Subject, "\r\n"):
		add("subject", MsgSubjectInvalid)
	}
	if unknown := tasks.UnknownMergeFields(b.Subject); len(unknown) > 0 && b.Subject != "" {
		add("subject", unknownMergeFields("subject", unknown))
	}
	if len([]rune(b.Preheader)) > 200 || strings.ContainsAny(b.Preheader, "\r\n") {
		add("preheader", MsgPreheaderTooLong)
	}
	if b.SenderID <= 0 {
		add("sender_id", MsgSenderRequired)
	}
	switch {
	case len(b.BodyHTML) > maxBody:
		add("body_html", MsgBodyTooLong)
	default:
		if platformmail.PlainText(b.BodyHTML) == "" {
			add("body_html", MsgBodyRequired)
		} else if unknown := tasks.UnknownMergeFields(b.BodyHTML); len(unknown) > 0 {
			add("body_html", unknownMergeFields("email body", unknown))
		}
		b.BodyHTML = SanitizeBody(b.BodyHTML)
	}
	if len(errs) > 0 {
		return envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
	}
	return nil
}

// unknownMergeFields is the refusal of the names in part that are not merge fields, listing those
// that are.
func unknownMergeFields(part string, names []string) string {
	quote := func(names []string) string {
		out := make([]string, len(names))
		for i, n := range names {
			out[i] = "{{" + n + "}}"
		}
		if len(out) == 1 {
			return out[0]
		}
		return strings.Join(out[:len(out)-1], ", ") + " and " + out[len(out)-1]
	}
	verb := "is not a merge field"
	if len(names) > 1 {
		verb = "are not merge fields"
	}
	known := make([]string, len(tasks.MergeFields))
	for i, f := range tasks.MergeFields {
		known[i] = f.Name
	}
	return fmt.Sprintf("The %s uses %s, which %s. The merge fields are %s.", part, quote(names), verb, quote(known))
}

// bodyPolicy is what campaign HTML may hold: the user-content policy (no scripts, handlers or
// javascript: links) plus the inline styles and table attributes e-mail layouts are made of.
var bodyPolicy = func() *bluemonday.Policy {
	p := bluemonday.UGCPolicy()
	p.AllowStyles("color", "background-color", "font-size", "font-family", "font-weight", "font-style", "line-height",
		"text-align", "text-decoration", "padding", "padding-top", "padding-bottom", "padding-left", "padding-right",
		"margin", "margin-top", "margin-bottom", "width", "max-width", "height", "border", "border-radius", "display").Globally()
	p.AllowAttrs("align", "valign", "width", "height", "bgcolor", "cellpadding", "cellspacing", "border").OnElements("table", "tr", "td", "th", "img")
	p.AllowAttrs("target").OnElements("a")
	return p
}()

// unsubscribeSentinel stands for the placeholder while the body is sanitized, which would escape
// the braces of a link to "{{unsubscribe_url}}".
const unsubscribeSentinel = "https://unsubscribe.pressroom.invalid/"

// unsubscribeFooter is added to a body that has no unsubscribe link of its own.
const unsubscribeFooter = `<p style="font-size: 12px; color: #868e96">You receive this e-mail because you subscribed to our store. <a href="` +
	tasks.UnsubscribePlaceholder + `">Unsubscribe</a></p>`

// SanitizeBody is body made safe to store and mail: sanitized by bodyPolicy, with the
// unsubscribe placeholder kept, and a footer with the placeholder appended when the body has none.
// Sanitizing its own output gives the same text, so a draft saved again does not change.
func SanitizeBody(body string) string {
	out := strings.TrimSpace(bodyPolicy.Sanitize(strings.ReplaceAll(body, tasks.UnsubscribePlaceholder, unsubscribeSentinel)))
	if !strings.Contains(out, unsubscribeSentinel) {
		out = strings.TrimSpace(bodyPolicy.Sanitize(out + "\n" + strings.ReplaceAll(unsubscribeFooter, tasks.UnsubscribePlaceholder, unsubscribeSentinel)))
	}
	return strings.ReplaceAll(out, unsubscribeSentinel, tasks.UnsubscribePlaceholder)
}

// checkSender makes sure senderID is a verified sender of store, among the caller's stores.
func (s *Service) checkSender(ctx context.Context, stores []int64, store, senderID int64) (Sender, error) {
	var row struct {
		Sender
		StoreID  int64 `db:"store_id"`
		Verified bool  `db:"verified"`
	}
	err := s.d.DB.GetContext(ctx, &row, `SELECT `+senderColumns+`, d.store_id, d.verified_at IS NOT NULL AS verified`+senderFrom+` AND s.id = $2`,
		pq.Array(stores), senderID)
	switch {
	case isNoRows(err):
		return Sender{}, envelope.Fail(http.StatusUnprocessableEntity, MsgSenderNotFound, envelope.FieldError{Field: "sender_id", Message: MsgSenderNotFound})
	case err != nil:
		return Sender{}, err
	case row.StoreID != store:
		return Sender{}, envelope.Fail(http.StatusUnprocessableEntity, MsgSenderOtherStore, envelope.FieldError{Field: "sender_id", Message: MsgSenderOtherStore})
	case !row.Verified:
		return Sender{}, envelope.Fail(http.StatusUnprocessableEntity, MsgSenderUnverified, envelope.FieldError{Field: "sender_id", Message: MsgSenderUnverified})
	}
	return row.Sender, nil
}

func (s *Service) handleCreateCampaign(c echo.Context) error {
	var b campaignBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	if err := b.validate(); err != nil {
		return err
	}
	if b.StoreID <= 0 {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgStoreRequired, envelope.FieldError{Field: "store_id", Message: MsgStoreRequired})
	}
	ctx := c.Request().Context()
	stores, err := s.stores(ctx, c)
	if err != nil {
		return err
	}
	st, err := storeIn(stores, b.StoreID)
	if err != nil {
		return err
	}
	if _, err := s.checkSender(ctx, storeIDs(stores), st.ID, b.SenderID); err != nil {
		return err
	}
	const q = `INSERT INTO email_campaigns (store_id, sender_id, name, subject, preheader, body_html, created_by)
VALUES ($1, $2, $3, $4, $5, $6, NULLIF($7, 0)::bigint) RETURNING id`
	var id int64
	if err := s.d.DB.GetContext(ctx, &id, q, st.ID, b.SenderID, b.Name, b.Subject, b.Preheader, b.BodyHTML, auth.Caller(c).Person()); err != nil {
		return err
	}
	out, err := s.campaignIn(ctx, storeIDs(stores), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, envelope.Response{Success: true, Message: MsgCampaignCreated, Data: out, Errors: []envelope.FieldError{}})
}

// draft is the caller's campaign, refused unless it is a draft, and the ids of the caller's stores.
func (s *Service) draft(c echo.Context) (Campaign, []int64, error) {
	cur, stores, err := s.campaign(c)
	if err != nil {
		return Campaign{}, nil, err
	}
	if cur.Status != tasks.EmailDraft {
		return Campaign{}, nil, envelope.Fail(http.StatusConflict, MsgCampaignNotDraft)
	}
	return cur, stores, nil
}

func (s *Service) handleUpdateCampaign(c echo.Context) error {
	cur, stores, err := s.draft(c)
	if err != nil {
		return err
	}
	var b campaignBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	if err := b.validate(); err != nil {
		return err
	}
	ctx := c.Request().Context()
	if _, err := s.checkSender(ctx, stores, cur.StoreID, b.SenderID); err != nil {
		return err
	}
	const q = `UPDATE email_campaigns SET sender_id = $2, name = $3, subject = $4, preheader = $5, body_html = $6, updated_at = now()
WHERE id = $1 AND status = 'draft'`
	res, err := s.d.DB.ExecContext(ctx, q, cur.ID, b.SenderID, b.Name, b.Subject, b.Preheader, b.BodyHTML)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return envelope.Fail(http.StatusConflict, MsgCampaignNotDraft)
	}
	out, err := s.campaignIn(ctx, stores, cur.ID)
	if err != nil {
		return err
	}
	return envelope.OKMessage(c, MsgCampaignUpdated, out)
}

func (s *Service) handleDeleteCampaign(c echo.Context) error {
	cur, _, err := s.draft(c)
	if err != nil {
		return err
	}
	res, err := s.d.DB.ExecContext(c.Request().Context(), `DELETE FROM email_campaigns WHERE id = $1 AND status = 'draft'`, cur.ID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return envelope.Fail(http.StatusConflict, MsgCampaignNotDraft)
	}
	return envelope.OKMessage(c, MsgCampaignDeleted, nil)
}

// handleTestCampaign queues one copy of the campaign to an address (202); the worker mails it
// through platform/mail.
func (s *Service) handleTestCampaign(c echo.Context) error {
	cur, _, err := s.campaign(c)
	if err != nil {
		return err
	}
	var b struct {
		Email string `json:"email"`
	}
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	addr, err := mail.ParseAddress(strings.TrimSpace(b.Email))
	if err != nil || addr.Name != "" || addr.Address != strings.TrimSpace(b.Email) {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgTestAddressInvalid, envelope.FieldError{Field: "email", Message: MsgTestAddressInvalid})
	}
	job, err := tasks.NewSendTestJob(cur.ID, addr.Address)
	if err != nil {
		return err
	}
	if err := s.enqueue(c.Request().Context(), job, nil); err != nil {
		return err
	}
	return c.JSON(http.StatusAccepted, envelope.Response{Success: true, Message: strings.Replace(MsgTestQueued, "%s", addr.Address, 1),
		Data: map[string]string{"email": addr.Address}, Errors: []envelope.FieldError{}})
}

// handleSendCampaign moves a draft to sending and queues its send in one transaction (202).
func (s *Service) handleSendCampaign(c echo.Context) error {
	cur, stores, err := s.draft(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if cur.SenderID == nil {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgSenderNotFound, envelope.FieldError{Field: "sender_id", Message: MsgSenderNotFound})
	}
	sender, err := s.checkSender(ctx, stores, cur.StoreID, *cur.SenderID)
	if err != nil {
		return err
	}
	var recipients int
	if err := s.d.DB.GetContext(ctx, &recipients, `SELECT count(*) FROM email_subscribers WHERE store_id = $1 AND status = 'subscribed'`, cur.StoreID); err != nil {
		return err
	}
	if recipients == 0 {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgCampaignNoRecipients)
	}
	job, err := tasks.NewSendCampaignJob(cur.ID)
	if err != nil {
		return err
	}
	from := sender.Name + " <" + sender.Email + ">"
	err = s.enqueue(ctx, job, func(tx txExec) error {
		const q = `UPDATE email_campaigns SET status = 'sending', from_address = $2, recipients = $3, updated_at = now() WHERE id = $1 AND status = 'draft'`
		res, err := tx.ExecContext(ctx, q, cur.ID, from, recipients)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return envelope.Fail(http.StatusConflict, MsgCampaignNotDraft)
		}
		return nil
	})
	if err != nil {
		return err
	}
	out, err := s.campaignIn(ctx, stores, cur.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusAccepted, envelope.Response{Success: true, Message: MsgCampaignSendQueued, Data: out, Errors: []envelope.FieldError{}})
}

// txExec is the part of a transaction a change made with a task uses.
type txExec interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// enqueue records job in the task outbox in one transaction with change (when not nil), then
// dispatches it; if Redis is away now, the relay sends it later.
func (s *Service) enqueue(ctx context.Context, job queue.Job, change func(txExec) error) error {
	tx, err := s.d.DB.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if change != nil {
		if err := change(tx); err != nil {
			return err
		}
	}
	id, err := outbox.Add(ctx, tx, job)
	if err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if _, err := s.d.Relay.Dispatch(ctx, id); err != nil {
		s.d.Log.Warn("email task left for the relay", "type", job.Type, "err", err)
	}
	return nil
}

// handleMergeFields lists the merge fields a campaign may use, with their samples.
func (s *Service) handleMergeFields(c echo.Context) error {
	return envelope.OK(c, tasks.MergeFields)
}

type previewBody struct {
	Subject  string `json:"subject"`
	BodyHTML string `json:"body_html"`
}

// Preview is a campaign's subject and body as a recipient would read them, the merge fields filled
// with their samples.
type Preview struct {
	Subject  string `json:"subject"`
	BodyHTML string `json:"body_html"`
}

// handlePreview fills a draft's subject and body (not saved) with the samples of the merge fields,
// after the same checks and sanitizing as a save; unknown merge fields are refused with 422.
func (s *Service) handlePreview(c echo.Context) error {
	var b previewBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	subject := strings.TrimSpace(b.Subject)
	var errs []envelope.FieldError
	if unknown := tasks.UnknownMergeFields(subject); len(unknown) > 0 {
		errs = append(errs, envelope.FieldError{Field: "subject", Message: unknownMergeFields("subject", unknown)})
	}
	switch unknown := tasks.UnknownMergeFields(b.BodyHTML); {
	case len(b.BodyHTML) > maxBody:
		errs = append(errs, envelope.FieldError{Field: "body_html", Message: MsgBodyTooLong})
	case len(unknown) > 0:
		errs = append(errs, envelope.FieldError{Field: "body_html", Message: unknownMergeFields("email body", unknown)})
	}
	if len(errs) > 0 {
		return envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
	}
	values := tasks.SampleMergeValues()
	return envelope.OK(c, Preview{
		Subject:  tasks.MergeSubject(subject, values),
		BodyHTML: tasks.MergeHTML(SanitizeBody(b.BodyHTML), values),
	})
}
