// Package mockgql starts mockgql (a mock GraphQL API served from a schema)
// in a container for tests, with testcontainers-go:
//
//	c, err := mockgql.Run(ctx, "mockgql:latest", mockgql.WithSchema(`type Query { products: [Product!]! } type Product { id: ID! name: String! }`))
//	if err != nil { ... }
//	defer testcontainers.TerminateContainer(c)
//	// POST GraphQL to c.RuntimeURL with the header X-API-Key: c.Key
//	// between tests: c.ResetMockData(ctx)
//
// Run signs up an account on the fresh node (on the PROFESSIONAL plan, for
// API keys), creates a project serving the schema and a RUNTIME key for it. The image is the one `make image`
// builds in the mockgql repository (FROM scratch: nothing to pull when it
// is built locally). testcontainers-go's reaper (Ryuk) is an image from a
// registry: where none is reachable set TESTCONTAINERS_RYUK_DISABLED=true
// and terminate the container yourself (defer, t.Cleanup). Where the tests
// run in a container beside dockerd (CI machines often do),
// testcontainers-go takes the default gateway for Docker's host: set
// TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1.
package mockgql

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/wait"
)

// Container is a running mockgql node with one project. Its fields are set
// by Run and never change; its methods are safe for concurrent use.
type Container struct {
	*testcontainers.DockerContainer
	// URL is the node's base URL on the host, e.g. http://127.0.0.1:32768.
	URL string
	// RuntimeURL is the project's GraphQL endpoint on the host.
	RuntimeURL string
	// Key is a RUNTIME API key of the project: send it as X-API-Key.
	Key string
	// ProjectID is the project's id for the management API (URL + "/graphql").
	ProjectID string
	// Token is the owning account's bearer token for the management API.
	Token string
}

// settings is what the options set.
type settings struct {
	schema, project string
	customize       []testcontainers.ContainerCustomizer
}

// Option configures Run.
type Option func(*settings)

// WithSchema makes the project serve this GraphQL schema (SDL); mockgql
// generates its mock data. Without it the project starts empty.
func WithSchema(sdl string) Option { return func(s *settings) { s.schema = sdl } }

// WithProjectName names the project (default "testcontainers").
func WithProjectName(name string) Option { return func(s *settings) { s.project = name } }

// WithCustomizer passes testcontainers-go options (testcontainers.WithEnv
// with MGQ_* settings, WithName, networks…) to the container request.
func WithCustomizer(c ...testcontainers.ContainerCustomizer) Option {
	return func(s *settings) { s.customize = append(s.customize, c...) }
}

// Run starts image, waits until its /readyz answers 200 and makes the
// project. On an error after the container started, the container is
// returned too (terminate it).
func Run(ctx context.Context, image string, opts ...Option) (*Container, error) {
	s := settings{project: "testcontainers"}
	for _, o := range opts {
		o(&s)
	}
	custom := append([]testcontainers.ContainerCustomizer{
		testcontainers.WithExposedPorts("8080/tcp"),
		// No demo (a fast start), and no per-IP limits: every request of a
		// test comes from the one host address.
		testcontainers.WithEnv(map[string]string{"MGQ_NO_DEMO": "true", "MGQ_IP_LIMIT": "0", "MGQ_IP_LIMIT_CREATE": "0",
			"MGQ_IP_LIMIT_MANAGEMENT": "0"}),
		testcontainers.WithWaitStrategyAndDeadline(2*time.Minute, wait.ForHTTP("/readyz").WithPort("8080/tcp")),
	}, s.customize...)
	dc, err := testcontainers.Run(ctx, image, custom...)
	if err != nil {
		return &Container{DockerContainer: dc}, fmt.Errorf("mockgql container: %w", err)
	}
	c := &Container{DockerContainer: dc}
	endpoint, err := dc.PortEndpoint(ctx, "8080/tcp", "http")
	if err != nil {
		return c, err
	}
	c.URL = endpoint
	if err := c.setUp(ctx, s); err != nil {
		return c, fmt.Errorf("mockgql project: %w", err)
	}
	return c, nil
}

// setUp signs up, creates the project and its key.
func (c *Container) setUp(ctx context.Context, s settings) error {
	var auth struct {
		SignUp struct{ Token string } `json:"signUp"`
	}
	if err := c.management(ctx, `mutation($e:String!,$p:String!){ signUp(email:$e, password:$p, name:"testcontainers") { token } }`,
		map[string]any{"e": fmt.Sprintf("tc-%d@example.com", time.Now().UnixNano()), "p": "testcontainers-password"}, &auth); err != nil {
		return err
	}
	c.Token = auth.SignUp.Token
	// API keys come with the paid plans; a mock's billing is a mutation.
	var plan struct{ SetPlan struct{ Plan string } }
	if err := c.management(ctx, `mutation { setPlan(plan: PROFESSIONAL) { plan } }`, nil, &plan); err != nil {
		return err
	}
	var project struct {
		CreateProject struct{ ID, Slug string } `json:"createProject"`
	}
	q, vars := `mutation($n:String!){ createProject(name:$n) { id slug } }`, map[string]any{"n": s.project}
	if s.schema != "" {
		q, vars["s"] = `mutation($n:String!,$s:String!){ createProject(name:$n, sdl:$s) { id slug } }`, s.schema
	}
	if err := c.management(ctx, q, vars, &project); err != nil {
		return err
	}
	c.ProjectID = project.CreateProject.ID
	c.RuntimeURL = c.URL + "/mock/" + project.CreateProject.Slug + "/graphql"
	var key struct {
		CreateAPIKey struct{ Value string } `json:"createApiKey"`
	}
	if err := c.management(ctx, `mutation($p:ID!){ createApiKey(projectId:$p, name:"testcontainers", scope: RUNTIME) { value } }`,
		map[string]any{"p": c.ProjectID}, &key); err != nil {
		return err
	}
	c.Key = key.CreateAPIKey.Value
	return nil
}

// ResetMockData puts the project's data back as it was before any
// mutation: call it between tests. (mockgql has no sandboxes yet; when it
// has, this is where a test's sandbox will be reset.)
func (c *Container) ResetMockData(ctx context.Context) error {
	var out struct{ ResetMockData bool }
	if err := c.management(ctx, `mutation($p:ID!){ resetMockData(projectId:$p) }`, map[string]any{"p": c.ProjectID}, &out); err != nil {
		return err
	}
	if !out.ResetMockData {
		return errors.New("resetMockData answered false")
	}
	return nil
}

// management runs a request against the management API (URL + /graphql)
// as the account, decoding its data into out.
func (c *Container) management(ctx context.Context, query string, vars map[string]any, out any) error {
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL+"/graphql", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return err
	}
	var answer struct {
		Data   json.RawMessage
		Errors []struct{ Message string }
	}
	if err := json.Unmarshal(raw, &answer); err != nil {
		return fmt.Errorf("%s: %d %s", c.URL, resp.StatusCode, raw)
	}
	if len(answer.Errors) > 0 {
		var msgs []string
		for _, e := range answer.Errors {
			msgs = append(msgs, e.Message)
		}
		return errors.New(strings.Join(msgs, "; "))
	}
	return json.Unmarshal(answer.Data, out)
}
