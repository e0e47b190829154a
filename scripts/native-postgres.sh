#!/usr/bin/env bash
# Starts a native PostgreSQL with pgvector from the PyPI wheel `pgserver` (installed if missing),
# for running the test suite against a real server; with PG_BIN, the PostgreSQL whose binaries are there
# instead (the cluster topology runs Temporal's store on Debian's, which has the contrib extensions). Usage:
#   scripts/native-postgres.sh start <data-dir> <port>   # prints the DATABASE_URL
#   scripts/native-postgres.sh stop <data-dir>
# PostgreSQL refuses to run as root, so as root the server runs as the unprivileged user `pylonpg`.
set -euo pipefail
action=${1:?start|stop}
data_dir=${2:?data dir}
port=${3:-55432}

pgserver_binaries() {
  python3 -c 'import pgserver' 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check pgserver >&2
  install=$(python3 -c 'import os, pgserver; print(os.path.join(os.path.dirname(pgserver.__file__), "pginstall"))' 2>/dev/null)
  if [ "$(id -u)" = 0 ]; then
    # The wheel lives under root's home, which the unprivileged server user cannot read: use a copy.
    # Its binaries find their libraries at ../../../pgserver.libs, so copy both side by side.
    if [ ! -x /opt/pylon-pgserver/pgserver/pginstall/bin/postgres ]; then
      rm -rf /opt/pylon-pgserver && mkdir -p /opt/pylon-pgserver/pgserver
      cp -a "$install" /opt/pylon-pgserver/pgserver/pginstall
      cp -a "$install/../../pgserver.libs" /opt/pylon-pgserver/pgserver.libs
      chmod -R a+rX /opt/pylon-pgserver
    fi
    install=/opt/pylon-pgserver/pgserver/pginstall
  fi
  echo "$install/bin"
}
bin=${PG_BIN:-$(pgserver_binaries)}

as_owner() {
  if [ "$(id -u)" = 0 ]; then su -s /bin/sh pylonpg -c "$*"; else sh -c "$*"; fi
}

# As root the server runs as pylonpg, which must be able to enter every folder above its data. A data
# directory under one it cannot enter (a checkout in /root, a `mktemp -d` folder: both 0700) is kept in
# /var/lib/pylon-postgres instead, named after the path asked for, and that path becomes a symbolic link
# to it; nothing above it changes its permissions. Prints the directory the server uses.
reachable_data_dir() {
  local asked=$1 parent
  if [ -L "$asked" ]; then readlink -f "$asked"; return; fi
  parent=$(dirname "$(readlink -f "$asked")")
  if su -s /bin/sh pylonpg -c "cd '$parent'" 2>/dev/null; then readlink -f "$asked"; return; fi
  local kept
  kept=/var/lib/pylon-postgres/$(readlink -f "$asked" | sha256sum | cut -c1-16)
  mkdir -p /var/lib/pylon-postgres "$kept"
  chmod 755 /var/lib/pylon-postgres
  # Data already initialised in place (by an earlier version of this script) moves along with the link.
  if [ -n "$(ls -A "$asked")" ] && [ -z "$(ls -A "$kept")" ]; then cp -a "$asked/." "$kept/"; fi
  rm -rf "$asked" && ln -s "$kept" "$asked"
  echo "pylon-postgres: $asked is under a folder the server user pylonpg cannot enter; its data is kept in $kept" >&2
  echo "$kept"
}

case "$action" in
  start)
    if [ "$(id -u)" = 0 ] && ! id pylonpg >/dev/null 2>&1; then useradd --system --no-create-home pylonpg; fi
    mkdir -p "$data_dir"
    if [ "$(id -u)" = 0 ]; then
      data_dir=$(reachable_data_dir "$data_dir")
      chown -R pylonpg "$data_dir"
    fi
    chmod 700 "$data_dir"
    if [ ! -f "$data_dir/PG_VERSION" ]; then
      as_owner "'$bin/initdb' -D '$data_dir' -U postgres --auth=trust -E UTF8 >/dev/null"
    fi
    as_owner "'$bin/pg_ctl' -D '$data_dir' -l '$data_dir/server.log' -o \"-p $port -k '$data_dir' -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off\" -w start >/dev/null"
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    [ -L "$data_dir" ] && data_dir=$(readlink -f "$data_dir")
    as_owner "'$bin/pg_ctl' -D '$data_dir' -m fast -w stop >/dev/null" || true
    ;;
  *) echo "unknown action $action" >&2; exit 2 ;;
esac
