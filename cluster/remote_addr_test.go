package cluster

import (
	"strings"
	"testing"
)

func TestRemoteAddr(t *testing.T) {
	for _, c := range []struct {
		name, addr                 string
		host, advertise, errorLike string
		port                       int
	}{
		{name: "default", addr: "", host: "10.0.0.5", port: 0},
		{name: "pinned", addr: "10.0.0.5:7947", host: "10.0.0.5", port: 7947},
		{name: "empty host", addr: ":7947", host: "", port: 7947, advertise: "10.0.0.5:7947"},
		{name: "wildcard", addr: "0.0.0.0:7947", host: "0.0.0.0", port: 7947, advertise: "10.0.0.5:7947"},
		{name: "wildcard, free port", addr: "0.0.0.0:0", errorLike: "fixed port"},
		{name: "no port", addr: "10.0.0.5", errorLike: "missing port"},
		{name: "bad port", addr: "10.0.0.5:99999", errorLike: "bad port"},
	} {
		t.Run(c.name, func(t *testing.T) {
			host, port, adv, err := remoteAddr(c.addr, "10.0.0.5")
			if c.errorLike != "" {
				if err == nil || !strings.Contains(err.Error(), c.errorLike) {
					t.Fatalf("err %v, want one saying %q", err, c.errorLike)
				}
				return
			}
			if err != nil || host != c.host || port != c.port || adv != c.advertise {
				t.Fatalf("got %q %d %q %v, want %q %d %q", host, port, adv, err, c.host, c.port, c.advertise)
			}
		})
	}
}
