"""A user's script, type-checked with `mypy --strict` against the installed pylon_sdk (test/e2e/sdk-python)."""

from __future__ import annotations

import os

from pylon_sdk import Pylon


def ask(pylon: Pylon, question: str) -> str | None:
    run = pylon.agent_runs.create_and_wait(org_id=os.environ["ORG_ID"], agent_version_id=os.environ["AGENT_VERSION_ID"], input=question)
    return run["output"]


def statuses(pylon: Pylon) -> list[str]:
    return [run["status"] for run in pylon.agent_runs.list(limit=50)]
