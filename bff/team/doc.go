// Package team is the seller's team (/team, /team/invitations; docs/team-and-access.md): members with named
// permissions, invitations by e-mail accepted by the invited address's account, and removal.
// Switching into a team's account is bff/auth's; what the permissions allow is bff/access's.
package team
