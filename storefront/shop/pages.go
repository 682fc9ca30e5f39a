package shop

import (
	"embed"
	"fmt"
	"html/template"
	"io"
	"net/url"
	"strings"

	"github.com/microcosm-cc/bluemonday"

	"github.com/pressroom/pressroom/commerce/money"
)

// pageBody keeps the safe HTML of a store page's body: the bff sanitizes it on save, and the page
// sanitizes it again, so a row written by any other path still cannot carry a script.
var pageBody = bluemonday.UGCPolicy()

//go:embed templates/*.html
var templateFS embed.FS

// pages holds one parsed template set per page, each with the shared layout.
type pages struct{ sets map[string]*template.Template }

var funcs = template.FuncMap{
	// price formats minor units of a currency for display.
	"price": func(amount int64, currency string) string {
		return money.Money{Amount: amount, Currency: money.Currency(currency)}.String()
	},
	// label turns a status code into words ("pending_payment" -> "Pending payment").
	"body": func(html string) template.HTML { return template.HTML(pageBody.Sanitize(html)) },
	"label": func(code string) string {
		s := strings.ReplaceAll(code, "_", " ")
		if s == "" {
			return s
		}
		return strings.ToUpper(s[:1]) + s[1:]
	},
}

func parsePages() (*pages, error) {
	names := []string{"home", "campaign", "collection", "page", "cart", "checkout", "review", "order", "notfound"}
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
