#!/usr/bin/env bash
# Builds the Temporal CLI from the Go module proxy once and caches it (no binary downloads).
# Prints the path of the binary.
set -euo pipefail
cache="${XDG_CACHE_HOME:-$HOME/.cache}/pylon/bin"
if [ ! -x "$cache/temporal" ]; then
  echo "building the Temporal CLI into $cache (once)…" >&2
  mkdir -p "$cache"
  GOBIN="$cache" GOFLAGS=-mod=mod go install github.com/temporalio/cli/cmd/temporal@v1.5.1 >&2
fi
echo "$cache/temporal"
