#!/usr/bin/env bash
# Builds Docker Compose (the `docker compose` CLI plugin, which also runs on its own) from the Go module
# proxy once and caches it, so that `docker compose config` can check docker/docker-compose.yml on a
# machine without the plugin (no Docker engine is needed for that). Prints the path of the binary.
# Its go.mod has exclude directives, which `go install module@version` refuses: the module's source is
# built as the main module instead, with its own go.mod and go.sum.
set -euo pipefail
version=v2.40.3
cache="${XDG_CACHE_HOME:-$HOME/.cache}/pylon/docker-compose-$version"
if [ ! -x "$cache/docker-compose" ]; then
  echo "building Docker Compose $version into $cache (once)…" >&2
  build=$(mktemp -d)
  trap 'chmod -R u+w "$build"; rm -rf "$build"' EXIT
  source=$(cd "$build" && GOFLAGS=-mod=mod go mod download -json "github.com/docker/compose/v2@$version" | python3 -c 'import json, sys; print(json.load(sys.stdin)["Dir"])')
  cp -r "$source" "$build/compose"
  chmod -R u+w "$build/compose"
  mkdir -p "$cache"
  (cd "$build/compose" && GOFLAGS=-mod=mod go build -trimpath -o "$cache/docker-compose" ./cmd) >&2
fi
echo "$cache/docker-compose"
