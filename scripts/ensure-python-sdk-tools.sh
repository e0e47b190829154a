#!/usr/bin/env bash
# The Python SDK's development tools from PyPI, in a cached virtualenv made once: datamodel-code-generator
# (its models, from the OpenAPI document) and mypy (the type check of a sample). Prints the virtualenv's path.
set -euo pipefail
venv="${XDG_CACHE_HOME:-$HOME/.cache}/pylon/python-sdk-tools-1"
if [ ! -x "$venv/bin/mypy" ] || [ ! -x "$venv/bin/datamodel-codegen" ]; then
  echo "installing datamodel-code-generator and mypy into $venv (once)…" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "datamodel-code-generator==0.89.0" "mypy==2.4.1" "httpx>=0.27" >&2
fi
echo "$venv"
