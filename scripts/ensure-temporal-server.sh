#!/usr/bin/env bash
# Builds the Temporal server, its SQL schema tool and the Temporal UI server from the Go module proxy once
# and caches them (no binary downloads): what `npm run start:cluster` and the cluster test leg run.
# Prints the cache directory, which holds temporal-server, temporal-sql-tool, temporal-ui-server and the
# server's PostgreSQL schema (schema/postgresql/v12/...).
set -euo pipefail
server_version=v1.29.1
ui_version=v2.42.1
cache="${XDG_CACHE_HOME:-$HOME/.cache}/pylon/temporal-server-$server_version"
if [ ! -x "$cache/temporal-server" ] || [ ! -x "$cache/temporal-sql-tool" ] || [ ! -x "$cache/temporal-ui-server" ] || [ ! -d "$cache/schema" ]; then
  echo "building the Temporal server $server_version, its SQL tool and the UI server $ui_version into $cache (once)…" >&2
  build=$(mktemp -d)
  trap 'rm -rf "$build"' EXIT
  mkdir -p "$cache" "$build/server" "$build/ui"
  GOBIN="$build/server" GOFLAGS=-mod=mod go install "go.temporal.io/server/cmd/server@$server_version" "go.temporal.io/server/cmd/tools/sql@$server_version" >&2
  GOBIN="$build/ui" GOFLAGS=-mod=mod go install "github.com/temporalio/ui-server/v2/cmd/server@$ui_version" >&2
  modules=$(go env GOMODCACHE)
  rm -rf "$cache/schema"
  cp -r "$modules/go.temporal.io/server@$server_version/schema" "$cache/schema"
  chmod -R u+w "$cache/schema"
  mv "$build/server/server" "$cache/temporal-server"
  mv "$build/server/sql" "$cache/temporal-sql-tool"
  mv "$build/ui/server" "$cache/temporal-ui-server"
fi
echo "$cache"
