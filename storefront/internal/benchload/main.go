// Command benchload is scripts/bench's storefront section. With -serve ADDR it fetches the page once
// and serves the same bytes and headers from a bare net/http handler on ADDR, in a process of its own
// like the storefront's. Otherwise it loads the page and the bare handler (-bare) with the same number
// of concurrent connections, round after round, printing requests per second, the 99th percentile
// latency and their ratio.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"sync"
	"time"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "benchload:", err)
		os.Exit(1)
	}
}

type result struct {
	requests int
	errors   int
	elapsed  time.Duration
	lat      []time.Duration
}

func (r result) rps() float64 { return float64(r.requests) / r.elapsed.Seconds() }

func (r result) p(q float64) time.Duration {
	if len(r.lat) == 0 {
		return 0
	}
	slices.Sort(r.lat)
	return r.lat[min(len(r.lat)-1, int(float64(len(r.lat))*q))]
}

func run() error {
	target := flag.String("url", "", "the page to load")
	conns := flag.Int("c", 100, "concurrent connections")
	dur := flag.Duration("d", 10*time.Second, "length of one round against one server")
	rounds := flag.Int("rounds", 2, "rounds, alternating the page and the bare handler")
	serve := flag.String("serve", "", "serve the page's bytes on this address instead of loading")
	bareURL := flag.String("bare", "", "the bare handler's URL (a benchload -serve)")
	flag.Parse()
	if *target == "" {
		return errors.New("-url is required")
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *conns, MaxConnsPerHost: *conns, DisableCompression: true}}
	res, err := client.Get(*target)
	if err != nil {
		return err
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %d %v", *target, res.StatusCode, err)
	}
	if *serve != "" {
		// The bare handler answers the same bytes with the same headers.
		header := res.Header.Clone()
		header.Del("Date")
		ln, err := net.Listen("tcp", *serve)
		if err != nil {
			return err
		}
		return http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			for k, v := range header {
				w.Header()[k] = v
			}
			w.Write(body)
		}))
	}
	if *bareURL == "" {
		return errors.New("-bare is required (the address of a benchload -serve)")
	}
	if err := same(client, *bareURL, body); err != nil {
		return err
	}
	load(client, *target, *conns, time.Second) // warm-up: connections, caches
	load(client, *bareURL, *conns, time.Second)
	var page, plain result
	for range *rounds {
		page = merge(page, load(client, *target, *conns, *dur))
		plain = merge(plain, load(client, *bareURL, *conns, *dur))
	}
	fmt.Printf("  %-28s %d bytes, %d connections, %d rounds of %v each\n", "page", len(body), *conns, *rounds, *dur)
	for _, r := range []struct {
		name string
		r    result
	}{{"storefront product page", page}, {"bare net/http, same bytes", plain}} {
		fmt.Printf("  %-28s %8.0f req/s   p50 %6.2f ms   p99 %6.2f ms   errors %d\n", r.name, r.r.rps(),
			ms(r.r.p(0.50)), ms(r.r.p(0.99)), r.r.errors)
	}
	fmt.Printf("  %-28s %.2fx (target >= 0.3x); p99 %.2f ms (target <= 25 ms)\n", "page / bare", page.rps()/plain.rps(), ms(page.p(0.99)))
	return nil
}

// same checks that url answers body.
func same(client *http.Client, url string, body []byte) error {
	res, err := client.Get(url)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	got, err := io.ReadAll(res.Body)
	if err != nil || !bytes.Equal(got, body) {
		return fmt.Errorf("the bare handler at %s does not answer the page's bytes (%v)", url, err)
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func merge(a, b result) result {
	return result{requests: a.requests + b.requests, errors: a.errors + b.errors, elapsed: a.elapsed + b.elapsed, lat: append(a.lat, b.lat...)}
}

// load keeps conns requests to url in flight for d and answers what came back.
func load(client *http.Client, url string, conns int, d time.Duration) result {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var mu sync.Mutex
	var out result
	var wg sync.WaitGroup
	start := time.Now()
	for range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var lat []time.Duration
			n, bad := 0, 0
			for ctx.Err() == nil {
				t0 := time.Now()
				res, err := client.Get(url)
				if err == nil {
					_, err = io.Copy(io.Discard, res.Body)
					res.Body.Close()
					if res.StatusCode != http.StatusOK {
						err = errors.New(res.Status)
					}
				}
				if err != nil {
					bad++
					continue
				}
				n++
				lat = append(lat, time.Since(t0))
			}
			mu.Lock()
			out.requests += n
			out.errors += bad
			out.lat = append(out.lat, lat...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	out.elapsed = time.Since(start)
	return out
}
