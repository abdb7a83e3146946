package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// modelSize measures issue 20's model-size attack with the bounds on: the
// cost of an edit on a project at its record bound (STARTER, 1 MiB) next
// to the same edit on a small project, a refused 900 KB constant, a
// 100-alias read of the full project, and the store's size.
func modelSize(bin, dir string, rep *report) error {
	m, err := startMockgql(bin, filepath.Join(dir, "modelsize"), "--ip-limit", "0", "--ip-limit-create", "0",
		"--ip-limit-management", "0", "--ip-limit-public", "0")
	if err != nil {
		return err
	}
	defer m.stop()
	if err := benchAccount(m); err != nil {
		return err
	}
	if _, err := m.gql(`mutation { setPlan(plan: STARTER) { plan } }`, nil); err != nil {
		return err
	}
	_, smallAttr, _, err := sizedProject(m, "small", 1)
	if err != nil {
		return err
	}
	full, fullAttr, fullTable, err := sizedProject(m, "full", 1<<30) // until the bound refuses
	if err != nil {
		return err
	}
	dSmall, err := editTimes(m, smallAttr, 30)
	if err != nil {
		return err
	}
	dFull, err := editTimes(m, fullAttr, 30)
	if err != nil {
		return err
	}
	rep.note("modelsize: an edit of a project at its 1 MiB bound takes %v at p50, %.1fx an edit of a small project (%v)",
		dFull.Round(time.Microsecond), float64(dFull)/float64(dSmall), dSmall.Round(time.Microsecond))
	t0 := time.Now()
	out, _ := m.post("/graphql", string(mustJSON(map[string]any{"query": createConstantQ,
		"variables": map[string]any{"t": fullTable, "n": "huge", "v": json.RawMessage(`"` + strings.Repeat("x", 900<<10) + `"`)}})))
	if !strings.Contains(out, "LIMIT_REACHED") {
		return fmt.Errorf("a 900 KB constant was not refused: %.200s", out)
	}
	rep.note("modelsize: a refused 900 KB constant: %v", time.Since(t0).Round(time.Microsecond))
	var q strings.Builder
	q.WriteString("query($p:ID!){")
	for i := range 50 { // the most /graphql's cost budget admits (project costs 2)
		fmt.Fprintf(&q, " a%d: project(id:$p) { name }", i)
	}
	q.WriteString(" }")
	t0 = time.Now()
	if _, err := m.gql(q.String(), map[string]any{"p": full}); err != nil {
		return err
	}
	rep.note("modelsize: 50 aliases of project(id) on the full project: %v ", time.Since(t0).Round(time.Millisecond))
	if fi, err := os.Stat(filepath.Join(dir, "modelsize", "mockgql.db")); err == nil {
		rep.note("modelsize: store after the runs: %.1f MB", float64(fi.Size())/1e6)
	}
	return nil
}

const createConstantQ = `mutation($t:ID!,$n:String!,$v:JSON){ createModellingAttribute(input:{tableId:$t, name:$n, type: STRING,
	mappingType: CONSTANT, constantValue:$v}) { id } }`

// sizedProject creates a project with up to n constants of 15 KiB (fewer
// when the project's bound refuses one) and returns it, one attribute and
// its table.
func sizedProject(m *mockgql, name string, n int) (pid, attr, table string, err error) {
	d, err := m.gql(`mutation($n:String!){ createProject(name:$n) { id } }`, map[string]any{"n": name})
	if err != nil {
		return "", "", "", err
	}
	pid = d["createProject"].(map[string]any)["id"].(string)
	value := json.RawMessage(`"` + strings.Repeat("v", 15<<10) + `"`)
	for ti := 0; ti < 5 && n > 0; ti++ {
		d, err := m.gql(`mutation($p:ID!,$n:String!){ createModellingTable(input:{projectId:$p, name:$n}) { id } }`, map[string]any{"p": pid, "n": fmt.Sprintf("T%d", ti)})
		if err != nil {
			return "", "", "", err
		}
		tid := d["createModellingTable"].(map[string]any)["id"].(string)
		for i := 0; i < 150 && n > 0; i, n = i+1, n-1 {
			out, err := m.post("/graphql", string(mustJSON(map[string]any{"query": createConstantQ, "variables": map[string]any{"t": tid, "n": fmt.Sprintf("c%d", i), "v": value}})))
			if err != nil {
				return "", "", "", err
			}
			if strings.Contains(out, "LIMIT_REACHED") {
				return pid, attr, table, nil
			}
			if attr == "" {
				attr, table = between(out, `"id":"`, `"`), tid
			}
		}
	}
	return pid, attr, table, nil
}

// editTimes flips an attribute's sortable flag n times and returns the median time.
func editTimes(m *mockgql, attr string, n int) (time.Duration, error) {
	ds := make([]time.Duration, 0, n)
	for i := range n {
		t0 := time.Now()
		if _, err := m.gql(`mutation($a:ID!,$s:Boolean){ updateModellingAttribute(input:{attributeId:$a, sortable:$s}) { id } }`,
			map[string]any{"a": attr, "s": i%2 == 0}); err != nil {
			return 0, err
		}
		ds = append(ds, time.Since(t0))
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2], nil
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
