"""A run's events over Server-Sent Events: what they are and how they are read (the streams themselves are in
pylon_sdk/_async/_stream.py and its generated sync copy)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

TERMINAL_EVENTS = frozenset({"succeeded", "failed"})


@dataclass(frozen=True)
class RunEvent:
    seq: int
    type: str
    data: Any


class SseParser:
    """Turns SSE lines into events: `id:` is the seq, `event:` the type, `data:` the JSON; comments are skipped."""

    def __init__(self) -> None:
        self.fields: dict[str, str] = {}
        self.data: list[str] = []

    def feed(self, line: str) -> RunEvent | None:
        if line == "":
            event = None
            if "id" in self.fields and self.data:
                event = RunEvent(int(self.fields["id"]), self.fields.get("event", "message"), json.loads("\n".join(self.data)))
            self.fields, self.data = {}, []
            return event
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "data":
            self.data.append(value)
        elif name in ("id", "event"):
            self.fields[name] = value
        return None


def events_path(run_id: str) -> str:
    return f"/api/v1/agent-runs/{run_id}/events"
