#!/usr/bin/env bash
# Installs schemathesis (PyPI) into a cached virtualenv once. Prints the path of its CLI.
set -euo pipefail
version=4.32.5
venv="${XDG_CACHE_HOME:-$HOME/.cache}/pylon/schemathesis-$version"
if [ ! -x "$venv/bin/schemathesis" ]; then
  echo "installing schemathesis $version into $venv (once)…" >&2
  rm -rf "$venv"
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$version" >&2
fi
echo "$venv/bin/schemathesis"
