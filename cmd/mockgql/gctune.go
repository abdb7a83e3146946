package main

import (
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// gcTuner keeps the garbage collector from running more often than once
// per headroom bytes allocated while the live heap is small. Go collects
// when the heap has grown by GOGC% of what was live: a node serving small
// requests (a flood of refusals, short lists) with a few MB live collects
// dozens of times a second, each time scanning the same few MB of
// long-lived structures, and that came to a tenth of the CPU of a refused
// request. After each collection the tuner sets GOGC so that the next one
// comes after max(live, headroom) bytes: 100% growth as usual once the live
// heap passes headroom (a node holding large datasets is unaffected), and
// at most headroom more memory while it is smaller. This is the technique
// of Uber's GOGC tuning, in a few lines; GOGC set in the environment turns
// it off (the operator chose).
//
// At the other end, a node holding large datasets has a live heap that is
// mostly immutable, pointer-free columns and indexes (hundreds of MB);
// doubling it before each collection keeps as much again in garbage, and
// resident memory follows. So the growth is also capped at maxGrowth bytes
// (never below headroom): a collection then marks the same live heap more
// often, and since its big arrays hold no pointers, that costs little.
type gcTuner struct {
	headroom  uint64
	maxGrowth uint64
	percent   int
	sample    []metrics.Sample
	log       *slog.Logger
}

// startGCTuner starts tuning after each collection; headroom 0 or GOGC in
// the environment leaves Go's default. maxGrowth 0 leaves large heaps at
// Go's doubling.
func startGCTuner(headroom, maxGrowth uint64, log *slog.Logger) {
	if headroom == 0 || os.Getenv("GOGC") != "" {
		return
	}
	t := &gcTuner{headroom: headroom, maxGrowth: maxGrowth, percent: 100, log: log,
		sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	t.tune()
	t.arm()
}

// gcSentinel is garbage whose finalizer runs after each collection.
type gcSentinel struct{ t *gcTuner }

func (t *gcTuner) arm() {
	runtime.SetFinalizer(&gcSentinel{t}, func(s *gcSentinel) {
		s.t.tune()
		s.t.arm()
	})
}

// tune sets GOGC from the live heap of the last collection.
func (t *gcTuner) tune() {
	metrics.Read(t.sample)
	if t.sample[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	percent := gcPercentFor(t.sample[0].Value.Uint64(), t.headroom, t.maxGrowth)
	// Only a real change: SetGCPercent is cheap, but not free.
	if percent*10 < t.percent*9 || percent*10 > t.percent*11 {
		debug.SetGCPercent(percent)
		t.percent = percent
		t.log.Debug("GOGC tuned", "percent", percent, "live_bytes", t.sample[0].Value.Uint64())
	}
}

// gcPercentFor is the GOGC that makes the next collection come after
// max(live, headroom) more bytes, at most max(maxGrowth, headroom) when
// maxGrowth > 0 (a live heap under 1 MB counts as 1 MB, and GOGC stays
// between 10 and 2000).
func gcPercentFor(live, headroom, maxGrowth uint64) int {
	live = max(live, 1<<20)
	growth := max(live, headroom)
	if maxGrowth > 0 {
		growth = min(growth, max(maxGrowth, headroom))
	}
	return max(10, min(int(growth*100/live), 2000))
}

// The defaults of --gc-headroom and --gc-max-growth.
const (
	defaultGCHeadroom  = 32 << 20
	defaultGCMaxGrowth = 64 << 20
)
