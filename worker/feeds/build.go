package feeds

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
	"golang.org/x/sync/errgroup"

	"github.com/pressroom/pressroom/commerce/checkout"
	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/platform/storelink"
	"github.com/pressroom/pressroom/worker/tasks"
)

// Builder builds feeds; it is the feeds:build task's handler.
type Builder struct {
	cfg   Config
	db    *sqlx.DB
	blobs blob.Store
	links storelink.Config
	log   *slog.Logger
}

// NewBuilder checks its dependencies; links is where the feed's links point.
func NewBuilder(cfg Config, db *sqlx.DB, blobs blob.Store, links storelink.Config, log *slog.Logger) (*Builder, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := links.Validate(); err != nil {
		return nil, err
	}
	if db == nil || blobs == nil {
		return nil, errors.New("feeds: db and blob store are required")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Builder{cfg: cfg, db: db, blobs: blobs, links: links, log: log}, nil
}

// feedRow is a feed with its store, as a build reads it.
type feedRow struct {
	ID           int64  `db:"id"`
	StoreID      int64  `db:"store_id"`
	Format       string `db:"format"`
	AllCampaigns bool   `db:"all_campaigns"`
	WantedSeq    int64  `db:"wanted_seq"`
	BuiltSeq     int64  `db:"built_seq"`
	StoreSlug    string `db:"slug"`
	StoreName    string `db:"store_name"`
}

const (
	qFeed = `SELECT f.id, f.store_id, f.format, f.all_campaigns, f.wanted_seq, f.built_seq, s.slug, s.name AS store_name
FROM social_feeds f JOIN stores s ON s.id = f.store_id WHERE f.id = $1`
	qChosen = `SELECT campaign_id FROM social_feed_campaigns WHERE feed_id = $1 ORDER BY campaign_id`
	// qMockups is the picture of each product, the first its product page shows (as the
	// storefront's gallery orders them): the chosen default, then the template's default, then the
	// templates' order.
	qMockups = `SELECT DISTINCT ON (m.product_id) m.product_id, m.id
FROM campaign_mockups m JOIN mockup_templates t ON t.id = m.mockup_template_id
WHERE m.product_id = ANY($1) AND m.status = 'done'
ORDER BY m.product_id, m.default_chosen DESC, m.is_default_mockup DESC, t.position, t.id`
	// qBuilt records a finished build, never going back to an older change than one recorded.
	qBuilt = `UPDATE social_feeds SET built_seq = greatest(built_seq, $2), fingerprint = $3, built_at = now(), item_count = $4,
	skipped_count = $5, byte_size = $6, error = '', updated_at = now() WHERE id = $1`
	qFailed = `UPDATE social_feeds SET error = $2, updated_at = now() WHERE id = $1`
)

// Built is what a build wrote.
type Built struct {
	Items, Skipped int
	Bytes          int64
}

// ProcessTask builds the payload's feed unless a later change was built already. A feed deleted
// meanwhile is dropped; a failure is recorded on the feed (the seller sees it) and retried.
func (b *Builder) ProcessTask(ctx context.Context, t *asynq.Task) error {
	p, err := queue.ParsePayload(t, func(p tasks.BuildFeedPayload) bool { return p.FeedID > 0 && p.Seq > 0 })
	if err != nil {
		return err
	}
	_, err = b.Build(ctx, p.FeedID, p.Seq)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("feed %d is gone: %w", p.FeedID, asynq.SkipRetry)
	}
	return err
}

// Build writes feed id's file for change seq (and whatever changed since) and records it: the
// fingerprint of the catalogue read, when, how many items and how many products were left out for
// want of a mockup. A feed whose built_seq has reached seq has nothing to do.
func (b *Builder) Build(ctx context.Context, id, seq int64) (Built, error) {
	var f feedRow
	if err := b.db.GetContext(ctx, &f, qFeed, id); err != nil {
		return Built{}, err
	}
	if f.BuiltSeq >= seq {
		return Built{}, nil
	}
	fp, err := Fingerprint(ctx, b.db, f.StoreID)
	if err != nil {
		return Built{}, err
	}
	out, err := b.write(ctx, f)
	if err != nil {
		if ctx.Err() == nil {
			if _, uerr := b.db.ExecContext(context.WithoutCancel(ctx), qFailed, id, "The feed could not be built: "+err.Error()); uerr != nil {
				b.log.Warn("feed failure not recorded", "feed", id, "err", uerr)
			}
		}
		return Built{}, fmt.Errorf("build feed %d: %w", id, err)
	}
	if _, err := b.db.ExecContext(ctx, qBuilt, id, f.WantedSeq, fp, out.Items, out.Skipped, out.Bytes); err != nil {
		return Built{}, fmt.Errorf("record feed %d: %w", id, err)
	}
	return out, nil
}

// write streams the feed into its blob: the catalogue is read and written a batch at a time on one
// side of a pipe while the store reads the other.
func (b *Builder) write(ctx context.Context, f feedRow) (Built, error) {
	var chosen []int64
	if !f.AllCampaigns {
		if err := b.db.SelectContext(ctx, &chosen, qChosen, f.ID); err != nil {
			return Built{}, err
		}
	}
	var out Built
	pr, pw := io.Pipe()
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		counted := &countingWriter{w: pw}
		err := b.items(gctx, f, chosen, newWriter(f.Format, counted), &out)
		out.Bytes = counted.n
		pw.CloseWithError(err)
		return err
	})
	g.Go(func() error {
		err := b.blobs.Put(gctx, tasks.FeedKey(f.ID, f.Format), pr, -1, tasks.FeedContentType(f.Format))
		pr.CloseWithError(err)
		return err
	})
	return out, g.Wait()
}

// items writes the feed's items: every colour and size of every product on sale of its campaigns
// that has a finished mockup.
func (b *Builder) items(ctx context.Context, f feedRow, chosen []int64, w writer, out *Built) error {
	base := b.links.Store(f.StoreSlug)
	if err := w.begin(Channel{Title: f.StoreName, Link: base + "/", Description: "Products of " + f.StoreName}); err != nil {
		return err
	}
	if f.AllCampaigns || len(chosen) > 0 {
		err := checkout.EachOffer(ctx, b.db, f.StoreID, chosen, b.cfg.Batch, func(batch []checkout.Offer) error {
			ids := make([]int64, len(batch))
			for i, o := range batch {
				ids[i] = o.ProductID
			}
			var rows []struct {
				ProductID int64 `db:"product_id"`
				ID        int64 `db:"id"`
			}
			if err := b.db.SelectContext(ctx, &rows, qMockups, pq.Array(ids)); err != nil {
				return fmt.Errorf("mockups: %w", err)
			}
			mockup := make(map[int64]int64, len(rows))
			for _, r := range rows {
				mockup[r.ProductID] = r.ID
			}
			for _, o := range batch {
				m, ok := mockup[o.ProductID]
				if !ok {
					out.Skipped++
					continue
				}
				for _, it := range itemsOf(o, base, m, f.StoreName) {
					if err := w.item(it); err != nil {
						return err
					}
					out.Items++
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return w.end()
}

// Limits of Google's fields, which Facebook's fit in too.
const (
	maxID    = 50
	maxTitle = 150
)

// itemsOf is an offer's items: one per colour and size, linking to the product page in that colour,
// with the product's mockup mockupID, priced as the store sells it.
func itemsOf(o checkout.Offer, base string, mockupID int64, brand string) []Item {
	out := make([]Item, 0, len(o.Colors)*len(o.Sizes))
	group := strconv.FormatInt(o.ProductID, 10)
	campaign := strconv.FormatInt(o.CampaignID, 10)
	for _, c := range o.Colors {
		for _, z := range o.Sizes {
			it := Item{
				ID:      clip(group+"-"+slug(c.Name)+"-"+slug(z.Name), maxID),
				GroupID: group,
				Title:   clip(o.CampaignName+" — "+o.Name+" ("+c.Name+", "+z.Name+")", maxTitle),
				Description: o.Name + " printed on demand: " + o.CampaignName + ". Colour " + c.Name + ", size " + z.Name +
					", from " + brand + ".",
				Link:        base + "/c/" + campaign + "?product=" + group + "&color=" + url.QueryEscape(c.Name),
				ImageLink:   base + "/img/" + strconv.FormatInt(mockupID, 10),
				Price:       feedPrice(z.Price),
				InStock:     !o.OutOfStock.Has(c.Name, z.Name),
				Brand:       brand,
				Color:       c.Name,
				Size:        z.Name,
				ProductType: o.Name,
			}
			if o.CompareAt != nil {
				// The size's extra is on top of the compare-at price as it is on top of the price.
				was := money.Money{Amount: o.CompareAt.Amount + z.Price.Amount - o.Price.Amount, Currency: z.Price.Currency}
				it.Price, it.SalePrice = feedPrice(was), feedPrice(z.Price)
			}
			out = append(out, it)
		}
	}
	return out
}

// feedPrice is a price as both formats write it: "24.00 USD".
func feedPrice(m money.Money) string { return m.Decimal() + " " + string(m.Currency) }

// slug keeps the letters and digits of s, in lower case, joined by single hyphens.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if ('a' <= r && r <= 'z') || ('0' <= r && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	return b.String()
}

// clip cuts s to at most n characters.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// countingWriter counts what passes through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
