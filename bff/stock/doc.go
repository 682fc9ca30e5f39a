// Package stock serves the stock status screen: every colour and size of the catalogue's templates
// with its status for sellers and admins, the seller's campaigns that sell something out of stock,
// and, for admins only, the bulk change and its history. The rule and the changes themselves are
// commerce/stock's. See docs/stock.md.
package stock
