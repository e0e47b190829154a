#!/usr/bin/env bash
# The Python SDK's development tools from PyPI, in a cached virtualenv made once: datamodel-code-generator
# (its models, from the OpenAPI document), unasync (its sync client, from the async one:
# packages/python/scripts/generate_sync.py; unasync imports setuptools, which a Python 3.12 venv lacks) and
# mypy (the type check of a sample). Prints the virtualenv's path.
set -euo pipefail
venv="${XDG_CACHE_HOME:-$HOME/.cache}/pylon/python-sdk-tools-2"
if [ ! -x "$venv/bin/mypy" ] || [ ! -x "$venv/bin/datamodel-codegen" ] || ! "$venv/bin/python" -c 'import unasync' 2>/dev/null; then
  echo "installing datamodel-code-generator, unasync and mypy into $venv (once)…" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "datamodel-code-generator==0.89.0" "mypy==2.4.1" "unasync==0.6.0" "tokenize-rt==6.2.0" setuptools "httpx>=0.27" >&2
fi
echo "$venv"
