package actors

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/model"
)

// The stored form of a project that serves an imported schema
// (docs/reference/bounds.md, "The model"): its document, up to
// contract.MaxSDLBytes of SDL, is kept gzip-compressed in the project's
// record, so it counts against the record bound (model.ModelLimits) at
// its compressed size — GitHub's 1.2 MB of SDL is about 170 KB — and an
// edit re-encodes the compressed bytes the last encoding kept, not the
// document. A document under packFrom stays plain, as records stored
// before this form have it; both forms are read.

// packFrom is the size from which a contract document is stored
// compressed.
const packFrom = 16 << 10

// docPack remembers a document's compressed form, so that the encodings
// of the states an edit makes from one another compress it once. It is
// shared by those states (projectState copies the pointer); mu makes it
// safe to encode two of them at once.
type docPack struct {
	mu  sync.Mutex
	doc string
	gz  []byte
}

// of returns doc compressed, from the cache when doc is the document
// compressed last (a string comparison that is one pointer check when
// the states share the document).
func (d *docPack) of(doc string) ([]byte, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.gz != nil && d.doc == doc {
		return d.gz, nil
	}
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	if _, err := io.WriteString(z, doc); err != nil {
		return nil, err
	}
	if err := z.Close(); err != nil {
		return nil, err
	}
	d.doc, d.gz = doc, b.Bytes()
	return d.gz, nil
}

// storedState is a projectState as its record holds it.
type storedState struct {
	plainState
	// ContractGz is the gzip of Project.Contract.Document, which is then
	// empty in the record.
	ContractGz []byte `json:"contractGz,omitempty"`
}

// plainState is projectState without its JSON methods.
type plainState projectState

// MarshalJSON encodes st as its record holds it: the contract document
// compressed from packFrom bytes.
func (st projectState) MarshalJSON() ([]byte, error) {
	p := st.Project
	if p == nil || p.Contract == nil || len(p.Contract.Document) < packFrom {
		return json.Marshal(plainState(st))
	}
	pack := st.pack
	if pack == nil {
		pack = &docPack{}
	}
	gz, err := pack.of(p.Contract.Document)
	if err != nil {
		return nil, fmt.Errorf("compressing the schema of project %s: %w", p.ID, err)
	}
	shallow, c := *p, *p.Contract
	c.Document, shallow.Contract = "", &c
	st.Project = &shallow
	return json.Marshal(storedState{plainState(st), gz})
}

// UnmarshalJSON decodes a record of either form, and remembers a
// compressed document's bytes for the next encoding.
func (st *projectState) UnmarshalJSON(b []byte) error {
	var s storedState
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*st = projectState(s.plainState)
	if len(s.ContractGz) == 0 {
		return nil
	}
	if st.Project == nil || st.Project.Contract == nil {
		return fmt.Errorf("a compressed schema without a contract")
	}
	doc, err := unpack(s.ContractGz)
	if err != nil {
		return fmt.Errorf("the schema of project %s: %w", st.Project.ID, err)
	}
	st.Project.Contract.Document = doc
	st.pack = &docPack{doc: doc, gz: s.ContractGz}
	return nil
}

// unpack gunzips a stored document, reading at most
// contract.MaxDocumentBytes of it.
func unpack(gz []byte) (string, error) {
	z, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return "", err
	}
	b, err := io.ReadAll(io.LimitReader(z, contract.MaxDocumentBytes+1))
	if err != nil {
		return "", err
	}
	if len(b) > contract.MaxDocumentBytes {
		return "", model.Errorf(model.CodeInternal, "a stored schema of more than %d bytes", contract.MaxDocumentBytes)
	}
	return string(b), nil
}
