#!/bin/sh
# Regenerates the .pb.go files of a pb package from its <dir>/*.proto with
# protoc (Debian: protobuf-compiler) and protoc-gen-go at the version go.mod
# pins (google.golang.org/protobuf). Run from the package's folder, as its
# `go generate` line does: sh ../../internal/protogen/gen.sh mockgql/cluster/v1
# (cluster/pb; from actors/internal/pb it is ../../../internal/protogen/gen.sh)
# With OUT=<dir> it writes there instead (the currency check, protogen.Check).
set -eu
dir=$1
out=${OUT:-.}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/protoc-gen-go" google.golang.org/protobuf/cmd/protoc-gen-go
protoc --plugin=protoc-gen-go="$bin/protoc-gen-go" --go_out="$out" --go_opt=paths=source_relative "$dir"/*.proto
# paths=source_relative writes into <dir>/: move the files up.
mv "$out/$dir"/*.pb.go "$out"/
