package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"
)

// result is one load run: requests answered, wall time and latencies.
type result struct {
	n       int
	errors  int
	elapsed time.Duration
	lat     []time.Duration
}

func (r result) rps() float64 { return float64(r.n) / r.elapsed.Seconds() }

func (r result) pct(p float64) time.Duration {
	if len(r.lat) == 0 {
		return 0
	}
	i := int(float64(len(r.lat)-1) * p)
	return r.lat[i]
}

// load sends the same HTTP/1.1 request over conns keep-alive connections for
// d and measures every answer. It is a deliberately lean client (raw TCP,
// the request bytes built once, only Content-Length responses), so that
// on one core it is not the bottleneck of a fast server.
func load(addr string, req []byte, conns int, d time.Duration, wantStatus int) (result, error) {
	return loadSpread([]string{addr}, [][]byte{req}, conns, d, wantStatus)
}

// loadSpread is load with the connections spread over several servers:
// connection i goes to addrs[i%len(addrs)] with reqs[i%len(addrs)].
func loadSpread(addrs []string, reqs [][]byte, conns int, d time.Duration, wantStatus int) (result, error) {
	total, err := onConns(conns, d, func(i int, deadline time.Time) (result, error) {
		return worker(addrs[i%len(addrs)], reqs[i%len(addrs)], deadline, wantStatus)
	})
	slices.Sort(total.lat)
	return total, err
}

// onConns runs work for each of conns connections (0..conns-1) until d
// has passed and merges their results; the first error is returned.
func onConns(conns int, d time.Duration, work func(i int, deadline time.Time) (result, error)) (result, error) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := result{}
	start := time.Now()
	deadline := start.Add(d)
	var firstErr error
	for i := 0; i < conns; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := work(i, deadline)
			mu.Lock()
			defer mu.Unlock()
			total = total.merge(r)
			if err != nil && firstErr == nil {
				firstErr = err
			}
		}()
	}
	wg.Wait()
	total.elapsed = time.Since(start)
	return total, firstErr
}

func worker(addr string, req []byte, deadline time.Time, wantStatus int) (result, error) {
	return cycleWorker(addr, [][]byte{req}, 0, deadline, wantStatus)
}

// cycleWorker sends reqs in turn from index next over one keep-alive
// connection until deadline and measures every answer.
func cycleWorker(addr string, reqs [][]byte, next int, deadline time.Time, wantStatus int) (result, error) {
	var r result
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return r, err
	}
	defer c.Close()
	br := bufio.NewReaderSize(c, 64<<10)
	r.lat = make([]time.Duration, 0, 1<<14)
	for time.Now().Before(deadline) {
		t0 := time.Now()
		if _, err := c.Write(reqs[next%len(reqs)]); err != nil {
			return r, err
		}
		next++
		status, err := readResponse(br)
		if err != nil {
			return r, err
		}
		r.lat = append(r.lat, time.Since(t0))
		r.n++
		if status != wantStatus {
			r.errors++
		}
	}
	return r, nil
}

// readResponse reads one response with a Content-Length body (or a 204
// without one) and returns its status.
func readResponse(br *bufio.Reader) (int, error) {
	line, err := br.ReadSlice('\n')
	if err != nil {
		return 0, err
	}
	if len(line) < 12 {
		return 0, fmt.Errorf("bad status line %q", line)
	}
	status, _ := strconv.Atoi(string(line[9:12]))
	length := -1
	for {
		h, err := br.ReadSlice('\n')
		if err != nil {
			return 0, err
		}
		if len(h) <= 2 {
			break
		}
		if len(h) > 16 && bytes.EqualFold(h[:15], []byte("Content-Length:")) {
			length, _ = strconv.Atoi(string(bytes.TrimSpace(h[15:])))
		}
	}
	if length < 0 && status == 204 { // No Content (a preflight): no body
		return status, nil
	}
	if length < 0 {
		return 0, fmt.Errorf("response without Content-Length")
	}
	_, err = io.CopyN(io.Discard, br, int64(length))
	return status, err
}

// httpRequest builds a POST with a JSON body and headers (name, value pairs).
func httpRequest(host, path string, body []byte, headers ...string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n", path, host, len(body))
	for i := 0; i+1 < len(headers); i += 2 {
		fmt.Fprintf(&b, "%s: %s\r\n", headers[i], headers[i+1])
	}
	b.WriteString("\r\n")
	b.Write(body)
	return b.Bytes()
}

// rawOnce sends one request and returns the response body.
func rawOnce(addr string, req []byte) (string, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return "", err
	}
	defer c.Close()
	if _, err := c.Write(req); err != nil {
		return "", err
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

// rounds is how many alternating slices a side-by-side measurement takes.
const rounds = 4

// sideBySide measures a and b in alternating slices of d/rounds each (a,
// b, a, b, ...), so that the machine's drift during the measurement (other
// processes, CPU frequency) falls on both sides alike, and returns each
// side's merged result.
func sideBySide(d time.Duration, a, b func(time.Duration) (result, error)) (ra, rb result, err error) {
	for range rounds {
		x, err := a(d / rounds)
		if err != nil {
			return ra, rb, err
		}
		y, err := b(d / rounds)
		if err != nil {
			return ra, rb, err
		}
		ra, rb = ra.merge(x), rb.merge(y)
	}
	slices.Sort(ra.lat)
	slices.Sort(rb.lat)
	return ra, rb, nil
}

// merge adds the requests and time of o to r (latencies unsorted).
func (r result) merge(o result) result {
	r.n += o.n
	r.errors += o.errors
	r.elapsed += o.elapsed
	r.lat = append(r.lat, o.lat...)
	return r
}

// loader returns a function that runs load with these arguments for a
// given time.
func loader(addr string, req []byte, conns, wantStatus int) func(time.Duration) (result, error) {
	return func(d time.Duration) (result, error) { return load(addr, req, conns, d, wantStatus) }
}
