package shop

import (
	"embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"net/url"
	"strings"

	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/platform/richtext"
)

//go:embed templates/*.html
var templateFS embed.FS

// pages holds one parsed template set per page, each with the shared layout.
type pages struct{ sets map[string]*template.Template }

var funcs = template.FuncMap{
	// price formats minor units of a currency for display.
	"price": func(amount int64, currency string) string {
		return money.Money{Amount: amount, Currency: money.Currency(currency)}.String()
	},
	// body is a page's or a post's rich text: the bff sanitized it on save, and it is sanitized
	// again here, so a row written by any other path still cannot carry a script.
	"body": func(html string) template.HTML { return template.HTML(richtext.Sanitize(html)) },
	// coverPath is the address of a post's cover under the store's base.
	"coverPath": coverPath,
	"inc":       func(n int) int { return n + 1 },
	"dec":       func(n int) int { return n - 1 },
	// stars draws a rating of 1 to 5 as five stars, "★★★★☆".
	"stars":  func(n int) string { return strings.Repeat("★", n) + strings.Repeat("☆", 5-n) },
	"stars5": func() []int { return []int{5, 4, 3, 2, 1} },
	// cards is what the "cards" template draws: campaigns on sale of a store, as the home page does.
	"cards": func(list []Listing, s *reqStore) cardsData {
		return cardsData{List: list, Base: s.Base, Currency: s.Currency}
	},
	// roundStars is an average rating as whole stars.
	"roundStars": func(avg float64) int { return min(5, max(0, int(math.Round(avg)))) },
	// ratingWord says what a rating means.
	"ratingWord": func(n int) string { return ratingWords[n] },
	// label turns a status code into words ("pending_payment" -> "Pending payment").
	"label": func(code string) string {
		s := strings.ReplaceAll(code, "_", " ")
		if s == "" {
			return s
		}
		return strings.ToUpper(s[:1]) + s[1:]
	},
}

// cardsData is a grid of campaigns on sale, linking under Base, priced in Currency.
type cardsData struct {
	List     []Listing
	Base     string
	Currency string
}

// ratingWords say what each rating means, on the review form.
var ratingWords = map[int]string{5: "Love it", 4: "Like it", 3: "It is fine", 2: "Not great", 1: "Disappointed"}

func parsePages() (*pages, error) {
	names := []string{"home", "campaign", "collection", "page", "blog", "post", "cart", "checkout", "review", "order", "notfound", "write-review", "search"}
	p := &pages{sets: map[string]*template.Template{}}
	for _, n := range names {
		t, err := template.New("layout.html").Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/"+n+".html")
		if err != nil {
			return nil, fmt.Errorf("parse page %s: %w", n, err)
		}
		p.sets[n] = t
	}
	return p, nil
}

func (p *pages) render(w io.Writer, name string, v view) error {
	return p.sets[name].Execute(w, v)
}

func urlQueryEscape(s string) string { return url.QueryEscape(s) }
