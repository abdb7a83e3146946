package main

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
)

// importCmd uploads a dataset file to a running server as a stream.
func importCmd(args []string) error {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	server := fs.String("server", defaultServer(), "server base URL")
	token := fs.String("token", "", "JWT or FULL/MANAGEMENT API key")
	code := fs.String("code", "", "importCode of the new dataset")
	format := fs.String("format", "", "json, ndjson or csv (default: from the file name)")
	variant := fs.String("variant-field", "", "field whose value names each row's variant")
	name := fs.String("name", "", "display name")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 || *code == "" {
		return fmt.Errorf("usage: mockgql import --code CODE [--format F] [--variant-field V] FILE")
	}
	path := fs.Arg(0)
	if *format == "" {
		*format = strings.TrimPrefix(strings.ToLower(pathExt(path)), ".")
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	q := url.Values{"format": {*format}}
	if *variant != "" {
		q.Set("variantField", *variant)
	}
	if *name != "" {
		q.Set("name", *name)
	}
	req, err := http.NewRequest(http.MethodPost, strings.TrimRight(*server, "/")+"/datasets/"+url.PathEscape(*code)+"?"+q.Encode(), f)
	if err != nil {
		return err
	}
	if st, err := f.Stat(); err == nil {
		req.ContentLength = st.Size()
	}
	req.Header.Set("Content-Type", "application/octet-stream")
	if *token != "" {
		req.Header.Set("Authorization", "Bearer "+*token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", resp.Status, body)
	}
	fmt.Println(string(body))
	return nil
}

func pathExt(p string) string {
	if i := strings.LastIndexByte(p, '.'); i >= 0 && !strings.ContainsRune(p[i:], '/') {
		return p[i:]
	}
	return ""
}
