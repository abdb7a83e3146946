#!/bin/sh
# Regenerates the .pb.go files of this folder from mockgql/actors/v1/*.proto
# with protoc (Debian: protobuf-compiler) and protoc-gen-go at the version
# go.mod pins (google.golang.org/protobuf). `go generate ./actors/pb/` runs
# it; with OUT=<dir> it writes there instead (the currency check,
# TestGeneratedCurrent).
set -eu
cd "$(dirname "$0")"
out=${OUT:-.}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/protoc-gen-go" google.golang.org/protobuf/cmd/protoc-gen-go
protoc --plugin=protoc-gen-go="$bin/protoc-gen-go" --go_out="$out" --go_opt=paths=source_relative \
	--go_opt=Mmockgql/actors/v1/envelope.proto=github.com/mockgql/mockgql/actors/pb \
	mockgql/actors/v1/*.proto
# paths=source_relative writes into mockgql/actors/v1/: move the files up.
mv "$out"/mockgql/actors/v1/*.pb.go "$out"/
