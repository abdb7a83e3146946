package http

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics is the node's Prometheus registry: requests by route and status,
// latency, and grain activations. It implements actors.Metrics.
type Metrics struct {
	reg         *prometheus.Registry
	requests    *prometheus.CounterVec
	latency     *prometheus.HistogramVec
	activations *prometheus.CounterVec
	passivated  *prometheus.CounterVec
}

// NewMetrics returns a registry with the Go and process collectors.
func NewMetrics() *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "mockgql_http_requests_total",
		Help: "HTTP requests by route and status code."}, []string{"route", "code"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "mockgql_http_request_seconds",
		Help: "HTTP request latency by route.", Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5}},
		[]string{"route"})
	m.activations = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "mockgql_grain_activations_total",
		Help: "Grain activations by kind."}, []string{"kind"})
	m.passivated = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "mockgql_grain_passivations_total",
		Help: "Grain passivations (stops) by kind."}, []string{"kind"})
	m.reg.MustRegister(m.requests, m.latency, m.activations, m.passivated,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the metrics in Prometheus text format.
func (m *Metrics) Handler() http.Handler { return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{}) }

// GrainActivated counts an activation.
func (m *Metrics) GrainActivated(kind string) { m.activations.WithLabelValues(kind).Inc() }

// GrainPassivated counts a passivation.
func (m *Metrics) GrainPassivated(kind string) { m.passivated.WithLabelValues(kind).Inc() }

// metricsFor records requests and latency of a route. The counter of each
// status is looked up once and kept, so a request costs two atomic adds.
func (s *Server) metricsFor(route string) gin.HandlerFunc {
	lat := s.metrics.latency.WithLabelValues(route)
	var byStatus sync.Map // int → prometheus.Counter
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		if !c.GetBool(streamKey) { // a subscription's life is no request latency
			lat.Observe(time.Since(start).Seconds())
		}
		status := c.Writer.Status()
		ctr, ok := byStatus.Load(status)
		if !ok {
			ctr, _ = byStatus.LoadOrStore(status, s.metrics.requests.WithLabelValues(route, strconv.Itoa(status)))
		}
		ctr.(prometheus.Counter).Inc()
	}
}
