package api

import (
	"context"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/augur-verify/augur/store"
)

// metrics are the HTTP layer's Prometheus metrics.
type metrics struct {
	requests    *prometheus.CounterVec
	latency     *prometheus.HistogramVec
	submissions *prometheus.CounterVec
}

func newMetrics(reg *prometheus.Registry, st store.Store) *metrics {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "augur_http_requests_total",
			Help: "HTTP requests by method, route and status.",
		}, []string{"method", "route", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "augur_http_request_duration_seconds",
			Help:    "HTTP request latencies by method, route and status.",
			Buckets: prometheus.DefBuckets,
		}, []string{"method", "route", "status"}),
		submissions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "augur_submissions_total",
			Help: "Accepted submissions: queued, answered from an identical one (cached), or waiting for an identical one's run (shared).",
		}, []string{"outcome"}),
	}
	reg.MustRegister(m.requests, m.latency, m.submissions)
	if st != nil {
		reg.MustRegister(&queueCollector{st: st, desc: prometheus.NewDesc("augur_validations_pending",
			"Validations queued or running (at most 500 of each are counted).", []string{"status"}, nil)})
	}
	return m
}

func (m *metrics) request(method, route string, status int, d time.Duration) {
	s := strconv.Itoa(status)
	m.requests.WithLabelValues(method, route, s).Inc()
	m.latency.WithLabelValues(method, route, s).Observe(d.Seconds())
}

// queueCollector reports the queue's depth at each scrape, with one page
// of List per status.
type queueCollector struct {
	st   store.Store
	desc *prometheus.Desc
}

func (c *queueCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c *queueCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	for _, st := range []store.Status{store.Queued, store.Running} {
		vs, _, err := c.st.List(ctx, store.Filter{Status: st, Limit: 500})
		if err != nil {
			continue
		}
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(len(vs)), string(st))
	}
}

// RunnerMetrics are the workers' metrics: validations by verdict and
// their durations. Register them once per registry.
type RunnerMetrics struct {
	verdicts *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

// NewRunnerMetrics registers the workers' metrics with reg.
func NewRunnerMetrics(reg prometheus.Registerer) *RunnerMetrics {
	m := &RunnerMetrics{
		verdicts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "augur_validations_total",
			Help: "Validations run by this process's workers, by verdict (or \"cancelled\", \"error\").",
		}, []string{"verdict"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "augur_validation_duration_seconds",
			Help:    "Time to a verdict, by verdict.",
			Buckets: []float64{0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600},
		}, []string{"verdict"}),
	}
	reg.MustRegister(m.verdicts, m.duration)
	return m
}
