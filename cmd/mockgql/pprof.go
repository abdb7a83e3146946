package main

import (
	"log/slog"
	nethttp "net/http"
	"net/http/pprof"
)

// servePprof serves Go's profiles on a separate, private listener.
func servePprof(addr string, log *slog.Logger) {
	mux := nethttp.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	if err := nethttp.ListenAndServe(addr, mux); err != nil {
		log.Error("pprof listener stopped", "err", err)
	}
}
