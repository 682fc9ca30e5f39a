// Package orders is the seller's orders area. So far it holds the list call with its permission
// declaration (get_orders), which the access rules and the route-table test rely on; the orders
// issue fills in the data.
package orders
