package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"
)

// sessionFlow times what an assistant does, from createSessionProject to
// the first runtime answer for a 3-table model (tables, attributes, two
// relations, default operations, views, one query), over plain HTTP with
// its session cookie, five times; it reports the median and the calls made.
func sessionFlow(m *mockgql, rep *report) error {
	var times []time.Duration
	calls := 0
	for i := 0; i < 5; i++ {
		t0 := time.Now()
		n, err := oneSession(m)
		if err != nil {
			return err
		}
		times = append(times, time.Since(t0))
		calls = n
	}
	slices.Sort(times)
	med := times[len(times)/2]
	rep.note("assistant flow, createSessionProject to the first runtime answer (3 tables, 18 attributes, 2 relations): %v median over 5, %d HTTP calls, %.2f ms a call",
		med.Round(100*time.Microsecond), calls, float64(med.Microseconds())/1000/float64(calls))
	return nil
}

// oneSession plays the flow once and returns the number of HTTP calls.
func oneSession(m *mockgql) (int, error) {
	c := &sessionClient{base: "http://" + m.addr}
	sp, err := c.gql(`mutation { createSessionProject(name: "Bench") { projectId runtimeUrl } }`, nil)
	if err != nil {
		return 0, err
	}
	pid := sp["createSessionProject"].(map[string]any)["projectId"]
	tables := map[string]string{}
	for _, name := range []string{"Item", "Group", "Note"} {
		d, err := c.gql(`mutation($p:ID!,$n:String!){ createModellingTable(input:{projectId:$p, name:$n, source:{importCode:"small"}}) { id } }`, map[string]any{"p": pid, "n": name})
		if err != nil {
			return 0, err
		}
		tid := d["createModellingTable"].(map[string]any)["id"].(string)
		tables[name] = tid
		for _, a := range [][2]string{{"id", "ID"}, {"name", "STRING"}, {"price", "FLOAT"}, {"category", "STRING"}, {"inStock", "BOOLEAN"}, {"sku", "STRING"}} {
			if _, err := c.gql(`mutation($t:ID!,$n:String!,$ty:ScalarType!){ createModellingAttribute(input:{tableId:$t, name:$n, type:$ty, mappingType: SOURCE, sourceMapping:{path:$n}}) { id } }`,
				map[string]any{"t": tid, "n": a[0], "ty": a[1]}); err != nil {
				return 0, err
			}
		}
	}
	for _, r := range [][3]string{{"Group", "Item", "items"}, {"Item", "Note", "notes"}} {
		if _, err := c.gql(`mutation($s:ID!,$t:ID!,$f:String!){ createRelation(input:{sourceTableId:$s, targetTableId:$t, cardinality: ONE_TO_MANY, sourceAttribute:"id", targetAttribute:"id", fieldName:$f}) { id } }`,
			map[string]any{"s": tables[r[0]], "t": tables[r[1]], "f": r[2]}); err != nil {
			return 0, err
		}
	}
	for _, q := range []string{`mutation($p:ID!){ generateDefaultGqlOperations(projectId:$p) { id } }`, `mutation($p:ID!){ generateMissingViews(projectId:$p) { id } }`} {
		if _, err := c.gql(q, map[string]any{"p": pid}); err != nil {
			return 0, err
		}
	}
	url := sp["createSessionProject"].(map[string]any)["runtimeUrl"].(string)
	resp, err := http.Post(url, "application/json", strings.NewReader(`{"query":"{ items(pageSize: 3) { total items { id name groups: id } } }"}`))
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || bytes.Contains(b, []byte(`"errors"`)) {
		return 0, fmt.Errorf("runtime: %d %s", resp.StatusCode, b)
	}
	return c.calls + 1, nil
}

// sessionClient posts to /public-graphql with the session cookie.
type sessionClient struct {
	base   string
	cookie string
	calls  int
}

func (c *sessionClient) gql(query string, vars map[string]any) (map[string]any, error) {
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, _ := http.NewRequest(http.MethodPost, c.base+"/public-graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if c.cookie != "" {
		req.Header.Set("Cookie", c.cookie)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	c.calls++
	for _, ck := range resp.Cookies() {
		if ck.Name == "mgq_session" {
			c.cookie = "mgq_session=" + ck.Value
		}
	}
	var r struct {
		Data   map[string]any
		Errors []any
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		return nil, err
	}
	if len(r.Errors) > 0 {
		return nil, fmt.Errorf("%s: %v", query, r.Errors)
	}
	return r.Data, nil
}
