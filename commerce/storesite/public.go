package storesite

import (
	"net"
	"strings"
)

// The conditions, as SQL, under which something is public in store s. Each names the aliases it
// reads: s (stores), c (campaigns), sp (store_products), k (collections), pg (store_pages), bp
// (blog_posts) and bc (blog_categories). The storefront's pages and the sitemap are written with
// them, so a buyer finds in the sitemap exactly what the store shows.
const (
	// ProductOnSale: product sp of campaign c is on sale in store s: active there, priced in the
	// store's currency, and the campaign is the store owner's.
	ProductOnSale = `sp.store_id = s.id AND sp.campaign_id = c.id AND c.user_id = s.owner_id AND sp.status = 'active' AND sp.currency = s.currency`
	// CollectionShown: collection k is the store owner's and shows in all their stores or in s
	// among the chosen ones.
	CollectionShown = `k.seller_id = s.owner_id AND (k.all_stores OR EXISTS (SELECT 1 FROM collection_stores ks WHERE ks.collection_id = k.id AND ks.store_id = s.id))`
	// CollectionOnSale: collection k holds a campaign on sale in store s.
	CollectionOnSale = `EXISTS (SELECT 1 FROM collection_campaigns kc JOIN campaigns c ON c.id = kc.campaign_id
	JOIN store_products sp ON sp.campaign_id = c.id AND sp.store_id = s.id WHERE kc.collection_id = k.id AND ` + ProductOnSale + `)`
	// PagePublished: page pg of store s is published.
	PagePublished = `pg.store_id = s.id AND pg.published`
	// PostPublished: post bp of store s is published and its publish date has come.
	PostPublished = `bp.store_id = s.id AND bp.status = 'published' AND bp.published_at <= now()`
	// CategoryShown: blog category bc is the store owner's and holds a post published in store s.
	CategoryShown = `bc.seller_id = s.owner_id AND EXISTS (SELECT 1 FROM blog_post_categories bpc JOIN blog_posts bp ON bp.id = bpc.post_id
	WHERE bpc.category_id = bc.id AND ` + PostPublished + `)`
)

// CoverVariant is the size of an upload (renderer/tasks' variants) the storefront shows as a blog
// post's cover: the bff asks the renderer for it when a post's cover is saved.
const CoverVariant = "full_hd"

// Address says where stores are reached where no request names an address (e-mails, the
// dashboard): StoreDomain is PRESSROOM_STORE_DOMAIN and StorefrontAddr the storefront's listen
// address (PRESSROOM_STOREFRONT_ADDR), whose port the development domain localhost is reached on.
type Address struct {
	StoreDomain    string
	StorefrontAddr string
}

// Origin is the canonical address of store slug, {slug}.{StoreDomain}.
func (a Address) Origin(slug string) string { return a.origin(slug + "." + a.StoreDomain) }

// DomainOrigin is the address of a store at its own (custom) domain.
func (a Address) DomainOrigin(domain string) string { return a.origin(domain) }

// origin is http on the storefront's port on the development domain localhost (where
// TLS ends at no proxy), https on the default port on a real domain.
func (a Address) origin(host string) string {
	if a.StoreDomain == "localhost" {
		_, port, _ := net.SplitHostPort(a.StorefrontAddr)
		return "http://" + strings.ToLower(host) + ":" + port
	}
	return "https://" + strings.ToLower(host)
}
