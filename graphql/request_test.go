package graphql

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
				if !errors.As(err, &me) || me.Code != model.ErrBadRequest || me.Message != tt.wantErr {
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
			if !errors.As(err, &me) || me.Code != model.ErrBadRequest || me.Message == "" {
				t.Fatalf("err = %#v, want a Bad Request *model.Error", err)
			}
			return
		}
		if req.Query == "" {
			t.Fatal("accepted a request without a query")
		}
	})
}
