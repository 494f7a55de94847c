#!/usr/bin/env bash
# generate.sh: regenerates internal/a2apb from proto/ (make proto).
#
#   proto/generate.sh [OUT]     OUT defaults to internal/a2apb
#
# Pinned tools, fetched once into $A2A_CONFORM_TOOLS (default bin/tools):
#   protoc 33.5 (Maven Central com.google.protobuf:protoc:4.33.5, sha256 below)
#   protoc-gen-go v1.36.12, protoc-gen-go-grpc v1.6.2 (go install)
# Inputs, vendored under proto/ (see proto/README.md for their revisions):
#   lf/a2a/v1/a2a.proto, google/api/*.proto, google/protobuf/*.proto
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
OUT="${1:-internal/a2apb}"
TOOLS="${A2A_CONFORM_TOOLS:-$ROOT/bin/tools}"
PROTOC_VERSION=4.33.5
PROTOC_SHA256=e8d496f7dacade5bf42a11f4fbeb61e9bdfddd494fd292f5f1881ddc169e69cf
GEN_GO=google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12
GEN_GRPC=google.golang.org/grpc/cmd/protoc-gen-go-grpc@v1.6.2
MODULE="github.com/a2a-conform/a2a-conform/internal/a2apb;a2apb"

mkdir -p "$TOOLS"
protoc="$TOOLS/protoc-$PROTOC_VERSION"
if [ ! -x "$protoc" ]; then
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) classifier=linux-x86_64 ;;
    Linux-aarch64) classifier=linux-aarch_64 ;;
    *) echo "generate.sh: no pinned protoc for $(uname -s)-$(uname -m)" >&2; exit 2 ;;
  esac
  url="https://repo1.maven.org/maven2/com/google/protobuf/protoc/$PROTOC_VERSION/protoc-$PROTOC_VERSION-$classifier.exe"
  curl -sSfL -o "$protoc.part" "$url"
  if [ "$classifier" = linux-x86_64 ]; then
    echo "$PROTOC_SHA256  $protoc.part" | sha256sum -c --quiet -
  fi
  chmod +x "$protoc.part" && mv "$protoc.part" "$protoc"
fi
GOBIN="$TOOLS" go install "$GEN_GO"
GOBIN="$TOOLS" go install "$GEN_GRPC"

mkdir -p "$OUT"
"$protoc" -I proto \
  --plugin=protoc-gen-go="$TOOLS/protoc-gen-go" \
  --plugin=protoc-gen-go-grpc="$TOOLS/protoc-gen-go-grpc" \
  --go_out="$OUT" --go_opt=paths=source_relative --go_opt=Mlf/a2a/v1/a2a.proto="$MODULE" \
  --go-grpc_out="$OUT" --go-grpc_opt=paths=source_relative --go-grpc_opt=Mlf/a2a/v1/a2a.proto="$MODULE" \
  lf/a2a/v1/a2a.proto
# paths=source_relative writes lf/a2a/v1/; the package lives flat in OUT.
mv "$OUT"/lf/a2a/v1/*.go "$OUT"/
rm -r "$OUT/lf"
