"""A user's script, type-checked with `mypy --strict` against the installed pylon_sdk (test/e2e/sdk-python)."""

from __future__ import annotations

import os
from typing import Any

from pylon_sdk import AsyncPylon, Pylon, ToolApprovalDecision, models


def ask(pylon: Pylon, question: str) -> str | None:
    run = pylon.agent_runs.create_and_wait(org_id=os.environ["ORG_ID"], agent_version_id=os.environ["AGENT_VERSION_ID"], input=question)
    return run["output"]


def statuses(pylon: Pylon) -> list[str]:
    return [run["status"] for run in pylon.agent_runs.list(limit=50)]


def lookup_order(args: dict[str, Any]) -> dict[str, str]:
    return {"order_id": str(args["order_id"]), "status": "shipped"}


def deny_searches(call: models.ToolCallView) -> bool | ToolApprovalDecision:
    return {"approve": False, "reason": "not today"} if call["name"] == "knowledge_search" else True


def with_tools(pylon: Pylon, conversation_id: str) -> str | None:
    run = pylon.agent_runs.run_tools(
        tools={"lookup_order": lookup_order},
        approve=deny_searches,
        conversation_id=conversation_id,
        org_id=os.environ["ORG_ID"],
        agent_version_id=os.environ["AGENT_VERSION_ID"],
        input="lookup_order for order 42",
        if_busy="enqueue",
    )
    return run["output"]


async def with_async_tools(pylon: AsyncPylon) -> list[str]:
    async def lookup(args: dict[str, Any]) -> str:
        return f"order {args['order_id']}"

    run = await pylon.agent_runs.run_tools(tools={"lookup_order": lookup, "sync": lookup_order}, org_id="o", agent_version_id="v", input="lookup_order 1")
    return [item["type"] async for item in pylon.conversations.items(run["run_id"])]


def structured_cost(pylon: Pylon, admin: Pylon, agent_id: str) -> tuple[int, str | None]:
    version = pylon.agents.create_version(
        agent_id,
        model="local/extractive",
        instructions="Summarise the ticket.",
        response_format={"type": "json_schema", "name": "ticket", "schema": {"type": "object", "properties": {"summary": {"type": "string"}}}, "strict": True},
    )
    admin.admin.replace_model_prices(os.environ["ORG_ID"], prices=[{"model": "local/extractive", "input_per_1k_tokens": 0.5, "output_per_1k_tokens": 1.5}])
    run = pylon.agent_runs.create_and_wait(org_id=os.environ["ORG_ID"], agent_version_id=version["agent_version_id"], input="Login fails")
    usage: models.AgentRunUsageView = pylon.agent_runs.usage(run["run_id"])
    return usage["total"]["cost_tokens"], admin.admin.get_model_prices(os.environ["ORG_ID"])["organisation"][0]["model"]


async def async_cost(pylon: AsyncPylon, run_id: str) -> int:
    return sum(turn["cost_tokens"] for turn in (await pylon.agent_runs.usage(run_id))["turns"] if turn["charged"])


def mcp_version(pylon: Pylon, agent_id: str) -> list[str]:
    """A version with an MCP server: its tool typed as the API takes it; its headers come back masked."""
    shop: models.AgentToolRequest = {
        "type": "mcp",
        "server_label": "shop",
        "server_url": "https://mcp.example.com/mcp",
        "allowed_tools": ["lookup_order"],
        "headers": {"Authorization": "Bearer token"},
        "require_approval": "always",
    }
    version = pylon.agents.create_version(agent_id, model="local/extractive", instructions="Help.", tools=[shop])
    return [f"{tool.get('server_label')}: {tool.get('headers')}" for tool in version["tools"] if tool["type"] == "mcp"]
