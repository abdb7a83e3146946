package main

import (
	nethttp "net/http"
	"net/url"
	"strings"
	"testing"
)

// TestDemoSubscriptions: the demo project make run prints sends
// productUpdated over Server-Sent Events with its share token, as the
// printed curl asks, when a row changes.
func TestDemoSubscriptions(t *testing.T) {
	s, demo, _ := guestAndAccount(t)
	rt := s.base + "/mock/" + demo.Slug + "/graphql?token=" + demo.ShareToken
	req, _ := nethttp.NewRequest("GET", rt+"&query="+url.QueryEscape(`subscription { productUpdated { id name price } }`), nil)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := nethttp.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("subscribe: %d %s", resp.StatusCode, readAll(resp))
	}
	l := firstSSEData(t, resp.Body, func(int) {
		if r := postJSON(t, rt, `{"query":"mutation { updateProduct(id: \"1\", input: {price: 9.99}) { id price } }"}`); !strings.Contains(r, `"price":9.99`) {
			t.Fatalf("updateProduct: %s", r)
		}
	})
	if !strings.Contains(l, `"productUpdated":{"id":"1"`) || !strings.Contains(l, `"price":9.99`) {
		t.Fatalf("event %s", l)
	}
}

// postJSON posts body to u and returns the answer's body.
func postJSON(t *testing.T, u, body string) string {
	t.Helper()
	resp, err := nethttp.Post(u, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	return readAll(resp)
}
