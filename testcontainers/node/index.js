// @mockgql/testcontainers: start mockgql (a mock GraphQL API served from a
// schema) in a container for tests, with Testcontainers for Node.
//
//   const mock = await new MockgqlContainer("mockgql:latest").withSchema(sdl).start();
//   // POST GraphQL to mock.runtimeUrl with the header X-API-Key: mock.key
//   await mock.resetMockData();   // between tests
//   await mock.stop();
//
// start() signs up an account on the fresh node (on the PROFESSIONAL plan,
// for API keys), creates a project serving the schema and a RUNTIME key.
// The image is the one `make image` builds in the mockgql repository.
// Ryuk, Testcontainers' reaper, is an image from a registry: where none is
// reachable set TESTCONTAINERS_RYUK_DISABLED=true and stop the container
// yourself (after()/afterAll). Where the tests run in a container beside
// dockerd, Testcontainers takes the default gateway for Docker's host: set
// TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1.
import { GenericContainer, Wait } from "testcontainers";

const HTTP_PORT = 8080;

export class MockgqlContainer extends GenericContainer {
  constructor(image = "mockgql:latest") {
    super(image);
    this.schema = undefined;
    this.projectName = "testcontainers";
    this.withExposedPorts(HTTP_PORT)
      // No demo (a fast start), no per-IP limits: every request of a test
      // comes from the one host address.
      .withEnvironment({ MGQ_NO_DEMO: "true", MGQ_IP_LIMIT: "0", MGQ_IP_LIMIT_CREATE: "0", MGQ_IP_LIMIT_MANAGEMENT: "0" })
      .withWaitStrategy(Wait.forHttp("/readyz", HTTP_PORT).forStatusCode(200))
      .withStartupTimeout(120_000);
  }

  /** The project serves this GraphQL schema (SDL); mockgql generates its rows. */
  withSchema(sdl) {
    this.schema = sdl;
    return this;
  }

  /** Names the project (default "testcontainers"). */
  withProjectName(name) {
    this.projectName = name;
    return this;
  }

  async start() {
    const started = await super.start();
    const url = `http://${started.getHost()}:${started.getMappedPort(HTTP_PORT)}`;
    try {
      return await StartedMockgqlContainer.setUp(started, url, this.schema, this.projectName);
    } catch (err) {
      await started.stop();
      throw err;
    }
  }
}

export class StartedMockgqlContainer {
  constructor(started, url) {
    this.started = started;
    /** The node's base URL on the host. */
    this.url = url;
    /** The owning account's bearer token for the management API (url + "/graphql"). */
    this.token = undefined;
    /** The project's id for the management API. */
    this.projectId = undefined;
    /** The project's GraphQL endpoint on the host. */
    this.runtimeUrl = undefined;
    /** A RUNTIME API key: send it as X-API-Key. */
    this.key = undefined;
  }

  static async setUp(started, url, schema, projectName) {
    const c = new StartedMockgqlContainer(started, url);
    const email = `tc-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
    const auth = await c.management(`mutation($e:String!,$p:String!){ signUp(email:$e, password:$p, name:"testcontainers") { token } }`,
      { e: email, p: "testcontainers-password" });
    c.token = auth.signUp.token;
    await c.management(`mutation { setPlan(plan: PROFESSIONAL) { plan } }`);
    const project = schema
      ? await c.management(`mutation($n:String!,$s:String!){ createProject(name:$n, sdl:$s) { id slug } }`, { n: projectName, s: schema })
      : await c.management(`mutation($n:String!){ createProject(name:$n) { id slug } }`, { n: projectName });
    c.projectId = project.createProject.id;
    c.runtimeUrl = `${url}/mock/${project.createProject.slug}/graphql`;
    const key = await c.management(`mutation($p:ID!){ createApiKey(projectId:$p, name:"testcontainers", scope: RUNTIME) { value } }`,
      { p: c.projectId });
    c.key = key.createApiKey.value;
    return c;
  }

  /**
   * Puts the project's data back as it was before any mutation: call it
   * between tests. (mockgql has no sandboxes yet; when it has, this is
   * where a test's sandbox will be reset.)
   */
  async resetMockData() {
    const d = await this.management(`mutation($p:ID!){ resetMockData(projectId:$p) }`, { p: this.projectId });
    if (d.resetMockData !== true) throw new Error("resetMockData answered " + JSON.stringify(d));
  }

  /** Runs a management API request as the account; returns its data, throws on errors. */
  async management(query, variables = {}) {
    const headers = { "Content-Type": "application/json" };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    const res = await fetch(`${this.url}/graphql`, { method: "POST", headers, body: JSON.stringify({ query, variables }) });
    const body = await res.json().catch(() => ({}));
    if (body.errors?.length) throw new Error(body.errors.map((e) => e.message).join("; "));
    if (!res.ok || !body.data) throw new Error(`${this.url}/graphql answered ${res.status}`);
    return body.data;
  }

  async stop(options) {
    return this.started.stop(options);
  }
}
