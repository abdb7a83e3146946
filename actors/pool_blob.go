package actors

import (
	"time"

	"github.com/mockgql/mockgql/dataset"
)

// WriteBlob stores d's encoding under a fresh blob ID, which carries now
// (see CollectGarbage), and returns the ID and the bytes written. Chunks
// are written two at a time: in a cluster each write is one replication
// message, and those stay well under gRPC's message size. On an error
// nothing of the blob stays behind (as far as the store lets it be
// deleted). The blob is unreferenced until a catalog entry names it.
func (p *Pool) WriteBlob(d *dataset.Dataset, now time.Time) (blobID string, size int64, err error) {
	blobID, puts, err := blobPuts(d, now)
	if err != nil {
		return "", 0, err
	}
	for _, put := range puts {
		size += int64(len(put.Value))
	}
	for i := 0; i < len(puts); i += 2 {
		if err := p.store.Write(puts[i:min(i+2, len(puts))]...); err != nil {
			_ = p.DeleteBlob(d.ImportCode(), blobID)
			return "", 0, err
		}
	}
	return blobID, size, nil
}

// DeleteBlob deletes every chunk of the blob importCode/blobID from the
// store; it is durable when it returns nil. The caller has removed (or
// never committed) the catalog entry that named it.
func (p *Pool) DeleteBlob(importCode, blobID string) error {
	return p.store.DeletePrefix(kindDataBlob, importCode+"/"+blobID+"/")
}
