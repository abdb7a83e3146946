# mockgql — make targets. `make test` is what CI runs (.ci/run).
#
# Race detector: every package runs with -race. The exception reserved for
# tests that start several protoactor-go nodes in one process (protoactor-go
# v0.0.0-20240822202345 races inside its own code there: grpclog.SetLoggerV2
# per Remote.Start, MemberList reads without a lock, disthash's unlocked
# rendezvous swap; shared/research/protoactor.md §5) is NORACE_PKGS; it is
# empty while every test runs single-node processes.

GO          ?= go
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2
NORACE_PKGS :=
RACE_PKGS   := ./...

.PHONY: test run build bench lint js-deps cluster

test: lint js-deps
	$(GO) test -race -count=1 -timeout 12m $(RACE_PKGS)
	$(if $(NORACE_PKGS),$(GO) test -count=1 -timeout 12m $(NORACE_PKGS))

run:
	$(GO) run ./cmd/mockgql serve

build:
	CGO_ENABLED=0 $(GO) build -trimpath -o bin/mockgql ./cmd/mockgql

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
