package codegen

// handlersSource is api/handlers.go: the generic handler set of a table.
const handlersSource = `package api

import (
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"
)

// MaxBodyBytes bounds request bodies.
const MaxBodyBytes = 1 << 20

// Page is the answer of a list request.
type Page[T any] struct {
	Items    []T ` + "`json:\"items\"`" + `
	Total    int ` + "`json:\"total\"`" + `
	Page     int ` + "`json:\"page\"`" + `
	PageSize int ` + "`json:\"pageSize\"`" + `
}

// Error is the body of every refusal.
type Error struct {
	Code    string ` + "`json:\"code\"`" + `
	Message string ` + "`json:\"message\"`" + `
}

// routes is the query power a table's handlers serve, as its model's
// operations opt in.
type routes struct {
	where, orderBy bool     // the list and its connection take ?where= and ?orderBy=
	connection     string   // the path of the Relay connection; "" for none
	aggregates     []string // the paths of aggregate requests
}

// resource serves one table's rows from its store.
type resource[T any, P Record[T]] struct {
	store  Store[T]
	routes routes
}

// register adds the handler set of a table at base: list, get, create,
// update (PUT and PATCH both set the fields given) and delete, and the
// connection and aggregates rt names.
func register[T any, P Record[T]](mux *http.ServeMux, base string, store Store[T], rt routes) {
	r := resource[T, P]{store: store, routes: rt}
	mux.HandleFunc("GET "+base, r.list)
	mux.HandleFunc("POST "+base, r.create)
	mux.HandleFunc("GET "+base+"/{id}", r.get)
	mux.HandleFunc("PUT "+base+"/{id}", r.update)
	mux.HandleFunc("PATCH "+base+"/{id}", r.update)
	mux.HandleFunc("DELETE "+base+"/{id}", r.delete)
	if rt.connection != "" {
		mux.HandleFunc("GET "+rt.connection, r.connection)
	}
	for _, path := range rt.aggregates {
		mux.HandleFunc("GET "+path, r.aggregate)
	}
}

// list answers GET base?page=&pageSize= (page 1-based, pageSize 1..1000),
// with sortField and sortDirection, and where and orderBy if the table
// takes them. Without any, the store pages; else the handler filters,
// sorts and pages the rows Find returns.
func (r resource[T, P]) list(w http.ResponseWriter, req *http.Request) {
	page, size := intParam(req, "page", 1), intParam(req, "pageSize", 20)
	// page is clamped so that (page-1)*size cannot overflow.
	page, size = min(max(page, 1), math.MaxInt/maxPageSize), min(max(size, 1), maxPageSize)
	where, order, err := r.readQuery(req)
	if err != nil {
		badRequest(w, err)
		return
	}
	var rows []T
	var total int
	if where == nil && order == nil {
		rows, total, err = r.store.List(req.Context(), (page-1)*size, size)
	} else {
		rows, err = r.find(req, where, order)
		total = len(rows)
		rows = rows[min((page-1)*size, total):min(page*size, total)] // the page asked for, or none
	}
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, Page[T]{Items: rows, Total: total, Page: page, PageSize: size})
}

// readQuery reads where and orderBy (if the table takes them), else
// sortField and sortDirection (an unknown sortField keeps storage order).
func (r resource[T, P]) readQuery(req *http.Request) (where *Filter, order []sortKey, err error) {
	q := req.URL.Query()
	if s := q.Get("where"); s != "" && r.routes.where {
		if where, err = ParseFilter(s, knownField[T, P]); err != nil {
			return nil, nil, err
		}
	}
	if s := q.Get("orderBy"); s != "" && r.routes.orderBy {
		order, err = parseOrder(s, knownField[T, P])
	} else if f := q.Get("sortField"); f != "" && knownField[T, P](f) {
		order = []sortKey{{field: f, desc: q.Get("sortDirection") == "DESC"}}
	}
	return where, order, err
}

// find returns the rows where matches, sorted by order.
func (r resource[T, P]) find(req *http.Request, where *Filter, order []sortKey) ([]T, error) {
	rows, err := r.store.Find(req.Context(), where)
	if err == nil {
		sortRows[T, P](rows, order)
	}
	return rows, err
}

// connection answers a Relay connection request (connection.go).
func (r resource[T, P]) connection(w http.ResponseWriter, req *http.Request) {
	where, order, err := r.readQuery(req)
	var win window
	if err == nil {
		win, err = readWindow(req)
	}
	if err != nil {
		badRequest(w, err)
		return
	}
	rows, err := r.find(req, where, order)
	if err != nil {
		writeError(w, err)
		return
	}
	c, err := connect[T, P](rows, win)
	if err != nil {
		badRequest(w, err)
		return
	}
	writeJSON(w, http.StatusOK, c)
}

// aggregate answers an aggregate request (aggregate.go).
func (r resource[T, P]) aggregate(w http.ResponseWriter, req *http.Request) {
	var where *Filter
	var err error
	if s := req.URL.Query().Get("where"); s != "" {
		where, err = ParseFilter(s, knownField[T, P])
	}
	var by []string
	if err == nil {
		by, err = parseGroupBy(req.URL.Query().Get("groupBy"), knownField[T, P])
	}
	if err != nil {
		badRequest(w, err)
		return
	}
	rows, err := r.store.Find(req.Context(), where)
	if err != nil {
		writeError(w, err)
		return
	}
	agg, err := aggregate[T, P](rows, by)
	if err != nil {
		badRequest(w, err)
		return
	}
	writeJSON(w, http.StatusOK, agg)
}

func (r resource[T, P]) get(w http.ResponseWriter, req *http.Request) {
	row, err := r.store.Get(req.Context(), req.PathValue("id"))
	answer(w, http.StatusOK, row, err)
}

func (r resource[T, P]) create(w http.ResponseWriter, req *http.Request) {
	var row T
	if !decode(w, req, &row) {
		return
	}
	row, err := r.store.Create(req.Context(), row)
	answer(w, http.StatusCreated, row, err)
}

func (r resource[T, P]) update(w http.ResponseWriter, req *http.Request) {
	var patch T
	if !decode(w, req, &patch) {
		return
	}
	row, err := r.store.Update(req.Context(), req.PathValue("id"), patch)
	answer(w, http.StatusOK, row, err)
}

func (r resource[T, P]) delete(w http.ResponseWriter, req *http.Request) {
	row, err := r.store.Delete(req.Context(), req.PathValue("id"))
	answer(w, http.StatusOK, row, err)
}

// intParam reads a query parameter, def when absent or not a number.
func intParam(req *http.Request, name string, def int) int {
	n, err := strconv.Atoi(req.URL.Query().Get(name))
	if err != nil {
		return def
	}
	return n
}

// decode reads a JSON body into v; unknown fields are refused.
func decode(w http.ResponseWriter, req *http.Request, v any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, req.Body, MaxBodyBytes))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		badRequest(w, err)
		return false
	}
	return true
}

// badRequest refuses a malformed request, saying why.
func badRequest(w http.ResponseWriter, err error) {
	writeJSON(w, http.StatusBadRequest, Error{Code: "BAD_REQUEST", Message: err.Error()})
}

// answer writes row with status, or the error.
func answer(w http.ResponseWriter, status int, row any, err error) {
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, status, row)
}

// writeError maps store errors to statuses; others are 500.
func writeError(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, ErrNotFound):
		writeJSON(w, http.StatusNotFound, Error{Code: "NOT_FOUND", Message: err.Error()})
	case errors.Is(err, ErrConflict):
		writeJSON(w, http.StatusConflict, Error{Code: "CONFLICT", Message: err.Error()})
	default:
		writeJSON(w, http.StatusInternalServerError, Error{Code: "INTERNAL", Message: "internal error"})
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
`

// testHelperSource is api/crud_test.go: the generic test every table's
// test calls.
const testHelperSource = `package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
)

// testCRUD drives one table's handlers through a real HTTP server: create
// (with and without id), get, list, update (PUT and PATCH), delete, and the
// refusals (unknown field 400, taken id 409, unknown id 404). The row read
// back holds the values written.
func testCRUD(t *testing.T, base, createBody, patchBody string) {
	srv := httptest.NewServer(NewServer(NewMemoryStores()))
	defer srv.Close()
	var row map[string]any
	call(t, srv, "POST", base, createBody, http.StatusCreated, &row)
	id, _ := row["id"].(string)
	if id == "" {
		t.Fatalf("created row has no id: %v", row)
	}
	call(t, srv, "POST", base, createBody, http.StatusConflict, nil)
	call(t, srv, "POST", base, "{}", http.StatusCreated, nil)
	row = nil
	call(t, srv, "GET", base+"/"+id, "", http.StatusOK, &row)
	want := jsonObject(t, createBody)
	hasValues(t, "get", row, want)
	var page map[string]any
	call(t, srv, "GET", base+"?page=1&pageSize=1", "", http.StatusOK, &page)
	if page["total"] != 2.0 || len(page["items"].([]any)) != 1 {
		t.Fatalf("list: %v", page)
	}
	for k, v := range jsonObject(t, patchBody) {
		want[k] = v
	}
	for _, method := range []string{"PATCH", "PUT"} {
		row = nil
		call(t, srv, method, base+"/"+id, patchBody, http.StatusOK, &row)
		hasValues(t, method, row, want)
		row = nil
		call(t, srv, "GET", base+"/"+id, "", http.StatusOK, &row)
		hasValues(t, "get after "+method, row, want)
	}
	call(t, srv, "POST", base, ` + "`{\"__unknown\": 1}`" + `, http.StatusBadRequest, nil)
	call(t, srv, "DELETE", base+"/"+id, "", http.StatusOK, nil)
	call(t, srv, "GET", base+"/"+id, "", http.StatusNotFound, nil)
	call(t, srv, "DELETE", base+"/"+id, "", http.StatusNotFound, nil)
}

// jsonObject reads a JSON object.
func jsonObject(t *testing.T, body string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// hasValues checks that row holds every value of want.
func hasValues(t *testing.T, what string, row, want map[string]any) {
	t.Helper()
	for k, v := range want {
		if !reflect.DeepEqual(row[k], v) {
			t.Errorf("%s: %s = %v, want %v", what, k, row[k], v)
		}
	}
}

// call sends a request and checks the status; out receives the JSON body.
func call(t *testing.T, srv *httptest.Server, method, path, body string, status int, out any) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, bytes.NewReader([]byte(body)))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != status {
		t.Fatalf("%s %s: status %d, want %d", method, path, resp.StatusCode, status)
	}
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
	}
}
`
