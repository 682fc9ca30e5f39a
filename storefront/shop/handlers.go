package shop

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pressroom/pressroom/commerce/checkout"
	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/payments"
	"github.com/pressroom/pressroom/commerce/pricing"
	"github.com/pressroom/pressroom/commerce/recovery"
	"github.com/pressroom/pressroom/commerce/reviews"
	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/richtext"
	"github.com/pressroom/pressroom/platform/uploadcheck"
	"github.com/pressroom/pressroom/renderer/fonts"
)

// view is what every page template gets.
type view struct {
	Title       string
	Description string
	Message     string
	S           *reqStore
	Canonical   string
	OGImage     string
	// OGType is the page's OpenGraph type; empty, product on a page with a picture, else website.
	OGType string
	// Published is when an article was published (article:published_time).
	Published time.Time
	TestMode  bool
	// Pages are the store's published pages, each shown in its menu (header, footer, side column).
	Pages []Page
	// Blog says the store has a published post: the menu links its blog.
	Blog bool
	// Collections are the store's menu of collections.
	Collections []Collection
	Data        any
	Errors      map[string]string
	Form        map[string]string
	// Suggestions are the campaigns the seller's cross-selling rules suggest on this page.
	Suggestions []Listing
	// Pay, with Stripe, confirms the payment in the browser on the review page.
	Pay *stripeData
	// Query is what the search box of the header shows.
	Query string
}

func (s *Server) show(w http.ResponseWriter, r *http.Request, status int, cache, name string, v view) {
	rs := storeOf(r)
	v.S = &rs
	if v.Canonical == "" {
		v.Canonical = rs.Origin + r.URL.Path
	}
	if gw, err := s.d.Checkout.GatewayFor(r.Context(), rs.ID); err == nil {
		v.TestMode = gw.TestMode()
	} else {
		s.d.Log.Error("the store's payment gateway", "store", rs.ID, "err", err)
	}
	if v.Pages == nil {
		if pages, err := s.store.pages(r.Context(), rs.ID); err == nil {
			v.Pages = pages
		}
	}
	if blog, err := s.store.hasBlog(r.Context(), rs.ID); err == nil {
		v.Blog = blog
	}
	if v.Collections == nil {
		if cols, err := s.store.collections(r.Context(), rs.ID); err == nil {
			v.Collections = cols
		}
	}
	w.Header().Set("Cache-Control", cache)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	if err := s.pages.render(w, name, v); err != nil {
		s.d.Log.Error("render", "page", name, "err", err)
	}
}

// homeData is the store's home: the featured campaigns of each collection, then everything on sale.
type homeData struct {
	Sections []homeSection
	All      []Listing
}

// homeSection is a collection with its featured campaigns on sale, in the seller's order.
type homeSection struct {
	Collection
	Featured []Listing
}

func (s *Server) home(w http.ResponseWriter, r *http.Request) {
	rs := storeOf(r)
	ctx := r.Context()
	list, err := s.store.listings(ctx, rs.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	cols, err := s.store.collections(ctx, rs.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	featured, err := s.store.featured(ctx, rs.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if cols == nil {
		cols = []Collection{} // the menu has been read: show need not read it again
	}
	d := homeData{All: list}
	for _, c := range cols {
		if f := featured[c.ID]; len(f) > 0 {
			d.Sections = append(d.Sections, homeSection{Collection: c, Featured: f})
		}
	}
	v := view{Title: rs.Name, Description: "Shop " + rs.Name, Data: d, Collections: cols}
	if len(list) > 0 && list[0].MockupID != 0 {
		v.OGImage = rs.Origin + "/img/" + strconv.FormatInt(list[0].MockupID, 10)
	}
	s.show(w, r, http.StatusOK, cachePublic, "home", v)
}

// campaignData is the product page: the campaign's products on sale, the chosen one, its pictures.
type campaignData struct {
	Name     string
	ID       int64
	Offers   []checkout.Offer
	Selected checkout.Offer
	Color    string
	Mockups  []Mockup
	Quantity int
	// Personalize asks for the buyer's texts, choices and photos (nil: nothing to fill).
	Personalize *personalizeView
	// ReviewsOn is set when the store shows reviews; Reviews are those it shows of the campaign.
	ReviewsOn bool
	Reviews   reviews.Shown
}

func (s *Server) campaign(w http.ResponseWriter, r *http.Request) {
	s.showCampaign(w, r, http.StatusOK, nil, checkout.AddItem{})
}

func (s *Server) showCampaign(w http.ResponseWriter, r *http.Request, status int, errs map[string]string, picked checkout.AddItem) {
	rs := storeOf(r)
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	switch {
	case err == nil:
	case r.PathValue("id") != "": // a campaign's address (its slug) in place of its id
		if id, err = s.store.campaignBySlug(r.Context(), rs.ID, r.PathValue("id")); err != nil {
			s.fail(w, r, err)
			return
		}
	default:
		id, _ = strconv.ParseInt(r.FormValue("campaign_id"), 10, 64)
	}
	offers, err := checkout.Offers(r.Context(), s.d.DB, rs.ID, id, 0)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if id <= 0 || len(offers) == 0 {
		s.notFound(w, r, "This product is not on sale in this store.")
		return
	}
	d := campaignData{ID: id, Name: offers[0].CampaignName, Offers: offers, Selected: offers[0], Quantity: 1}
	want, _ := strconv.ParseInt(r.URL.Query().Get("product"), 10, 64)
	if picked.ProductID != 0 {
		want = picked.ProductID
	}
	for _, o := range offers {
		if o.ProductID == want {
			d.Selected = o
		}
	}
	d.Color = r.URL.Query().Get("color")
	if picked.Color != "" {
		d.Color = picked.Color
	}
	if picked.Quantity > 0 {
		d.Quantity = picked.Quantity
	}
	if d.Color == "" && len(d.Selected.Colors) > 0 {
		d.Color = d.Selected.Colors[0].Name
	}
	all, err := s.store.mockups(r.Context(), rs.ID, id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	for _, m := range all {
		if m.ProductID == d.Selected.ProductID {
			d.Mockups = append(d.Mockups, m)
		}
	}
	if d.Personalize, err = s.personalizeFor(r.Context(), rs, id, d.Selected.ProductID, picked.Personalization, errs, d.Mockups); err != nil {
		s.fail(w, r, err)
		return
	}
	suggested, err := s.store.suggestions(r.Context(), rs.ID, []int64{id})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if d.ReviewsOn = rs.ReviewSetting != reviews.SettingDisable; d.ReviewsOn {
		if d.Reviews, err = reviews.ForCampaign(r.Context(), s.d.DB, rs.ID, id, reviewsShown); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	v := view{Title: d.Name + " — " + d.Selected.Name, Description: d.Name + " " + d.Selected.Name + " from " + d.Selected.Price.String(),
		Data: d, Errors: errs, Canonical: rs.Origin + "/c/" + strconv.FormatInt(id, 10), Suggestions: suggested}
	if len(d.Mockups) > 0 {
		v.OGImage = rs.Origin + "/img/" + strconv.FormatInt(d.Mockups[0].ID, 10)
	}
	cache := cachePublic
	if status != http.StatusOK {
		cache = cachePrivate
	}
	s.show(w, r, status, cache, "campaign", v)
}

func (s *Server) image(w http.ResponseWriter, r *http.Request) {
	rs := storeOf(r)
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		s.notFound(w, r, "No such picture.")
		return
	}
	key, err := s.store.image(r.Context(), rs.ID, id, r.URL.Query().Has("base"))
	if errors.Is(err, errNotFound) {
		s.notFound(w, r, "No such picture.")
		return
	} else if err != nil {
		s.fail(w, r, err)
		return
	}
	s.serveBlob(w, r, key, typeByName(key), cacheImage)
}

// serveBlob streams the stored object key as contentType with the cache rule cache.
func (s *Server) serveBlob(w http.ResponseWriter, r *http.Request, key, contentType, cache string) {
	body, info, err := s.d.Blobs.Get(r.Context(), key)
	if errors.Is(err, blob.ErrNotFound) {
		s.notFound(w, r, "No such file.")
		return
	} else if err != nil {
		s.fail(w, r, err)
		return
	}
	defer body.Close()
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Length", strconv.FormatInt(info.Size, 10))
	w.Header().Set("Cache-Control", cache)
	if r.Method != http.MethodHead {
		io.Copy(w, body)
	}
}

// typeByName is the media type of a stored font (fonts.ContentType) or picture (the upload rule,
// uploadcheck.ContentType) by its key; PNG when it says nothing else.
func typeByName(key string) string {
	if strings.HasPrefix(key, fonts.KeyPrefix) {
		return fonts.ContentType(key)
	}
	if ct, err := uploadcheck.ContentType(key); err == nil {
		return ct
	}
	return "image/png"
}

// collectionData is a collection's page.
type collectionData struct {
	Collection
	Listings []Listing
}

func (s *Server) collection(w http.ResponseWriter, r *http.Request) {
	rs := storeOf(r)
	c, list, err := s.store.collection(r.Context(), rs.ID, r.PathValue("slug"))
	if errors.Is(err, errNotFound) {
		s.notFound(w, r, "This store has no such collection.")
		return
	} else if err != nil {
		s.fail(w, r, err)
		return
	}
	desc := c.Description
	if desc == "" {
		desc = c.Name + " at " + rs.Name
	}
	v := view{Title: c.Name + " — " + rs.Name, Description: desc, Data: collectionData{Collection: c, Listings: list}}
	if len(list) > 0 && list[0].MockupID != 0 {
		v.OGImage = rs.Origin + "/img/" + strconv.FormatInt(list[0].MockupID, 10)
	}
	s.show(w, r, http.StatusOK, cachePublic, "collection", v)
}

func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	rs := storeOf(r)
	pages, err := s.store.pages(r.Context(), rs.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	for _, p := range pages {
		if p.Slug == r.PathValue("slug") {
			s.show(w, r, http.StatusOK, cachePublic, "page", view{Title: p.Title + " — " + rs.Name,
				Description: richtext.Summary(p.Body, descriptionLength), Data: p, Pages: pages})
			return
		}
	}
	s.notFound(w, r, "This store has no such page.")
}

// cartCookie holds the buyer's cart id, per store.
const cartCookie = "pressroom_cart"

func (s *Server) cartID(r *http.Request) string {
	if c, err := r.Cookie(cartCookie); err == nil {
		return c.Value
	}
	return ""
}

func (s *Server) setCart(w http.ResponseWriter, r *http.Request, id string) {
	rs := storeOf(r)
	http.SetCookie(w, &http.Cookie{Name: cartCookie, Value: id, Path: rs.Base + "/", MaxAge: 30 * 24 * 3600,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil})
}

func (s *Server) cart(w http.ResponseWriter, r *http.Request) {
	rs := storeOf(r)
	c, err := s.d.Checkout.Cart(r.Context(), rs.ID, s.cartID(r), money.Currency(rs.Currency))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var inCart []int64
	for _, l := range c.Lines {
		if !slices.Contains(inCart, l.CampaignID) {
			inCart = append(inCart, l.CampaignID)
		}
	}
	suggested, err := s.store.suggestions(r.Context(), rs.ID, inCart)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.show(w, r, http.StatusOK, cachePrivate, "cart", view{Title: "Your cart — " + rs.Name, Data: c, Message: r.URL.Query().Get("m"),
		Suggestions: suggested})
}

// formItem reads an add-to-cart form.
func formItem(r *http.Request) checkout.AddItem {
	pid, _ := strconv.ParseInt(r.PostFormValue("product_id"), 10, 64)
	qty, err := strconv.Atoi(strings.TrimSpace(r.PostFormValue("quantity")))
	if err != nil {
		qty = 0
	}
	return checkout.AddItem{ProductID: pid, Color: r.PostFormValue("color"), Size: r.PostFormValue("size"), Quantity: qty}
}

func fieldErrors(err error) map[string]string {
	var inv *checkout.InvalidError
	if !errors.As(err, &inv) {
		return nil
	}
	out := map[string]string{}
	for _, f := range inv.Errors {
		if out[f.Field] != "" { // several lines of the cart out of stock: each is named
			f.Message = out[f.Field] + " " + f.Message
		}
		out[f.Field] = f.Message
	}
	return out
}

func (s *Server) addToCart(w http.ResponseWriter, r *http.Request) {
	rs := storeOf(r)
	var err error
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
		err = r.ParseMultipartForm(maxForm)
		if r.MultipartForm != nil {
			defer r.MultipartForm.RemoveAll()
		}
	} else {
		err = r.ParseForm()
	}
	if err != nil {
		http.Error(w, "The form is too large.", http.StatusRequestEntityTooLarge)
		return
	}
	it := formItem(r)
	if it.ProductID > 0 {
		answers, photoErrs, err := s.formAnswers(r.Context(), r, rs.ID, it.ProductID)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		it.Personalization = answers
		if len(photoErrs) > 0 {
			s.showCampaign(w, r, http.StatusUnprocessableEntity, photoErrs, it)
			return
		}
	}
	id, err := s.d.Checkout.AddToCart(r.Context(), rs.ID, s.cartID(r), it)
	if errs := fieldErrors(err); errs != nil {
		if errs["product_id"] != "" && it.ProductID != 0 {
			// An unknown product has no page to show the message on: the campaign's page says it.
			errs["form"] = errs["product_id"]
		}
		s.showCampaign(w, r, http.StatusUnprocessableEntity, errs, it)
		return
	} else if err != nil {
		s.fail(w, r, err)
		return
	}
	s.setCart(w, r, id)
	http.Redirect(w, r, rs.Base+"/cart", http.StatusSeeOther)
}

func (s *Server) setQuantity(w http.ResponseWriter, r *http.Request) {
	rs := storeOf(r)
	line, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	qty, err := strconv.Atoi(strings.TrimSpace(r.PostFormValue("quantity")))
	if err != nil {
		qty = -1
	}
	err = s.d.Checkout.SetQuantity(r.Context(), rs.ID, s.cartID(r), line, qty)
	msg := ""
	if errs := fieldErrors(err); errs != nil {
		msg = errs["quantity"]
	} else if errors.Is(err, checkout.ErrNotFound) {
		msg = "That line is no longer in your cart."
	} else if err != nil {
		s.fail(w, r, err)
		return
	}
	target := rs.Base + "/cart"
	if msg != "" {
		target += "?m=" + urlQueryEscape(msg)
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// checkoutData is the checkout form.
type checkoutData struct {
	Cart checkout.Cart
	// Saved is the checkout priced with its discount, after the buyer pressed Apply.
	Saved     *checkout.Checkout
	Countries []checkout.Country
	States    map[string][]checkout.State
	Tips      []int
}

func (s *Server) checkoutForm(w http.ResponseWriter, r *http.Request) {
	s.showCheckout(w, r, http.StatusOK, nil, map[string]string{"country": "US", "tip": "none"})
}

func (s *Server) showCheckout(w http.ResponseWriter, r *http.Request, status int, errs, form map[string]string) {
	s.showCheckoutSaved(w, r, status, errs, form, nil)
}

func (s *Server) showCheckoutSaved(w http.ResponseWriter, r *http.Request, status int, errs, form map[string]string, saved *checkout.Checkout) {
	rs := storeOf(r)
	ctx := r.Context()
	c, err := s.d.Checkout.Cart(ctx, rs.ID, s.cartID(r), money.Currency(rs.Currency))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if len(c.Lines) == 0 {
		http.Redirect(w, r, rs.Base+"/cart", http.StatusSeeOther)
		return
	}
	countries, err := checkout.Countries(ctx, s.d.DB)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	states, err := checkout.States(ctx, s.d.DB)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.show(w, r, status, cachePrivate, "checkout", view{Title: "Checkout — " + rs.Name, Errors: errs, Form: form,
		Data: checkoutData{Cart: c, Saved: saved, Countries: countries, States: states, Tips: pricing.Tips}})
}

// formOf fills the checkout form from a saved checkout.
func formOf(c checkout.Checkout) map[string]string {
	a := c.Address
	f := map[string]string{"email": c.Email, "name": a.Name, "line1": a.Line1, "line2": a.Line2, "city": a.City,
		"state": a.State, "state_" + a.Country: a.State, "postal_code": a.PostalCode, "country": a.Country, "phone": a.Phone,
		"tip": "none", "discount_code": c.DiscountCode}
	if c.Tip != nil {
		f["tip"] = strconv.Itoa(*c.Tip)
	}
	return f
}

var checkoutFields = []string{"email", "name", "line1", "line2", "city", "state", "postal_code", "country", "phone", "tip", "discount_code"}

func (s *Server) saveCheckout(w http.ResponseWriter, r *http.Request) {
	rs := storeOf(r)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "The form is too large.", http.StatusRequestEntityTooLarge)
		return
	}
	form := map[string]string{}
	for _, f := range checkoutFields {
		form[f] = r.PostFormValue(f)
	}
	// A US, Canadian or Australian address picks its state from a list; the form names it by country.
	state := form["state"]
	for _, c := range []string{"US", "CA", "AU"} {
		form["state_"+c] = r.PostFormValue("state_" + c)
		if strings.ToUpper(form["country"]) == c {
			state = form["state_"+c]
		}
	}
	in := checkout.Input{Email: form["email"], DiscountCode: form["discount_code"], Address: checkout.Address{
		Name: form["name"], Line1: form["line1"], Line2: form["line2"], City: form["city"], State: state,
		PostalCode: form["postal_code"], Country: form["country"], Phone: form["phone"]}, Device: deviceOf(r.UserAgent())}
	errs := map[string]string{}
	switch form["tip"] {
	case "", "none":
	default:
		p, err := strconv.Atoi(form["tip"])
		if err != nil {
			errs["tip_percent"] = "Choose no tip, or a tip of 0, 2, 5 or 10 %."
		}
		in.Tip = &p
	}
	var c checkout.Checkout
	var err error
	if len(errs) == 0 {
		c, err = s.d.Checkout.Save(r.Context(), rs.ID, s.cartID(r), in)
	}
	if fe := fieldErrors(err); fe != nil || len(errs) > 0 {
		for k, v := range fe {
			errs[k] = v
		}
		s.showCheckout(w, r, http.StatusUnprocessableEntity, errs, form)
		return
	}
	switch {
	case errors.Is(err, checkout.ErrEmptyCart):
		http.Redirect(w, r, rs.Base+"/cart?m="+urlQueryEscape("Your cart is empty."), http.StatusSeeOther)
		return
	case errors.Is(err, checkout.ErrClosed):
		s.notFound(w, r, "This store is closed at the moment.")
		return
	case err != nil:
		s.fail(w, r, err)
		return
	}
	if r.PostFormValue("apply") != "" { // Apply: the same form again, with the discount and the new total
		s.showCheckoutSaved(w, r, http.StatusOK, nil, form, &c)
		return
	}
	http.Redirect(w, r, rs.Base+"/checkout/"+c.ID, http.StatusSeeOther)
}

func (s *Server) review(w http.ResponseWriter, r *http.Request) {
	rs := storeOf(r)
	c, err := s.d.Checkout.Get(r.Context(), rs.ID, r.PathValue("id"))
	if errors.Is(err, checkout.ErrNotFound) {
		s.notFound(w, r, "This checkout does not exist.")
		return
	} else if err != nil {
		s.fail(w, r, err)
		return
	}
	if c.OrderID != 0 {
		http.Redirect(w, r, rs.Base+s.OrderPath(rs.ID, c.OrderID), http.StatusSeeOther)
		return
	}
	pay, err := s.stripePayment(w, r, c)
	if fe := fieldErrors(err); fe != nil {
		s.showCheckout(w, r, http.StatusUnprocessableEntity, fe, formOf(c))
		return
	} else if err != nil {
		s.fail(w, r, err)
		return
	}
	s.show(w, r, http.StatusOK, cachePrivate, "review", view{Title: "Review and pay — " + rs.Name, Data: c, Pay: pay, Message: r.URL.Query().Get("m")})
}

func (s *Server) pay(w http.ResponseWriter, r *http.Request) {
	rs := storeOf(r)
	id := r.PathValue("id")
	// Stripe's return names the intent the browser confirmed: it is read through the gateway that
	// made it, even when the store pays through another one by now.
	intent := ""
	if r.Method == http.MethodGet {
		intent = r.URL.Query().Get("payment_intent")
	}
	res, err := s.d.Checkout.Return(r.Context(), rs.ID, id, intent)
	if fe := fieldErrors(err); fe != nil {
		// The discount code was used up (or ended) since the checkout was saved: nothing was charged.
		c, gerr := s.d.Checkout.Get(r.Context(), rs.ID, id)
		if gerr != nil {
			s.fail(w, r, gerr)
			return
		}
		s.showCheckout(w, r, http.StatusUnprocessableEntity, fe, formOf(c))
		return
	}
	switch {
	case errors.Is(err, checkout.ErrNotFound):
		s.notFound(w, r, "This checkout does not exist.")
		return
	case errors.Is(err, checkout.ErrPaymentFailed):
		http.Redirect(w, r, rs.Base+"/checkout/"+id+"?m="+urlQueryEscape(strings.TrimPrefix(err.Error(), checkout.ErrPaymentFailed.Error()+": ")), http.StatusSeeOther)
		return
	case errors.Is(err, payments.ErrNoGateway):
		http.Redirect(w, r, rs.Base+"/checkout/"+id+"?m="+urlQueryEscape("This store cannot take payments yet."), http.StatusSeeOther)
		return
	case err != nil:
		s.fail(w, r, err)
		return
	}
	s.confirm(r.Context(), res)
	// The cart became an order: the buyer starts a new one.
	http.SetCookie(w, &http.Cookie{Name: cartCookie, Value: "", Path: rs.Base + "/", MaxAge: -1})
	http.Redirect(w, r, rs.Base+s.OrderPath(rs.ID, res.OrderID)+"?new=1", http.StatusSeeOther)
}

// orderData is the order status page.
type orderData struct {
	Order OrderView
	New   bool
}

func (s *Server) order(w http.ResponseWriter, r *http.Request) {
	rs := storeOf(r)
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || !s.validOrderToken(rs.ID, id, r.PathValue("token")) {
		s.notFound(w, r, "This order link is not valid. Use the link from your confirmation e-mail.")
		return
	}
	o, err := s.store.order(r.Context(), rs.ID, id)
	if errors.Is(err, errNotFound) {
		s.notFound(w, r, "This order link is not valid.")
		return
	} else if err != nil {
		s.fail(w, r, err)
		return
	}
	title := "Order " + o.Number
	w.Header().Set("X-Robots-Tag", "noindex")
	s.show(w, r, http.StatusOK, cachePrivate, "order", view{Title: title + " — " + rs.Name,
		Data: orderData{Order: o, New: r.URL.Query().Get("new") == "1"}})
}

// The JSON API of the cart and the checkout: the same service as the pages, in the platform's
// envelope {success, message, data, errors}.

type envelope struct {
	Success bool                  `json:"success"`
	Message string                `json:"message"`
	Data    any                   `json:"data"`
	Errors  []checkout.FieldError `json:"errors"`
}

func writeJSON(w http.ResponseWriter, status int, e envelope) {
	if e.Errors == nil {
		e.Errors = []checkout.FieldError{}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", cachePrivate)
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(e)
}

func (s *Server) apiError(w http.ResponseWriter, r *http.Request, err error) {
	var inv *checkout.InvalidError
	switch {
	case errors.As(err, &inv):
		writeJSON(w, http.StatusUnprocessableEntity, envelope{Message: inv.Errors[0].Message, Errors: inv.Errors})
	case errors.Is(err, checkout.ErrNotFound):
		writeJSON(w, http.StatusNotFound, envelope{Message: "Not found."})
	case errors.Is(err, checkout.ErrEmptyCart):
		writeJSON(w, http.StatusUnprocessableEntity, envelope{Message: "Your cart is empty."})
	case errors.Is(err, checkout.ErrClosed):
		writeJSON(w, http.StatusConflict, envelope{Message: "This store is closed at the moment."})
	case errors.Is(err, checkout.ErrPaymentFailed):
		writeJSON(w, http.StatusPaymentRequired, envelope{Message: err.Error()})
	default:
		s.d.Log.Error("storefront api", "path", r.URL.Path, "err", err)
		writeJSON(w, http.StatusInternalServerError, envelope{Message: "Something went wrong on our side. Please try again."})
	}
}

func decodeJSON(w http.ResponseWriter, r *http.Request, dst any) bool {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		writeJSON(w, http.StatusBadRequest, envelope{Message: "The body must be JSON with known fields only: " + err.Error()})
		return false
	}
	return true
}

func (s *Server) apiCart(w http.ResponseWriter, r *http.Request) {
	rs := storeOf(r)
	c, err := s.d.Checkout.Cart(r.Context(), rs.ID, s.cartID(r), money.Currency(rs.Currency))
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, envelope{Success: true, Data: c})
}

func (s *Server) apiAddToCart(w http.ResponseWriter, r *http.Request) {
	rs := storeOf(r)
	var it checkout.AddItem
	if !decodeJSON(w, r, &it) {
		return
	}
	id, err := s.d.Checkout.AddToCart(r.Context(), rs.ID, s.cartID(r), it)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	s.setCart(w, r, id)
	c, err := s.d.Checkout.Cart(r.Context(), rs.ID, id, money.Currency(rs.Currency))
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, envelope{Success: true, Data: c})
}

func (s *Server) apiSaveCheckout(w http.ResponseWriter, r *http.Request) {
	rs := storeOf(r)
	var in checkout.Input
	if !decodeJSON(w, r, &in) {
		return
	}
	in.Device = deviceOf(r.UserAgent())
	c, err := s.d.Checkout.Save(r.Context(), rs.ID, s.cartID(r), in)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, envelope{Success: true, Data: c})
}

func (s *Server) apiPay(w http.ResponseWriter, r *http.Request) {
	rs := storeOf(r)
	res, err := s.d.Checkout.Pay(r.Context(), rs.ID, r.PathValue("id"))
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	s.confirm(r.Context(), res)
	writeJSON(w, http.StatusOK, envelope{Success: true, Data: map[string]any{"order_id": res.OrderID, "number": res.Number,
		"status_url": rs.Origin + s.OrderPath(rs.ID, res.OrderID)}})
}

// recover answers the signed link of an abandoned-checkout e-mail: the buyer's cart comes back (in
// the cookie) and the checkout form opens; a checkout paid meanwhile shows its order instead.
func (s *Server) recover(w http.ResponseWriter, r *http.Request) {
	rs := storeOf(r)
	id := r.PathValue("id")
	if !recovery.Valid(s.cfg.SigningKey, rs.ID, id, r.PathValue("token")) {
		s.notFound(w, r, "This link is not valid.")
		return
	}
	res, err := recovery.Restore(r.Context(), s.d.DB, rs.ID, id)
	switch {
	case errors.Is(err, recovery.ErrNotFound):
		s.notFound(w, r, "This checkout does not exist.")
		return
	case err != nil:
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", cachePrivate)
	if res.OrderID != 0 {
		http.Redirect(w, r, rs.Base+s.OrderPath(rs.ID, res.OrderID), http.StatusSeeOther)
		return
	}
	s.setCart(w, r, res.CartID)
	http.Redirect(w, r, rs.Base+"/checkout", http.StatusSeeOther)
}
