package webhooks

import (
	"errors"
	"net/netip"
	"strings"
	"time"

	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/netguard"
)

// Config is what both the bff (checking addresses as sellers save them) and the worker (sending)
// need to agree on.
type Config struct {
	// Allow are address ranges endpoints may point at although they are not public
	// (PRESSROOM_WEBHOOK_ALLOW, comma-separated CIDR prefixes or addresses; default none). Refused
	// in production: it exists so that tests reach receivers on loopback.
	Allow []netip.Prefix
	// SlackBase, DiscordBase and TeamsBase are the prefixes a Slack, Discord or Teams endpoint's
	// address must start with (PRESSROOM_WEBHOOK_SLACK_BASE, default https://hooks.slack.com/;
	// PRESSROOM_WEBHOOK_DISCORD_BASE, default https://discord.com/api/webhooks/;
	// PRESSROOM_WEBHOOK_TEAMS_BASE, default empty: any address, as Teams hands out addresses on
	// several hosts).
	SlackBase, DiscordBase, TeamsBase string
	// TelegramBase is the Bot API's address (PRESSROOM_WEBHOOK_TELEGRAM_BASE, default
	// https://api.telegram.org); messages go to {TelegramBase}/bot{token}/sendMessage.
	TelegramBase string
	// RetryFor is how long a delivery is tried again after its event (PRESSROOM_WEBHOOK_RETRY_FOR,
	// default 24h), and how long an endpoint may fail without a success before it is disabled.
	RetryFor   time.Duration
	production bool
}

// DefaultConfig is the configuration of a local stack.
func DefaultConfig() Config {
	return Config{SlackBase: "https://hooks.slack.com/", DiscordBase: "https://discord.com/api/webhooks/",
		TelegramBase: "https://api.telegram.org", RetryFor: 24 * time.Hour}
}

// LoadConfig reads the variables over the defaults.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := DefaultConfig()
	var allow, mode string
	r := env.NewReader(lookup)
	r.String(&mode, "PRESSROOM_ENV")
	r.String(&allow, "PRESSROOM_WEBHOOK_ALLOW")
	r.String(&cfg.SlackBase, "PRESSROOM_WEBHOOK_SLACK_BASE")
	r.String(&cfg.DiscordBase, "PRESSROOM_WEBHOOK_DISCORD_BASE")
	r.String(&cfg.TeamsBase, "PRESSROOM_WEBHOOK_TEAMS_BASE")
	r.String(&cfg.TelegramBase, "PRESSROOM_WEBHOOK_TELEGRAM_BASE")
	r.Duration(&cfg.RetryFor, "PRESSROOM_WEBHOOK_RETRY_FOR")
	if err := r.Err(); err != nil {
		return cfg, err
	}
	cfg.production = mode == "production"
	cfg.TelegramBase = strings.TrimRight(cfg.TelegramBase, "/")
	var err error
	cfg.Allow, err = netguard.ParseAllow("PRESSROOM_WEBHOOK_ALLOW", allow)
	return cfg, err
}

// Validate names the variable to fix.
func (c Config) Validate() error {
	switch {
	case c.production && len(c.Allow) > 0:
		return errors.New("PRESSROOM_WEBHOOK_ALLOW must be empty in production: webhooks reach public addresses only")
	case c.RetryFor < time.Minute:
		return errors.New("PRESSROOM_WEBHOOK_RETRY_FOR: want at least 1m, e.g. 24h")
	case c.TelegramBase == "":
		return errors.New("PRESSROOM_WEBHOOK_TELEGRAM_BASE: want the Bot API's address, e.g. https://api.telegram.org")
	}
	return nil
}

// Policy is where deliveries may connect: public addresses on any port, and Allow.
func (c Config) Policy() netguard.Policy {
	return netguard.Policy{Allow: c.Allow, AnyPort: true}
}
