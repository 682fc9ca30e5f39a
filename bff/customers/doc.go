// Package customers is the seller's customers area: the buyers of the account's orders, one per
// e-mail, with their orders count, what they spent and their last order; searched, sorted, paged and
// exported as CSV; and a customer's page with their orders. Customers are derived from orders (the
// customers table only gives each a stable id). Behaviour is described in docs/customers.md.
package customers
