// Command testdns is the DNS server of the browser tests: testinfra's DNS server on a fixed
// address, whose TXT records the tests set over HTTP. scripts/test starts it beside the e2e stack
// and points PRESSROOM_DNS_RESOLVER at it. It is a test tool: nothing in production runs it.
//
//	testdns -dns 127.0.0.1:5353 -control 127.0.0.1:5354
//	PUT    /txt/{name}  body: the record's value (one TXT record; replaces the name's records)
//	DELETE /txt/{name}  removes the name's records
//	GET    /healthz     answers ok once both listen
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	dnsAddr := flag.String("dns", "127.0.0.1:0", "UDP address to answer DNS queries on")
	control := flag.String("control", "127.0.0.1:0", "HTTP address the tests set records on")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *dnsAddr, *control); err != nil {
		fmt.Fprintln(os.Stderr, "testdns:", err)
		os.Exit(1)
	}
}
