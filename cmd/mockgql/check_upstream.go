package main

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/mockgql/mockgql/app"
	"github.com/mockgql/mockgql/model"
)

// checkUpstreamUsage is the usage of `mockgql check-upstream`.
const checkUpstreamUsage = "usage: mockgql check-upstream --server URL --token JWT --project ID --url UPSTREAM [--header 'Name: value']... [--documents 'src/**/*.graphql']"

// checkUpstreamCmd is `mockgql check-upstream`, the drift check for CI
// (docs/using/testing.md): it asks a running node how the real API at
// --url differs from the project's schema (checkUpstream) and, with
// --documents, which of the client's operation documents validate on one
// and not the other (checkOperations). It prints both and exits 1 when a
// change is BREAKING or a document valid on the mock is not valid
// upstream, 2 when it cannot check.
func checkUpstreamCmd(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("check-upstream", flag.ContinueOnError)
	server := fs.String("server", defaultServer(), "server base URL")
	token := fs.String("token", "", "JWT or FULL/MANAGEMENT API key")
	project := fs.String("project", "", "ID of the project that stands in for the real API")
	upstreamURL := fs.String("url", "", "the real API's GraphQL endpoint")
	documents := fs.String("documents", "", "the client's operation documents: a glob, ** for any folders below (src/**/*.graphql)")
	var headers headerList
	fs.Var(&headers, "header", "a header for the real API, 'Name: value' (repeat for more); mockgql's token is never sent there")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 || *project == "" || *upstreamURL == "" {
		return &exitError{code: 2, msg: checkUpstreamUsage}
	}
	c := managementClient{server: strings.TrimRight(*server, "/"), token: *token}
	var data struct {
		Check struct {
			URL      string
			Breaking int
			Changes  []model.SchemaChange
		} `json:"checkUpstream"`
	}
	q := `query($p: ID!, $u: String!, $h: [UpstreamHeaderInput!]) { checkUpstream(projectId: $p, url: $u, headers: $h) { url breaking changes { criticality type path message } } }`
	if err := c.do(q, map[string]any{"p": *project, "u": *upstreamURL, "h": headers.input()}, &data); err != nil {
		return &exitError{code: 2, msg: err.Error()}
	}
	fmt.Fprintf(out, "%s against the project's schema:\n", data.Check.URL)
	drift := printChanges(out, data.Check.Changes)
	if *documents == "" {
		return drift
	}
	files, docs, err := readDocuments(*documents)
	if err != nil {
		return &exitError{code: 2, msg: err.Error()}
	}
	var ops struct {
		Checks []struct {
			Name                       string
			MockErrors, UpstreamErrors []string
			Differs                    bool
		} `json:"checkOperations"`
	}
	q = `query($p: ID!, $d: [String!]!, $u: String, $h: [UpstreamHeaderInput!]) { checkOperations(projectId: $p, documents: $d, url: $u, headers: $h) { name mockErrors upstreamErrors differs } }`
	if err := c.do(q, map[string]any{"p": *project, "d": docs, "u": *upstreamURL, "h": headers.input()}, &ops); err != nil {
		return &exitError{code: 2, msg: err.Error()}
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	failing := 0
	for i, o := range ops.Checks {
		switch {
		case len(o.MockErrors) == 0 && len(o.UpstreamErrors) > 0:
			failing++
			fmt.Fprintf(tw, "FAILS UPSTREAM\t%s\t%s\t%s\n", files[i], o.Name, o.UpstreamErrors[0])
		case len(o.MockErrors) > 0 && len(o.UpstreamErrors) == 0:
			fmt.Fprintf(tw, "FAILS ON THE MOCK\t%s\t%s\t%s\n", files[i], o.Name, o.MockErrors[0])
		case len(o.MockErrors) > 0:
			fmt.Fprintf(tw, "FAILS ON BOTH\t%s\t%s\t%s\n", files[i], o.Name, o.MockErrors[0])
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(out, "%d documents: %d valid on the mock and not upstream\n", len(ops.Checks), failing)
	if failing > 0 {
		return &exitError{code: 1, msg: fmt.Sprintf("%d documents the mock accepts fail on the real API", failing)}
	}
	return drift
}

// headerList is a repeatable --header 'Name: value'.
type headerList []model.UpstreamHeader

func (h *headerList) String() string { return fmt.Sprint(len(*h), " headers") }

func (h *headerList) Set(v string) error {
	name, value, ok := strings.Cut(v, ":")
	if !ok || strings.TrimSpace(name) == "" {
		return fmt.Errorf("want 'Name: value', got %q", v)
	}
	*h = append(*h, model.UpstreamHeader{Name: strings.TrimSpace(name), Value: strings.TrimSpace(value)})
	return nil
}

// input is the list as [UpstreamHeaderInput!].
func (h headerList) input() []map[string]string {
	out := make([]map[string]string, len(h))
	for i, x := range h {
		out[i] = map[string]string{"name": x.Name, "value": x.Value}
	}
	return out
}

// readDocuments reads the files pattern names, in name order: a glob,
// where a ** element stands for any folders (src/**/*.graphql), bounded
// as checkOperations is.
func readDocuments(pattern string) (files, docs []string, err error) {
	base, rest, deep := strings.Cut(filepath.ToSlash(pattern), "**/")
	if deep {
		err = filepath.WalkDir(filepath.FromSlash(strings.TrimSuffix(base, "/")+"/."), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			if ok, _ := filepath.Match(rest, d.Name()); ok {
				files = append(files, p)
			}
			return nil
		})
	} else {
		files, err = filepath.Glob(pattern)
	}
	if err != nil {
		return nil, nil, err
	}
	if len(files) == 0 {
		return nil, nil, fmt.Errorf("no file matches %s", pattern)
	}
	if len(files) > app.MaxCheckDocuments {
		return nil, nil, fmt.Errorf("%d files match %s; a check takes at most %d", len(files), pattern, app.MaxCheckDocuments)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, nil, err
		}
		docs = append(docs, string(b))
	}
	return files, docs, nil
}
