// Package team is the seller's team (spec §2.3 /team, /team/invitations): members with named
// permissions, invitations by e-mail accepted by the invited address's account, and removal.
// Switching into a team's account is bff/auth's; what the permissions allow is bff/access's.
package team
