// Package stock is which colours and sizes of the catalogue's product templates can be made now.
// An admin marks a template's colour and size out of stock (or back in stock) for the whole
// platform, and every change is kept with who made it. Unavailable is the one rule the storefront
// and the checkout read: a campaign product's colour and size cannot be sold while its template's
// colour and size is out of stock. It serves no HTTP; the bff's stock screens call it. See
// docs/stock.md.
package stock
