#!/bin/sh
# Regenerates the .pb.go files of this folder from mockgql/cluster/v1/*.proto
# with protoc (Debian: protobuf-compiler) and protoc-gen-go at the version
# go.mod pins (google.golang.org/protobuf). `go generate ./cluster/pb/` runs
# it; with OUT=<dir> it writes there instead (the currency check,
# TestGeneratedCurrent).
set -eu
cd "$(dirname "$0")"
out=${OUT:-.}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/protoc-gen-go" google.golang.org/protobuf/cmd/protoc-gen-go
protoc --plugin=protoc-gen-go="$bin/protoc-gen-go" --go_out="$out" --go_opt=paths=source_relative \
	mockgql/cluster/v1/*.proto
# paths=source_relative writes into mockgql/cluster/v1/: move the files up.
mv "$out"/mockgql/cluster/v1/*.pb.go "$out"/
