"""What `agent_runs.run_tools` does with a required action, shared by the sync and async clients: each call's
arguments parsed for its local handler, the handler's answer (or what it raised) as the output text, and
the approve callback's decision as an approval."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Union

from typing_extensions import NotRequired, TypedDict

from . import models


class ToolApprovalDecision(TypedDict):
    """What an approve callback may answer besides a bool: a denial's `reason` is told to the model."""

    approve: bool
    reason: NotRequired[str]


#: Runs one function tool here: takes the call's arguments (parsed from the model's JSON), returns the output
#: (a str as is, anything else as JSON). What it raises is sent as the output {"error": message}.
ToolHandler = Callable[[Any], Any]
#: Decides on a call that waits for approval: True approves, False denies, or {"approve": False, "reason": "…"}.
ApproveCallback = Callable[[models.ToolCallView], Union[bool, ToolApprovalDecision]]
#: AsyncPylon's: a handler or callback may also be a coroutine function.
AsyncToolHandler = Callable[[Any], Any]
AsyncApproveCallback = Callable[[models.ToolCallView], Union[bool, ToolApprovalDecision, Awaitable[Union[bool, ToolApprovalDecision]]]]


def _json(value: Any) -> str:
    """Compact, as the TypeScript SDK's JSON.stringify writes it."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def still_pending(announced: models.RequiredActionView, current: models.RequiredActionView | None) -> models.RequiredActionView | None:
    """The action of a `requires_action` event if the run still waits for it (not answered, expired or superseded since)."""
    if current is None or current["type"] != announced["type"]:
        return None
    same = [call["id"] for call in current["tool_calls"]] == [call["id"] for call in announced["tool_calls"]]
    return current if same else None


def no_handler_output(tools: Mapping[str, Any], call: models.ToolCallView) -> str:
    return _json({"error": f"no tool named {call['name']} here (there are: {', '.join(tools) or 'none'})"})


def arguments_of(call: models.ToolCallView) -> Any:
    return json.loads(call["arguments"]) if call["arguments"] else {}


def output_of(result: Any) -> str:
    return result if isinstance(result, str) else _json(result)


def error_output(error: Exception) -> str:
    return _json({"error": str(error) or type(error).__name__})


def approval_of(call: models.ToolCallView, decision: bool | Mapping[str, Any]) -> models.ToolApprovalRequest:
    if isinstance(decision, bool):
        return {"tool_call_id": call["id"], "approve": decision}
    approval: models.ToolApprovalRequest = {"tool_call_id": call["id"], "approve": bool(decision["approve"])}
    if decision.get("reason") is not None:
        approval["reason"] = str(decision["reason"])
    return approval
