package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"weak"
)

// IDUsed reports whether a row has id, or had it (tombstones keep ids taken).
func (tv *TableView) IDUsed(id string) bool {
	if tv.ov.hasRecord(id) {
		return true
	}
	return len(tv.datasetRowsByID(id)) > 0
}

// FreshID chooses the id of a new row: the next integer after the largest
// numeric id when the dataset's ids are integers (or positions), else an
// id derived from the table and seq, shaped like a UUID.
func (tv *TableView) FreshID(seq int64) string {
	st := tv.idStats()
	if st.numeric {
		next := st.max + 1
		if tv.ov != nil {
			if f, ok := tv.ov.maxIntegerID(); ok && f >= next {
				next = f + 1
			}
		}
		for tv.IDUsed(FormatNum(next)) {
			next++
		}
		return FormatNum(next)
	}
	for attempt := 0; ; attempt++ {
		sum := sha256.Sum256([]byte(fmt.Sprintf("%s:%d:%d", tv.Table.ID, seq, attempt)))
		h := hex.EncodeToString(sum[:16])
		id := h[0:8] + "-" + h[8:12] + "-4" + h[13:16] + "-a" + h[17:20] + "-" + h[20:32]
		if !tv.IDUsed(id) {
			return id
		}
	}
}

// idStats says whether a dataset's ids are all integers and the largest.
type idStats struct {
	numeric bool
	max     float64
}

func (tv *TableView) idStats() idStats {
	if tv.idPath == "" {
		return idStats{numeric: true, max: float64(tv.N)}
	}
	k := cacheKey{Kind: cacheMaxID, Dataset: weak.Make(tv.ds), Spec: tv.idPath}
	st, _ := getOrMake(tv.View.env.Cache, k, func() (idStats, int64, error) {
		st := idStats{numeric: true}
		for r := int32(0); r < tv.N && st.numeric; r++ {
			f, ok := integerID(tv.ID(r))
			st.numeric, st.max = ok, max(st.max, f)
		}
		return st, 1, nil
	})
	return st
}
