#!/usr/bin/env bash
# Installs schemathesis (PyPI) into a cached virtualenv once. Prints the path of its CLI.
# Prefers Python 3.13 or 3.12 when present: under CPython 3.11.7, Hypothesis' lambda descriptions can
# hit "AST constructor recursion depth mismatch" in the middle of a run.
set -euo pipefail
version=4.32.5
python=python3
candidates=(python3.13 python3.12)
if command -v pyenv >/dev/null 2>&1; then
  for v in $(pyenv versions --bare 2>/dev/null | grep -E '^3\.1[2-9](\.[0-9]+)?$' | sort -V -r); do candidates+=("$(pyenv root)/versions/$v/bin/python3"); done
fi
for candidate in "${candidates[@]}"; do
  if "$candidate" -c 'import sys, venv; assert sys.version_info >= (3, 12)' >/dev/null 2>&1; then python=$candidate; break; fi
done
venv="${XDG_CACHE_HOME:-$HOME/.cache}/pylon/schemathesis-$version-$("$python" -c 'import sys; print(f"py{sys.version_info[0]}{sys.version_info[1]}")')"
if [ ! -x "$venv/bin/schemathesis" ]; then
  echo "installing schemathesis $version with $python into $venv (once)…" >&2
  rm -rf "$venv"
  "$python" -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$version" >&2
fi
echo "$venv/bin/schemathesis"
