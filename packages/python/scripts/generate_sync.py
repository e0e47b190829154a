"""Makes the sync client, pylon_sdk/_sync/, from the async one, pylon_sdk/_async/, with unasync (pinned in
scripts/ensure-python-sdk-tools.sh): each module token by token, `async`/`await` dropped and the names below
replaced. The output is checked in; test/sdk-python-sync.test.ts fails when it differs from what this makes.

    python generate_sync.py            rewrites src/pylon_sdk/_sync/
    python generate_sync.py --out DIR  writes the modules into DIR instead (the drift check)

with the Python of the tools' virtualenv: `$(bash scripts/ensure-python-sdk-tools.sh)/bin/python`, or run
test/sdk-python-sync.test.ts with PY_SDK_UPDATE_SYNC=1 (`PY_SDK_UPDATE_SYNC=1 npm test -- sdk-python-sync`).
"""

from __future__ import annotations

import argparse
import re
import shutil
import tempfile
from pathlib import Path

import unasync

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "pylon_sdk"
SOURCE = PACKAGE / "_async"
TARGET = PACKAGE / "_sync"

#: Besides unasync's own (AsyncIterator, __aenter__, __aexit__, …) and every class `AsyncX` defined in _async,
#: which becomes `X`.
REPLACEMENTS = {
    # The transport keeps its name: SyncTransport (unasync's default for Async…).
    "AsyncTransport": "SyncTransport",
    # httpx
    "AsyncClient": "Client",
    "aclose": "close",
    "aread": "read",
    "aiter_lines": "iter_lines",
    "asyncio": "time",  # asyncio.sleep -> time.sleep
    # pylon_sdk/_async's functions
    "astream_run": "stream_run",
    "aiterate": "iterate",
    # pylon_sdk/_concurrency.py's pairs
    "asettle": "settle",
    "aiterate_after": "iterate_after",
    # pylon_sdk/_tools.py's callback types
    "AsyncToolHandler": "ToolHandler",
    "AsyncApproveCallback": "ApproveCallback",
}

HEADER = "# Generated from pylon_sdk/_async/{name} by packages/python/scripts/generate_sync.py (unasync): do not edit.\n# Edit the async source and run that script.\n"


def replacements() -> dict[str, str]:
    classes = {}
    for module in SOURCE.glob("*.py"):
        for name in re.findall(r"^class (Async[A-Z]\w*)", module.read_text(encoding="utf-8"), re.MULTILINE):
            classes[name] = name.removeprefix("Async")
    return classes | REPLACEMENTS


def generate(out: Path) -> list[str]:
    names = sorted(module.name for module in SOURCE.glob("*.py"))
    with tempfile.TemporaryDirectory() as work:
        source, target = Path(work) / "_async", Path(work) / "_sync"
        source.mkdir()
        for name in names:
            shutil.copyfile(SOURCE / name, source / name)
        unasync.unasync_files([str(source / name) for name in names], [unasync.Rule(f"{source}/", f"{target}/", replacements())])
        out.mkdir(parents=True, exist_ok=True)
        for stale in out.glob("*.py"):
            if stale.name not in names:
                stale.unlink()
        for name in names:
            text = (target / name).read_text(encoding="utf-8")
            (out / name).write_text(HEADER.format(name=name) + text, encoding="utf-8")
    return names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=TARGET, help="where the sync modules go (default: src/pylon_sdk/_sync)")
    names = generate(parser.parse_args().out)
    print(f"generated {len(names)} modules: {', '.join(names)}")


if __name__ == "__main__":
    main()
