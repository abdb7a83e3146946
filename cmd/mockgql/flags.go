package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/http"
)

// envName is the environment variable of a flag: --ip-limit → MGQ_IP_LIMIT.
func envName(flagName string) string {
	return "MGQ_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// parse applies MGQ_* environment variables, then the command line (which wins).
func parse(fs *flag.FlagSet, args []string) error {
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if v, ok := os.LookupEnv(envName(f.Name)); ok && err == nil {
			if e := fs.Set(f.Name, v); e != nil {
				err = fmt.Errorf("%s=%q: %w", envName(f.Name), v, e)
			}
		}
	})
	if err != nil {
		return err
	}
	return fs.Parse(args)
}

// defaultServer is the --server of the commands that talk to a node: a
// node serving with its defaults (http.DefaultConfig's address).
func defaultServer() string { return "http://" + http.DefaultConfig().Addr }

// list is a comma-separated flag value.
type list []string

func (l *list) String() string { return strings.Join(*l, ",") }

func (l *list) Set(v string) error {
	*l = nil
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
		}
	}
	return nil
}

// surfaceConfig is the settings of the bounds against abuse of the request
// surface (docs/reference/bounds.md). Zero values (tests that build a
// serveConfig by hand) leave the per-IP windows and the connection cap off
// and give the response bounds their defaults.
type surfaceConfig struct {
	MaxResponseBytes, MaxResponseItems, ResponseBudgetMB int
	IPLimitManagement, IPLimitPublic, IPLimitCreate      int
	LoginAttempts, MaxConnsPerIP                         int
	BodyTimeout                                          time.Duration
	MetricsAddr                                          string
	// The document budget (graphql.DocumentBounds) and the static
	// surfaces' cost budget and deadlines; zero takes the defaults.
	MaxQueryTokens, MaxQueryFragments, MaxQuerySpreads, MaxQueryWalk int
	MaxManagementCost                                                int
	ManagementQueryTimeout, ManagementMutationTimeout                time.Duration
}

func surfaceFlags(fs *flag.FlagSet, c *surfaceConfig) {
	fs.IntVar(&c.MaxResponseBytes, "max-response-bytes", exec.DefaultMaxResponseBytes, "largest GraphQL response data, in bytes; a bigger one is refused 413 PAYLOAD_TOO_LARGE")
	fs.IntVar(&c.MaxResponseItems, "max-response-items", exec.DefaultMaxItems, "most list items (rows, related rows) one GraphQL request may complete; more is refused 413 PAYLOAD_TOO_LARGE")
	fs.IntVar(&c.ResponseBudgetMB, "response-budget-mb", exec.DefaultBudgetBytes>>20, "the node's budget of GraphQL response bytes being written at once, in MB; a request that finds it spent is refused 503 UNAVAILABLE")
	fs.IntVar(&c.IPLimitManagement, "ip-limit-management", actors.DefaultIPLimitManagement, "/graphql and /datasets requests a minute per client IP (0 = off)")
	fs.IntVar(&c.IPLimitPublic, "ip-limit-public", actors.DefaultIPLimitPublic, "/public-graphql requests a minute per client IP (0 = off)")
	fs.IntVar(&c.IPLimitCreate, "ip-limit-create", actors.DefaultIPLimitCreate, "sign-ups, guest projects and session projects a minute per client IP (0 = off)")
	fs.IntVar(&c.LoginAttempts, "login-attempts", actors.DefaultLoginAttempts, "consecutive failed logins per e-mail address, from any IP, before a back-off of 1 min doubling to 1 h (0 = off)")
	fs.IntVar(&c.MaxConnsPerIP, "max-conns-per-ip", http.DefaultMaxConnsPerIP, "connections one peer IP may hold open at once (0 = off)")
	fs.DurationVar(&c.BodyTimeout, "body-timeout", http.DefaultConfig().BodyTimeout, "time a request body may take to arrive after its headers (a dataset upload: the longest pause); also the longest pause of a client reading a GraphQL answer")
	fs.StringVar(&c.MetricsAddr, "metrics-addr", "", "serve /metrics on this address only, not on --http (keep it private)")
	budgetFlags(fs, c)
}

// budgetFlags are the flags of the document budget, every GraphQL
// surface's, and of the management API's cost budget and deadlines.
func budgetFlags(fs *flag.FlagSet, c *surfaceConfig) {
	h := http.DefaultConfig()
	fs.IntVar(&c.MaxQueryTokens, "max-query-tokens", exec.DefaultMaxTokens, "most tokens (names, values, punctuation, comments) of a GraphQL document; more is refused 400 before validation")
	fs.IntVar(&c.MaxQueryFragments, "max-query-fragments", exec.DefaultMaxFragments, "most fragment definitions of a GraphQL document, used or not; more is refused 400 before validation")
	fs.IntVar(&c.MaxQuerySpreads, "max-query-spreads", exec.DefaultMaxSpreads, "most fragment spreads written in a GraphQL document; more is refused 400 before validation")
	fs.IntVar(&c.MaxQueryWalk, "max-query-walk", exec.DefaultMaxWalk, "most fields the validator may walk: each operation's and fragment's, fragments expanded; more is refused 400 before validation")
	fs.IntVar(&c.MaxManagementCost, "max-management-cost", h.MaxCost, "cost budget of one /graphql or /public-graphql operation (projects 10, openApiSchemas 20, …; negative: off); more is refused 400 before execution")
	fs.DurationVar(&c.ManagementQueryTimeout, "management-query-timeout", h.ManagementQueryTimeout, "time limit of a /graphql or /public-graphql query (and of validating any request there)")
	fs.DurationVar(&c.ManagementMutationTimeout, "management-mutation-timeout", h.ManagementMutationTimeout, "time limit of a /graphql or /public-graphql mutation")
}

// bounds returns the node's response bounds, with its budget.
func (c surfaceConfig) bounds() exec.Bounds {
	b := exec.Bounds{MaxResponseBytes: c.MaxResponseBytes, MaxItems: c.MaxResponseItems,
		DocumentBounds: exec.DocumentBounds{MaxTokens: c.MaxQueryTokens, MaxFragments: c.MaxQueryFragments,
			MaxSpreads: c.MaxQuerySpreads, MaxWalk: c.MaxQueryWalk}}
	if c.ResponseBudgetMB > 0 {
		b.Budget = exec.NewBudget(int64(c.ResponseBudgetMB) << 20)
	}
	return b
}

// applyGrains sets the windows the grains keep, before any grain starts.
func (c surfaceConfig) applyGrains(a *actors.Config) {
	a.IPLimitManagement, a.IPLimitPublic, a.IPLimitCreate, a.LoginAttempts = c.IPLimitManagement, c.IPLimitPublic, c.IPLimitCreate, c.LoginAttempts
}

// applyHTTP sets the HTTP layer's settings.
func (c surfaceConfig) applyHTTP(h *http.Config) {
	h.IPLimitManagement, h.IPLimitPublic = c.IPLimitManagement, c.IPLimitPublic
	h.MaxConnsPerIP, h.BodyTimeout, h.MetricsAddr = c.MaxConnsPerIP, c.BodyTimeout, c.MetricsAddr
	h.MaxCost, h.ManagementQueryTimeout, h.ManagementMutationTimeout = c.MaxManagementCost, c.ManagementQueryTimeout, c.ManagementMutationTimeout
}
