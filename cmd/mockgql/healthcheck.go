package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	stdhttp "net/http"
	"os"
	"time"
)

// DefaultHealthcheckTimeout is how long `mockgql healthcheck` waits for
// /readyz: well under the image's HEALTHCHECK interval.
const DefaultHealthcheckTimeout = 3 * time.Second

// healthcheckCmd is `mockgql healthcheck`: GET a node's /readyz (or --url)
// and exit 0 on 200, 1 otherwise. It is the image's HEALTHCHECK: a scratch
// image has no shell and no curl. Without --url it asks the node of this
// container: MGQ_HTTP's port (the image sets 0.0.0.0:8080) on loopback.
func healthcheckCmd(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("healthcheck", flag.ContinueOnError)
	url := fs.String("url", "", "the URL to GET (default: http://127.0.0.1:PORT/readyz, PORT from MGQ_HTTP or 8080)")
	timeout := fs.Duration("timeout", DefaultHealthcheckTimeout, "give up after this long")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *url == "" {
		*url = localReadyz(os.Getenv("MGQ_HTTP"))
	}
	client := &stdhttp.Client{Timeout: *timeout}
	resp, err := client.Get(*url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10)) // /readyz answers a few bytes
	if resp.StatusCode != stdhttp.StatusOK {
		return fmt.Errorf("%s answered %s: %s", *url, resp.Status, body)
	}
	fmt.Fprintf(stdout, "%s\n", body)
	return nil
}

// localReadyz is the /readyz URL of the node serving on addr (--http) as
// seen from its own host: a wildcard or empty host is loopback.
func localReadyz(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" {
		host, port = "", "8080"
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/readyz"
}
