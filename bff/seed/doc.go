// Package seed writes the demo data of the development set-up: the four demo accounts (password
// DemoPassword), the seller's store and the team member's permissions in it. Running it again
// changes nothing, and it refuses to run in production.
package seed
