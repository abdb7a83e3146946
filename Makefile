# mockgql — make targets. `make test` is what CI runs (.ci/run).
#
# Race detector: every package and test runs with -race except the
# multi-node cluster tests (TestCluster*: the node processes of cmd/mockgql,
# which are the test binary itself, and the in-process nodes of cluster/):
# protoactor-go v0.0.0-20240822202345 races inside its own code as soon as
# a second member joins (remote.BlockList.Block from gossip against
# BlockedMembers read by MemberList.Length; also disthash's unlocked
# rendezvous swap and MemberList reads without a lock,
# shared/research/protoactor.md §5). Our own code in those tests is the
# same code the race-checked single-node tests run.

GO          ?= go
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2
NORACE_TESTS := TestCluster

.PHONY: test run build bench lint js-deps cluster

test: lint js-deps
	$(GO) test -race -count=1 -timeout 12m -skip '$(NORACE_TESTS)' ./...
	$(GO) test -count=1 -timeout 8m -run '$(NORACE_TESTS)' ./cluster/ ./cmd/mockgql/

run:
	$(GO) run ./cmd/mockgql serve

build:
	CGO_ENABLED=0 $(GO) build -trimpath -o bin/mockgql ./cmd/mockgql

# Three local nodes on loopback: HTTP 127.0.0.1:8081-8083, memberlist
# 127.0.0.1:7947-7949, data and logs in data/cluster/. Ctrl-C stops all three.
cluster: build
	@sh deploy/cluster.sh bin/mockgql

lint:
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(STATICCHECK) ./...
	@$(GO) mod tidy -diff >/dev/null || { echo "go mod tidy would change go.mod/go.sum"; exit 1; }

# graphql-js, used by the tests that check our introspection and runtime
# with the tools people use. Skipped (tests then skip) when npm is missing.
js-deps:
	@if command -v npm >/dev/null 2>&1; then \
		for d in graphql/testdata/graphqljs cmd/mockgql/testdata/js; do \
			[ -f $$d/package-lock.json ] && (cd $$d && npm ci --silent --no-audit --no-fund) || true; \
		done; \
	else echo "npm not found: graphql-js tests will skip"; fi

bench:
	$(GO) run ./cmd/benchmark
