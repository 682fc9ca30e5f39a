// Package netguard is the one address policy of every outbound request whose address a user
// chose: the image proxy's fetches (bff/imageproxy) and the webhook deliveries (worker/webhooks).
//
// ParseURL checks an address's form: absolute http or https, a host, no user information, no host
// in a legacy numeric IPv4 form (2130706433, 0x7f.0.0.1, 0177.0.0.1). CheckIP refuses loopback,
// private, link-local (cloud metadata included), CGNAT, unspecified, multicast, broadcast,
// documentation and reserved ranges, and IPv6 forms carrying such IPv4 addresses (mapped,
// compatible, NAT64, 6to4). A Policy adds the operator's exceptions (Allow) and the port rule, and
// its Control hook is the decisive check: it runs in the dialer on the IP actually dialled, after
// name resolution, for every connection a transport opens, so a name that resolves somewhere else
// at delivery time than when it was saved is still refused.
package netguard
