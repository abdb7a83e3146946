# mockgql — make targets. `make test` is what CI runs (.ci/run).
#
# Race detector: every package and test runs with -race except the
# multi-node cluster tests (TestCluster*: the node processes of cmd/mockgql,
# which are the test binary itself, and the in-process nodes of cluster/):
# protoactor-go v0.0.0-20240822202345 races inside its own code as soon as
# a second member joins (remote.BlockList.Block from gossip against
# BlockedMembers read by MemberList.Length; also disthash's unlocked
# rendezvous swap, MemberList reads without a lock, and grpclog's global
# logger set at each start). Our own code in those tests is the
# same code the race-checked single-node tests run.
#
# The engine's differential tests (thousands of random queries and
# overlay versions checked against a naive reference; TestListDifferential
# matches TestListDifferentialSparse too) and the column store's radix
# sorts checked against a comparison sort (TestSortedMatchesNaive) also
# run without -race: they drive the engine from their one goroutine (the
# only other is a lazily built index's background build), so the
# detector, which made them 5 to 10 times slower (11 minutes of test time
# in the race pass), has almost nothing to check there; the concurrent
# paths (caches, overlays, background index builds, parallel requests)
# are race-checked by the other tests of graphql, dataset, actors,
# app and cmd/mockgql. The second pass builds and runs only the packages
# that hold them, NORACE_PKGS; TestNoRacePackagesListed
# (internal/testreport) fails when a test NORACE_TESTS names lives in a
# package the list lacks, or a listed package holds none.
#
# The tests with an in-process node (startServer) run one at a time in a
# test process (protoactor sets gRPC's global logger at each start), so
# SHARD_PKGS (cmd/mockgql, the longest by far) runs in two -race
# processes of its own beside the race pass over the other packages: the
# board tests (SHARD_TESTS; the guard checks these too), about half of
# that tier, and the rest.
#
# Tests marked t.Parallel (the node-process tests: each has its own ports,
# data folder and clock) run up to TEST_PARALLEL at a time within a
# package; they mostly wait on their processes, so more than the 2 cores.

GO          ?= go
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2
NORACE_TESTS := TestCluster|TestListDifferential|TestPowerDifferential|TestOverlayPatchMatchesFull|TestSortedMatchesNaive
NORACE_PKGS  := ./cluster ./cmd/mockgql ./dataset ./engine ./graphql
# ALONE_TESTS (no-race tests of NORACE_PKGS) run last, when no other test
# runs: TestClusterPartition adds network namespaces and veth pairs, and
# Chromium aborts every request in flight when the host's interfaces
# change (net::ERR_NETWORK_CHANGED), which failed board tests at random
# while the two passes overlapped. TestClusterContainers (the container
# tier: `make image`, then three containers and the compose cluster under
# Docker) adds bridges and veth pairs too, so it runs there as well.
ALONE_TESTS  := ^TestClusterPartition$$|^TestClusterContainers$$
SHARD_TESTS  := ^TestBoard
SHARD_PKGS   := ./cmd/mockgql
TEST_PARALLEL ?= 4

.PHONY: test test-norace run build bench lint js-deps cluster

# The passes (.ci/test-passes): the race pass then the no-race pass, and
# beside them the two of cmd/mockgql, printed after; all run to the end (a
# failure in one no longer hides another's results); internal/testreport
# turns their -json into go test's usual output (ok/FAIL lines, failing
# tests' logs), lists the slowest tests and exits 1 when anything failed.
SHELL := /bin/bash
test: lint js-deps
	GO='$(GO)' TEST_PARALLEL='$(TEST_PARALLEL)' NORACE_TESTS='$(NORACE_TESTS)' NORACE_PKGS='$(NORACE_PKGS)' \
		ALONE_TESTS='$(ALONE_TESTS)' SHARD_TESTS='$(SHARD_TESTS)' SHARD_PKGS='$(SHARD_PKGS)' .ci/test-passes

# A quick local run: every test once, without the race detector, no lint.
# Not what CI runs; `make test` before you push.
test-norace: js-deps
	set -o pipefail; $(GO) test -count=1 -timeout 20m -parallel $(TEST_PARALLEL) -json ./... | $(GO) run ./internal/testreport -top 20

# The port and anything else: make run ARGS='--http 127.0.0.1:9090'
# (or MGQ_HTTP=127.0.0.1:9090 make run; every flag has its MGQ_ variable).
ARGS ?=
run:
	@echo "mockgql serve $(ARGS)  (another address: make run ARGS='--http 127.0.0.1:9090'; all flags: go run ./cmd/mockgql serve --help)"
	$(GO) run ./cmd/mockgql serve $(ARGS)

build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags="-s -w" -o bin/mockgql ./cmd/mockgql

# Three local nodes on loopback: HTTP 127.0.0.1:8081-8083, memberlist
# 127.0.0.1:7947-7949, data and logs in data/cluster/. Ctrl-C stops all three.
cluster: build
	@sh deploy/cluster.sh bin/mockgql

lint:
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(STATICCHECK) ./...
	@$(GO) mod tidy -diff >/dev/null || { echo "go mod tidy would change go.mod/go.sum"; exit 1; }

# graphql-js and the JS clients, used by the tests that check our
# introspection and runtime with the tools people use. `npm ci` runs only
# where package-lock.json differs from the copy node_modules/.mgq-installed-lock
# kept at the last install (npm ci empties node_modules first, so a failed
# install leaves no stamp and runs again). A failing `npm ci`
# fails the build (it used to be ignored, and those tests then skipped).
# Without npm: an error when MGQ_REQUIRE_TOOLS=1 (CI), else a notice (the
# tests then skip, or fail under MGQ_REQUIRE_TOOLS=1).
js-deps:
	@if command -v npm >/dev/null 2>&1; then \
		for d in graphql/testdata/graphqljs cmd/mockgql/testdata/js cmd/mockgql/testdata/js17 realtime/testdata/js testcontainers/node; do \
			if [ -f $$d/package-lock.json ] && ! cmp -s $$d/package-lock.json $$d/node_modules/.mgq-installed-lock; then \
				(cd $$d && npm ci --silent --no-audit --no-fund && cp package-lock.json node_modules/.mgq-installed-lock) \
					|| { echo "npm ci failed in $$d"; exit 1; }; \
			fi; \
		done; \
	elif [ "$$MGQ_REQUIRE_TOOLS" = 1 ]; then echo "npm not found and MGQ_REQUIRE_TOOLS=1"; exit 1; \
	else echo "npm not found: the graphql-js and JS client tests will skip"; fi

bench:
	$(GO) run ./cmd/benchmark

# The image (deploy/Dockerfile, FROM scratch): the static binary of `make
# build`, the host's CA bundle, a passwd naming the non-root user 65532 and
# an empty data folder, laid out in IMAGE_CTX; no base image to pull, so
# it builds offline. Prints the image's size. IMAGE names the tag.
IMAGE     ?= mockgql:latest
IMAGE_CTX := bin/image
CA_BUNDLE ?= /etc/ssl/certs/ca-certificates.crt
.PHONY: image
image: build
	@[ -s "$(CA_BUNDLE)" ] || { echo "no CA bundle at $(CA_BUNDLE) (apt-get install ca-certificates, or CA_BUNDLE=...)"; exit 1; }
	rm -rf $(IMAGE_CTX)
	mkdir -p $(IMAGE_CTX)/etc/ssl/certs $(IMAGE_CTX)/data
	cp bin/mockgql $(IMAGE_CTX)/mockgql
	cp $(CA_BUNDLE) $(IMAGE_CTX)/etc/ssl/certs/ca-certificates.crt
	printf 'root:x:0:0:root:/:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/data:/sbin/nologin\n' >$(IMAGE_CTX)/etc/passwd
	printf 'root:x:0:\nnonroot:x:65532:\n' >$(IMAGE_CTX)/etc/group
	DOCKER_BUILDKIT=0 docker build -q -f deploy/Dockerfile -t $(IMAGE) $(IMAGE_CTX)
	@docker image inspect -f '{{.Size}}' $(IMAGE) | awk '{ printf "image $(IMAGE): %.1f MB\n", $$1 / 1e6 }'

# make bench-ab REF=<commit> [ARGS='-only cluster -rounds 5']: the working
# tree's mockgql against REF's, interleaved (docs/benchmarks.md).
.PHONY: bench-ab
bench-ab:
	@test -n "$(REF)" || { echo "usage: make bench-ab REF=<commit> [ARGS='-only GROUP']"; exit 1; }
	$(GO) run ./cmd/benchmark -ab $(REF) $(ARGS)
