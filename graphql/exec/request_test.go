package exec

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/mockgql/mockgql/model"
)

func TestDecodeRequest(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		want    Request
		wantErr string // model.Error message; "" for success
	}{
		{name: "query only", body: `{"query":"{ a }"}`, want: Request{Query: "{ a }"}},
		{
			name: "all members",
			body: `{"query":"query Q($n: Int) { a(n: $n) }","variables":{"n":3,"f":1.5,"big":12345678901234567890,"o":{"x":[1]}},"operationName":"Q","extensions":{"persistedQuery":{}}}`,
			want: Request{
				Query:         "query Q($n: Int) { a(n: $n) }",
				OperationName: "Q",
				Variables: map[string]any{
					"n": json.Number("3"), "f": json.Number("1.5"), "big": json.Number("12345678901234567890"),
					"o": map[string]any{"x": []any{json.Number("1")}},
				},
			},
		},
		{name: "null variables and operationName", body: `{"query":"{a}","variables":null,"operationName":null}`, want: Request{Query: "{a}"}},
		{name: "whitespace around", body: " \n{\"query\":\"{a}\"}\n ", want: Request{Query: "{a}"}},
		{name: "empty body", body: ``, wantErr: "request body is not a JSON object"},
		{name: "malformed", body: `{"query":`, wantErr: "request body is not a JSON object"},
		{name: "array", body: `[{"query":"{a}"}]`, wantErr: "request body is not a JSON object"},
		{name: "null body", body: `null`, wantErr: "request body is not a JSON object"},
		{name: "trailing data", body: `{"query":"{a}"} {}`, wantErr: "request body is not a JSON object"},
		{name: "missing query", body: `{"variables":{}}`, wantErr: "query is missing or empty"},
		{name: "empty query", body: `{"query":"  "}`, wantErr: "query is missing or empty"},
		{name: "null query", body: `{"query":null}`, wantErr: "query is missing or empty"},
		{name: "query not a string", body: `{"query":5}`, wantErr: "query must be a string"},
		{name: "variables not an object", body: `{"query":"{a}","variables":[1]}`, wantErr: "variables must be an object"},
		{name: "variables a string", body: `{"query":"{a}","variables":"{}"}`, wantErr: "variables must be an object"},
		{name: "operationName not a string", body: `{"query":"{a}","operationName":1}`, wantErr: "operationName must be a string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeRequest([]byte(tt.body))
			if tt.wantErr != "" {
				var me *model.Error
				if !errors.As(err, &me) || me.Code != model.CodeBadRequest || me.Message != tt.wantErr {
					t.Fatalf("err = %#v, want Bad Request %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

// FuzzDecodeRequest checks that DecodeRequest never panics and either
// returns a Bad Request *model.Error or a request with a query.
func FuzzDecodeRequest(f *testing.F) {
	for _, seed := range []string{
		`{"query":"{ a }"}`,
		`{"query":"query($v: Int){a(v:$v)}","variables":{"v":1e400,"w":[{"x":null}]},"operationName":"x"}`,
		`{"query":"{a}","variables":"x"}`,
		`{"query":1}`,
		`{}`, `[]`, `null`, ``, `{"query":"\u0000"}`, "{\"query\":\"\xff\"}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := DecodeRequest(body)
		if err != nil {
			var me *model.Error
			if !errors.As(err, &me) || me.Code != model.CodeBadRequest || me.Message == "" {
				t.Fatalf("err = %#v, want a Bad Request *model.Error", err)
			}
			return
		}
		if req.Query == "" {
			t.Fatal("accepted a request without a query")
		}
	})
}

// scanCases are bodies scanRequest must decode as encoding/json does, or
// decline; FuzzScanRequest starts from them.
var scanCases = []string{
	`{"query":"{ a }"}`,
	` {"query" : "query Q($n: Int) {\n  a(n: $n)\n}" , "variables" : {"n" : 3, "f": -1.5e+3, "z": 0, "big": 12345678901234567890, "s": "x\"y\\z\/\b\f\n\r\t\u00e9\ud83d\ude00", "t": true, "u": false, "v": null, "o": {"x": [1, {}, [], "é"]}}, "operationName": "Q", "extensions": {"persistedQuery": {"version": 1, "sha256Hash": "ab"}}} `,
	`{"query":"{a}","variables":null,"operationName":null}`,
	`{"query":"{a}","variables":{}}`,
	`{"query":"{a}","variables":{"a":1,"a":2}}`,
	`{"query":"{a}","query":"{b}"}`,
	`{"query":null}`,
	`{"query":"  "}`,
	`{"query":5}`,
	`{"query":"{a}","variables":[1]}`,
	`{"query":"{a}","operationName":1}`,
	`{"\u0071uery":"{a}"}`,
	`{"query":"{a}",}`,
	`{"query":"{a}"}x`,
	`{"query":"{a}","x":01}`,
	`{"query":"{a}","x":1.}`,
	`{"query":"{a}","x":-}`,
	`{"query":"{a}","x":1e}`,
	`{"query":"{a}","x":tru}`,
	`{"query":"{a}","x":"\x"}`,
	`{"query":"{a}","x":"\u12"}`,
	"{\"query\":\"{a}\",\"x\":\"\x01\"}",
	"{\"query\":\"{\xff}\",\"variables\":{\"k\xfe\":\"\xc3\"}}",
	`{"query":"{a}","variables":{"s":"\ud800","t":"\ud800\u0041","u":"\udc00\ud800"}}`,
	`{"query":"{a}","variables":{"d":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}}`,
	"\xef\xbb\xbf{\"query\":\"{a}\"}",
	`{"query":"{a}"` + "\n\t\r ",
	`[]`, `null`, ``, `{}`, `{"query":"{a}","x":[1,]}`, `{"query":"{a}","x":{"a"}}`,
}

// TestScanRequest checks the request scanner against encoding/json.
func TestScanRequest(t *testing.T) {
	for _, body := range scanCases {
		checkScanRequest(t, []byte(body))
	}
	if _, ok := scanRequest([]byte(scanCases[1])); !ok {
		t.Error("the scanner declines a usual body with every kind of value")
	}
}

// FuzzScanRequest compares DecodeRequest and the request scanner with
// encoding/json on arbitrary bodies.
func FuzzScanRequest(f *testing.F) {
	for _, body := range scanCases {
		f.Add([]byte(body))
	}
	f.Fuzz(func(t *testing.T, body []byte) { checkScanRequest(t, body) })
}

// checkScanRequest fails when scanRequest accepts body but decodes it
// otherwise than encoding/json, or DecodeRequest answers otherwise.
func checkScanRequest(t *testing.T, body []byte) {
	t.Helper()
	want, wantErr := decodeRequestJSON(body)
	if got, ok := scanRequest(body); ok && (wantErr != nil || !reflect.DeepEqual(got, want)) {
		t.Errorf("scanRequest(%q) = %#v\nencoding/json: %#v, %v", body, got, want, wantErr)
	}
	got, err := DecodeRequest(body)
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(err, wantErr) {
		t.Errorf("DecodeRequest(%q) = %#v, %v\nencoding/json: %#v, %v", body, got, err, want, wantErr)
	}
}

// TestDecodeRequestAllocs bounds the allocations of usual bodies.
func TestDecodeRequestAllocs(t *testing.T) {
	tests := []struct {
		name string
		body string
		max  float64
	}{
		{"query", `{"query":"{ searchSmall(minPrice: 500, pageSize: 20) { total items { id name } } }"}`, 1},
		{"escaped query and operation name", `{"query":"query Q {\n  a\n}","operationName":"Q","variables":null}`, 2},
		{"variables", `{"query":"query Q($id: ID!) { a(id: $id) }","variables":{"id":"5"}}`, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := []byte(tt.body)
			if got := testing.AllocsPerRun(100, func() { _, _ = DecodeRequest(body) }); got > tt.max {
				t.Errorf("%v allocations, want at most %v", got, tt.max)
			}
		})
	}
}

// BenchmarkDecodeRequest measures decoding the benchmark's body and one
// with variables.
func BenchmarkDecodeRequest(b *testing.B) {
	for _, bb := range []struct{ name, body string }{
		{"query", `{"query":"{ searchSmall(minPrice: 500, pageSize: 20, sortField: \"price\", sortDirection: DESC) { total items { id name price category inStock sku } } }"}`},
		{"variables", `{"query":"query Q($min: FilterValue, $size: Int) {\n  searchSmall(minPrice: $min, pageSize: $size) { total items { id name } }\n}","variables":{"min":500,"size":20},"operationName":"Q"}`},
	} {
		body := []byte(bb.body)
		b.Run(bb.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := DecodeRequest(body); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(bb.name+"/encoding-json", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := decodeRequestJSON(body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestIsMutation(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  Request
		want bool
	}{
		{"query", Request{Query: `{ products { total } }`}, false},
		{"named query", Request{Query: `query q { products { total } }`}, false},
		{"mutation", Request{Query: `mutation { deleteProduct(id: "1") { id } }`}, true},
		{"selected mutation", Request{Query: `query q { a } mutation m { b }`, OperationName: "m"}, true},
		{"selected query", Request{Query: `query q { a } mutation m { b }`, OperationName: "q"}, false},
		{"ambiguous", Request{Query: `query q { a } mutation m { b }`}, false},
		{"unknown operation", Request{Query: `mutation m { b }`, OperationName: "x"}, false},
		{"does not parse", Request{Query: `mutation {`}, false},
		{"subscription", Request{Query: `subscription { a }`}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := IsMutation(tc.req); got != tc.want {
				t.Errorf("IsMutation(%q, %q) = %v, want %v", tc.req.Query, tc.req.OperationName, got, tc.want)
			}
		})
	}
}
