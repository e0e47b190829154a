"""Checks pylon_sdk, as installed with pip, against a running Pylon (started by test/e2e/sdk-python.e2e.test.ts).

Environment: PYLON_URL, PYLON_API_KEY (a `*` key), PYLON_ADMIN_TOKEN, ORG_ID, AGENT_VERSION_ID, RECEIVER_URL,
RECEIVED_FILE (where the test's webhook receiver writes what it got), SLOW_AGENT_VERSION_ID (a version whose
model call takes a while). Each check prints one line; any failure
raises and exits non-zero.
"""

from __future__ import annotations

import asyncio
import json
import os
import pathlib
import socket
import threading
import time
import uuid
from datetime import datetime, timedelta, timezone
from typing import Any
from urllib.parse import urlparse

from pylon_sdk import (
    AsyncPylon,
    AuthenticationError,
    ConflictError,
    InvalidApiKeyError,
    NotFoundError,
    Pylon,
    RunNotWaitingError,
    TERMINAL_EVENTS,
    ToolApprovalDecision,
    WebhookVerificationError,
    models,
)

ORG_ID = os.environ["ORG_ID"]
VERSION_ID = os.environ["AGENT_VERSION_ID"]


#: A function tool the offline model calls when the input names it ("lookup_order for order 42" -> {"order_id": "42"}).
LOOKUP_ORDER: models.AgentToolRequest = {
    "type": "function",
    "name": "lookup_order",
    "description": "Finds an order by its id.",
    "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]},
}
GATED_SEARCH: models.AgentToolRequest = {"type": "knowledge_search", "require_approval": "always"}


def run_body(text: str) -> models.CreateAgentRunRequest:
    """For the calls that show unpacking a prepared body; the others spell out their keyword arguments."""
    return {"org_id": ORG_ID, "agent_version_id": VERSION_ID, "input": text}


def check_create_stream_wait(pylon: Pylon) -> None:
    events = list(pylon.agent_runs.create_and_stream(org_id=ORG_ID, agent_version_id=VERSION_ID, input="What is Pylon?"))
    assert [event.seq for event in events] == list(range(1, len(events) + 1)), events
    assert events[0].type == "queued" and events[-1].type == "succeeded", events
    finished = pylon.agent_runs.create_and_wait(org_id=ORG_ID, agent_version_id=VERSION_ID, input="And again?")
    assert finished["status"] == "succeeded"
    assert pylon.agent_runs.get(finished["run_id"])["output"] == finished["output"]
    print("create_and_stream / create_and_wait: ok")


class CuttableProxy:
    """A TCP proxy in front of the API whose connections can all be cut at once, as a network drop would."""

    def __init__(self, target: str, swallow_answers: int = 0) -> None:
        """`swallow_answers`: on that many first connections the API's answer never reaches the client (the connection drops instead)."""
        self.swallow_answers = swallow_answers
        parsed = urlparse(target)
        self.target = (parsed.hostname or "127.0.0.1", parsed.port or 80)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.sockets: list[socket.socket] = []
        self.accepted = 0
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            self.accepted += 1
            self.sockets += [client, upstream]
            threading.Thread(target=self.pipe, args=(client, upstream), daemon=True).start()
            swallow = self.accepted <= self.swallow_answers
            threading.Thread(target=self.drop if swallow else self.pipe, args=(upstream, client), daemon=True).start()

    @staticmethod
    def drop(upstream: socket.socket, client: socket.socket) -> None:
        """Waits for the API's answer, then drops the client's connection without passing it on."""
        try:
            upstream.recv(65536)
        except OSError:
            pass
        for end in (client, upstream):
            try:
                end.shutdown(socket.SHUT_RDWR)
                end.close()
            except OSError:
                pass

    @staticmethod
    def pipe(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def cut_all(self) -> None:
        for connection in self.sockets:
            try:
                connection.shutdown(socket.SHUT_RDWR)
                connection.close()
            except OSError:
                pass
        self.sockets.clear()

    def close(self) -> None:
        self.cut_all()
        self.listener.close()


def check_cut_stream(api_key: str) -> None:
    """A stream whose connection is cut mid-run resumes with Last-Event-ID: no event lost, none repeated."""
    pylon = Pylon(api_key=api_key)
    version = os.environ["SLOW_AGENT_VERSION_ID"]
    created = pylon.agent_runs.create(org_id=ORG_ID, agent_version_id=version, input="survive a cut")
    proxy = CuttableProxy(os.environ["PYLON_URL"])
    try:
        through_proxy = Pylon(api_key=api_key, base_url=proxy.url)
        seen = []
        for event in through_proxy.agent_runs.stream(created["run_id"]):
            seen.append((event.seq, event.type))
            if event.type == "running":
                proxy.cut_all()
    finally:
        proxy.close()
    stored = [(event["seq"], event["type"]) for event in pylon.agent_runs.events(created["run_id"])]
    assert seen == stored, (seen, stored)
    assert seen[-1][1] == "succeeded"
    assert proxy.accepted >= 2, "the stream was never cut and resumed"
    print(f"a stream cut mid-run resumed: {len(seen)} events, none lost or repeated: ok")


def check_async(api_key: str) -> None:
    async def main() -> None:
        async with AsyncPylon(api_key=api_key) as pylon:
            created = await asyncio.gather(*(pylon.agent_runs.create(org_id=ORG_ID, agent_version_id=VERSION_ID, input=f"async {i}") for i in range(5)))
            for one in created:
                types = [event.type async for event in pylon.agent_runs.stream(one["run_id"])]
                assert types[-1] in TERMINAL_EVENTS, types
            listed = [run["run_id"] async for run in pylon.agent_runs.list(limit=2)]
            assert "runs" in (await pylon.usage.get())["windows"][0]
            assert {one["run_id"] for one in created} <= set(listed)

    asyncio.run(main())
    print("AsyncPylon: ok")


def check_rate_storm(admin: Pylon) -> None:
    issued = admin.admin.create_api_key(ORG_ID, name="tiny rate", scopes=["runs:create", "runs:read"])
    admin.admin.update_api_key(issued["key_id"], rate_limit_per_second=2, rate_limit_burst=2)
    slow = Pylon(api_key=issued["api_key"], max_retries=100)
    inputs = [f"storm {i} {uuid.uuid4()}" for i in range(12)]

    async def all_at_once() -> list[str]:
        async with AsyncPylon(api_key=issued["api_key"], max_retries=100) as pylon:
            made = await asyncio.gather(*(pylon.agent_runs.create(**run_body(text)) for text in inputs))
            return [one["run_id"] for one in made]

    run_ids = asyncio.run(all_at_once())
    assert len(set(run_ids)) == len(inputs)
    stored = [run for run in slow.agent_runs.list(limit=100) if run["input"] in inputs]
    assert sorted(run["input"] for run in stored) == sorted(inputs), "each create landed exactly once"
    print(f"429 storm: {len(inputs)} creates, each once: ok")


def check_pagination(pylon: Pylon) -> None:
    marker = str(uuid.uuid4())

    async def create_all() -> set[str]:
        async with AsyncPylon(api_key=os.environ["PYLON_API_KEY"]) as apylon:
            made = await asyncio.gather(*(apylon.agent_runs.create(org_id=ORG_ID, agent_version_id=VERSION_ID, input=f"page {i} {marker}") for i in range(250)))
            return {one["run_id"] for one in made}

    made = asyncio.run(create_all())
    seen = [run["run_id"] for run in pylon.agent_runs.list(limit=100) if marker in run["input"]]
    assert len(seen) == len(set(seen)) == 250 and set(seen) == made
    print("pagination: 250 runs over pages of 100, each once: ok")


def check_webhook(pylon: Pylon) -> None:
    endpoint = pylon.webhooks.create(org_id=ORG_ID, url=f"{os.environ['RECEIVER_URL']}/python", events=["agent_run.succeeded"])
    finished = pylon.agent_runs.create_and_wait(**run_body("tell the receiver"))
    deadline = time.time() + 30
    while True:
        received = [json.loads(line) for line in open(os.environ["RECEIVED_FILE"]).read().splitlines() if line]
        mine = [entry for entry in received if entry["path"] == "/python" and json.loads(entry["body"])["data"].get("run_id") == finished["run_id"]]
        if mine:
            break
        assert time.time() < deadline, "the webhook never arrived"
        time.sleep(0.1)
    event = pylon.webhooks.verify(mine[0]["body"], mine[0]["headers"], endpoint["secret"])
    assert event["type"] == "agent_run.succeeded"
    try:
        pylon.webhooks.verify(mine[0]["body"].replace("succeeded", "failed"), mine[0]["headers"], endpoint["secret"])
        raise AssertionError("a tampered webhook verified")
    except WebhookVerificationError:
        pass
    pylon.webhooks.delete(endpoint["endpoint_id"])
    print("webhooks.verify: ok")


def check_errors(pylon: Pylon) -> None:
    try:
        pylon.agent_runs.get("00000000-0000-4000-8000-000000000000")
        raise AssertionError("found a run that does not exist")
    except NotFoundError as error:
        assert error.status == 404 and error.code == "not_found" and error.request_id
    try:
        Pylon(api_key="pyl_not_a_key").api_keys.whoami()
        raise AssertionError("an unknown key was taken")
    except AuthenticationError as error:
        assert error.status == 401
        assert isinstance(error, InvalidApiKeyError), "one class per code, under the class of its kind"
    print("errors: ok")


def finish(pylon: Pylon, run_id: str) -> models.AgentRunView:
    for event in pylon.agent_runs.stream(run_id):
        if event.type in TERMINAL_EVENTS:
            run: models.AgentRunView = event.data
            return run
    raise AssertionError(f"the stream of run {run_id} ended without a terminal event")


def version_with(pylon: Pylon, tool: models.AgentToolRequest) -> str:
    agent_id = pylon.agents.get_version(VERSION_ID)["agent_id"]
    return pylon.agents.create_version(agent_id, model="local/extractive", instructions="Answer.", tools=[tool])["agent_version_id"]


def check_conversations(pylon: Pylon) -> None:
    conversation = pylon.conversations.create(org_id=ORG_ID, metadata={"user_id": "u_42"})
    conversation_id = conversation["conversation_id"]
    assert pylon.conversations.get(conversation_id) == conversation
    first = pylon.conversations.runs.create(conversation_id, org_id=ORG_ID, agent_version_id=VERSION_ID, input="My favourite colour is teal.")
    assert finish(pylon, first["run_id"])["status"] == "succeeded"
    second = pylon.conversations.runs.create(conversation_id, org_id=ORG_ID, agent_version_id=VERSION_ID, input="What is my favourite colour?")
    answered = finish(pylon, second["run_id"])
    assert answered["status"] == "succeeded", answered
    assert any("teal" in line for line in (answered["output"] or "").splitlines()), answered["output"]
    items = list(pylon.conversations.items(conversation_id, limit=1))
    expected = [("input", first["run_id"]), ("answer", first["run_id"]), ("input", second["run_id"]), ("answer", second["run_id"])]
    assert [(item["type"], item["run_id"]) for item in items] == expected, items
    assert items[0]["text"] == "My favourite colour is teal." and items[3]["text"] == answered["output"], items
    assert any(one["conversation_id"] == conversation_id for one in pylon.conversations.list(limit=100))
    pylon.conversations.delete(conversation_id)
    try:
        pylon.conversations.get(conversation_id)
        raise AssertionError("a deleted conversation was found")
    except NotFoundError:
        pass
    print("conversations: a second turn remembers the first (teal), items oldest first over pages, delete: ok")


def check_run_tools(pylon: Pylon) -> None:
    version = version_with(pylon, LOOKUP_ORDER)
    calls: list[Any] = []

    def lookup_order(args: dict[str, Any]) -> dict[str, str]:
        calls.append(args)
        return {"order_id": args["order_id"], "status": "shipped", "carrier": "DHL"}

    key = str(uuid.uuid4())
    shipped = pylon.agent_runs.run_tools(tools={"lookup_order": lookup_order}, idempotency_key=key, org_id=ORG_ID, agent_version_id=version, input="Please lookup_order for order 42.")
    assert shipped["status"] == "succeeded", shipped
    assert calls == [{"order_id": "42"}], calls
    assert 'lookup_order returned: {"order_id":"42","status":"shipped","carrier":"DHL"}' in (shipped["output"] or ""), shipped["output"]
    # The same Idempotency-Key again picks up the same run: its stream replays the answered action, which is not answered twice.
    again = pylon.agent_runs.run_tools(tools={"lookup_order": lookup_order}, idempotency_key=key, org_id=ORG_ID, agent_version_id=version, input="Please lookup_order for order 42.")
    assert again == shipped and len(calls) == 1, (again, calls)

    def broken(args: dict[str, Any]) -> str:
        raise RuntimeError("the order service is down")

    thrown = pylon.agent_runs.run_tools(tools={"lookup_order": broken}, org_id=ORG_ID, agent_version_id=version, input="lookup_order for order 7")
    assert 'lookup_order returned: {"error":"the order service is down"}' in (thrown["output"] or ""), thrown["output"]

    conversation = pylon.conversations.create(org_id=ORG_ID)
    turn = pylon.agent_runs.run_tools(
        tools={"lookup_order": lambda args: f"order {args['order_id']} is on its way"},
        conversation_id=conversation["conversation_id"],
        org_id=ORG_ID,
        agent_version_id=version,
        input="lookup_order for order 9",
    )
    assert "lookup_order returned: order 9 is on its way" in (turn["output"] or ""), turn["output"]
    items = list(pylon.conversations.items(conversation["conversation_id"]))
    assert [item["type"] for item in items] == ["input", "tool_call", "tool_output", "answer"], items
    assert {item["run_id"] for item in items} == {turn["run_id"]} and items[2]["output"] == "order 9 is on its way", items

    gated = version_with(pylon, GATED_SEARCH)
    asked: list[str] = []

    def deny(call: models.ToolCallView) -> ToolApprovalDecision:
        asked.append(call["name"])
        return {"approve": False, "reason": "not during the audit"}

    denied = pylon.agent_runs.run_tools(approve=deny, org_id=ORG_ID, agent_version_id=gated, input="How many days do I have for returns?")
    assert asked == ["knowledge_search"], asked
    assert denied["status"] == "succeeded" and "not approved: not during the audit" in (denied["output"] or ""), denied
    approved = pylon.agent_runs.run_tools(org_id=ORG_ID, agent_version_id=gated, input="How many days do I have for returns?")
    assert approved["status"] == "succeeded" and "not approved" not in (approved["output"] or ""), approved
    decisions = [event["data"]["approved"] for event in pylon.agent_runs.events(approved["run_id"]) if event["type"] == "tool_approval"]
    assert decisions == [True], decisions
    print("run_tools: a function call answered by a local handler (its return, its error), a conversation turn, an approval denied with a reason: ok")


def check_required_action(pylon: Pylon) -> None:
    version = version_with(pylon, LOOKUP_ORDER)
    created = pylon.agent_runs.create(org_id=ORG_ID, agent_version_id=version, input="lookup_order for order 5")
    announced = next(event.data for event in pylon.agent_runs.stream(created["run_id"]) if event.type == "requires_action")
    action = pylon.agent_runs.required_action(created["run_id"])
    assert action == announced and action["type"] == "submit_tool_outputs", (action, announced)
    call = action["tool_calls"][0]
    assert call["name"] == "lookup_order" and json.loads(call["arguments"]) == {"order_id": "5"}, call
    answered = pylon.agent_runs.submit_tool_outputs(created["run_id"], tool_outputs=[{"tool_call_id": call["id"], "output": '{"status":"lost"}'}])
    assert answered["run_id"] == created["run_id"]
    finished = finish(pylon, created["run_id"])
    assert 'lookup_order returned: {"status":"lost"}' in (finished["output"] or ""), finished
    try:
        pylon.agent_runs.required_action(created["run_id"])
        raise AssertionError("a finished run waits for an action")
    except NotFoundError:
        pass
    try:
        pylon.agent_runs.submit_tool_outputs(created["run_id"], tool_outputs=[{"tool_call_id": call["id"], "output": "another"}])
        raise AssertionError("a second, different answer was taken")
    except RunNotWaitingError:
        pass

    gated = pylon.agent_runs.create(org_id=ORG_ID, agent_version_id=version_with(pylon, GATED_SEARCH), input="returns?")
    pending = next(event.data for event in pylon.agent_runs.stream(gated["run_id"]) if event.type == "requires_action")
    assert pending["type"] == "approve_tool_calls", pending
    pylon.agent_runs.approve_tool_calls(gated["run_id"], approvals=[{"tool_call_id": pending["tool_calls"][0]["id"], "approve": False, "reason": "no"}])
    assert "not approved: no" in (finish(pylon, gated["run_id"])["output"] or "")
    print("required_action / submit_tool_outputs / approve_tool_calls: ok")


def check_async_tools(api_key: str) -> None:
    """AsyncPylon: conversations, and run_tools with an async handler and an async approve callback."""

    async def main() -> None:
        async with AsyncPylon(api_key=api_key) as pylon:
            conversation = await pylon.conversations.create(org_id=ORG_ID)
            conversation_id = conversation["conversation_id"]
            assert (await pylon.conversations.get(conversation_id))["conversation_id"] == conversation_id
            first = await pylon.conversations.runs.create(conversation_id, org_id=ORG_ID, agent_version_id=VERSION_ID, input="My favourite colour is teal.")
            async for event in pylon.agent_runs.stream(first["run_id"]):
                pass
            agent_id = (await pylon.agents.get_version(VERSION_ID))["agent_id"]
            version = (await pylon.agents.create_version(agent_id, model="local/extractive", instructions="Answer.", tools=[LOOKUP_ORDER]))["agent_version_id"]

            async def lookup_order(args: dict[str, Any]) -> dict[str, str]:
                await asyncio.sleep(0)
                return {"order_id": args["order_id"], "status": "async"}

            turn = await pylon.agent_runs.run_tools(
                tools={"lookup_order": lookup_order}, conversation_id=conversation_id, org_id=ORG_ID, agent_version_id=version, input="lookup_order for order 3, and my favourite colour?"
            )
            output = turn["output"] or ""
            assert 'lookup_order returned: {"order_id":"3","status":"async"}' in output, output
            items = [item["type"] async for item in pylon.conversations.items(conversation_id)]
            assert items == ["input", "answer", "input", "tool_call", "tool_output", "answer"], items
            assert conversation_id in [one["conversation_id"] async for one in pylon.conversations.list(limit=100)]

            async def deny(call: models.ToolCallView) -> ToolApprovalDecision:
                return {"approve": False, "reason": f"{call['name']} is off today"}

            gated = (await pylon.agents.create_version(agent_id, model="local/extractive", instructions="Answer.", tools=[GATED_SEARCH]))["agent_version_id"]
            denied = await pylon.agent_runs.run_tools(approve=deny, org_id=ORG_ID, agent_version_id=gated, input="returns?")
            assert "not approved: knowledge_search is off today" in (denied["output"] or ""), denied
            await pylon.conversations.delete(conversation_id)

    asyncio.run(main())
    print("AsyncPylon: conversations, run_tools with async handlers: ok")


def check_every_method(admin: Pylon) -> None:
    org = admin.admin.create_org(name="Python SDK org")
    assert any(one["org_id"] == org["org_id"] for one in admin.admin.list_orgs(limit=100))
    key = admin.admin.create_api_key(org["org_id"], name="all", scopes=["*"])
    spare = admin.admin.create_api_key(org["org_id"], name="spare", scopes=["runs:read"])
    assert len(list(admin.admin.list_api_keys(org["org_id"]))) == 2
    admin.admin.roll_api_key(spare["key_id"], grace_seconds=0)
    admin.admin.revoke_api_key(spare["key_id"])
    assert admin.admin.get_limits(org["org_id"])["org_id"] == org["org_id"]
    admin.admin.knowledge_index(org["org_id"])
    admin.admin.update_limits(org["org_id"], dispatch_weight=2)
    admin.admin.grant_tokens(org["org_id"], amount=2_000_000, reason="python sdk")
    mine = Pylon(api_key=key["api_key"])
    assert mine.api_keys.whoami()["org_id"] == org["org_id"]
    own = mine.api_keys.create(name="own", scopes=["runs:read"])
    assert any(one["key_id"] == own["key_id"] for one in mine.api_keys.list())
    mine.api_keys.roll(own["key_id"], grace_seconds=0)
    mine.api_keys.revoke(own["key_id"])
    agent = mine.agents.create(org_id=org["org_id"], name="Python agent")
    assert mine.agents.get(agent["agent_id"])["name"] == "Python agent"
    assert len(list(mine.agents.list())) == 1
    version = mine.agents.create_version(agent["agent_id"], model="local/extractive", instructions="Answer.")
    assert len(list(mine.agents.list_versions(agent["agent_id"]))) == 1
    assert mine.agents.get_version(version["agent_version_id"])["model"] == "local/extractive"
    local = {"provider": "local", "configured": True, "available": True, "takes_key": False, "key_source": None, "models": ["local/extractive", "local/echo"]}
    assert mine.agents.model_providers()["data"][0] == local
    own_key = f"sk-org-{uuid.uuid4()}"
    credential = mine.model_credentials.put("openai", api_key=own_key)
    assert credential["provider"] == "openai" and credential["api_key"] != own_key and credential["api_key"].endswith(own_key[-4:]), credential
    assert mine.model_credentials.list()["data"] == [credential]
    assert mine.model_credentials.check("openai") == {"provider": "openai", "valid": True, "reason": None}
    openai = next(one for one in mine.agents.model_providers()["data"] if one["provider"] == "openai")
    assert openai["key_source"] == "organization", openai
    mine.model_credentials.remove("openai")
    try:
        mine.model_credentials.check("openai")
        raise AssertionError("a removed key is still checked")
    except NotFoundError:
        pass
    created = mine.agent_runs.create(org_id=org["org_id"], agent_version_id=version["agent_version_id"], input="hello")
    try:
        mine.agent_runs.cancel(created["run_id"])
    except Exception as error:  # a run that already finished cannot be cancelled: 409
        assert getattr(error, "status", None) == 409, error
    assert [event.seq for event in mine.agent_runs.stream(created["run_id"])][0] == 1
    assert [event["seq"] for event in mine.agent_runs.events(created["run_id"])][0] == 1
    schedule = mine.agent_schedules.create(org_id=org["org_id"], agent_version_id=version["agent_version_id"], input="hello", every_seconds=3600, paused=True)
    assert schedule["next_run_at"] is None, schedule
    assert mine.agent_schedules.get(schedule["schedule_id"])["every_seconds"] == 3600
    assert any(one["schedule_id"] == schedule["schedule_id"] for one in mine.agent_schedules.list(limit=100))
    resumed = mine.agent_schedules.update(schedule["schedule_id"], paused=False, cron="0 9 * * MON-FRI", timezone="Europe/Paris")
    assert resumed["next_run_at"] is not None and resumed["timezone"] == "Europe/Paris", resumed
    mine.agent_schedules.trigger(schedule["schedule_id"])
    while not list(mine.agent_schedules.runs(schedule["schedule_id"])):
        time.sleep(0.1)
    finish(mine, list(mine.agent_schedules.runs(schedule["schedule_id"]))[0]["run_id"])
    mine.agent_schedules.delete(schedule["schedule_id"])
    try:
        mine.agent_schedules.get(schedule["schedule_id"])
        raise AssertionError("a deleted schedule is gone")
    except NotFoundError:
        pass
    document = mine.knowledge.documents.create(org_id=org["org_id"], title="SDK", content="The SDK retries creates safely.")
    while mine.knowledge.documents.get(document["doc_id"])["status"] == "processing":
        time.sleep(0.1)
    assert len(list(mine.knowledge.documents.list())) == 1
    mine.knowledge.search(org_id=org["org_id"], query="retries")
    mine.knowledge.query(org_id=org["org_id"], query="retries")
    mine.knowledge.documents.delete(document["doc_id"])
    video = mine.videos.create(user_prompt="a kite")
    while mine.videos.get([video["id"]])[0]["state"] != "completed":
        time.sleep(0.2)
    extended = mine.videos.extend(video["id"], user_prompt="and further")
    mine.videos.cancel(extended["id"])
    assert mine.tokens.balance()["balance"] > 0
    assert len(list(mine.tokens.entries())) >= 2
    endpoint = mine.webhooks.create(org_id=org["org_id"], url=f"{os.environ['RECEIVER_URL']}/every-method")
    mine.webhooks.get(endpoint["endpoint_id"])
    assert len(list(mine.webhooks.list())) == 1
    mine.webhooks.update(endpoint["endpoint_id"], description="from Python")
    mine.webhooks.rotate_secret(endpoint["endpoint_id"])
    mine.webhooks.send_test_event(endpoint["endpoint_id"])
    # The test event's delivery (a video of the checks above may finish meanwhile and be delivered too).
    def tests() -> list[models.WebhookDeliveryView]:
        return [one for one in mine.webhooks.deliveries(endpoint["endpoint_id"], event_type="webhook_endpoint.test") if one["status"] != "pending"]

    while not tests():
        time.sleep(0.1)
    delivery = tests()[0]
    mine.webhooks.get_delivery(endpoint["endpoint_id"], delivery["delivery_id"])
    mine.webhooks.retry_delivery(endpoint["endpoint_id"], delivery["delivery_id"])
    filtered = list(mine.webhooks.deliveries(endpoint["endpoint_id"], event_type="webhook_endpoint.test", event_id=delivery["event_id"]))
    assert [one["delivery_id"] for one in filtered] == [delivery["delivery_id"]], filtered
    recovered = mine.webhooks.recover(endpoint["endpoint_id"], since=datetime.now(timezone.utc) - timedelta(hours=1))
    assert recovered["recovered"] == len(recovered["delivery_ids"]), recovered
    admin.admin.disable_webhook_endpoints(org["org_id"], reason="python sdk test")
    mine.webhooks.delete(endpoint["endpoint_id"])
    usage = mine.usage.get()
    assert [window["window"] for window in usage["windows"]] == ["24h", "30d"], usage
    assert usage["windows"][1].get("videos", {}).get("total", 0) >= 2 and len(usage.get("api_keys", [])) >= 1, usage
    admin.admin.revoke_api_key(key["key_id"])
    print("every method: ok")


#: A flat object schema, the kind the offline model fills (a value stated as `<name>: value` wins).
TICKET_FORMAT: models.ResponseFormatRequest = {
    "type": "json_schema",
    "name": "ticket",
    "schema": {
        "type": "object",
        "properties": {"summary": {"type": "string"}, "priority": {"enum": ["low", "high"]}, "customer_id": {"type": "integer"}},
        "required": ["summary", "priority", "customer_id"],
    },
}


def check_structured_output_and_costs(admin: Pylon) -> None:
    """A version with response_format answers JSON (parsed in the succeeded event); a run's usage per turn; model prices as admin."""
    org = admin.admin.create_org(name="Python costs org")
    key = admin.admin.create_api_key(org["org_id"], name="all", scopes=["*"])
    admin.admin.grant_tokens(org["org_id"], amount=1_000_000, reason="python costs")
    mine = Pylon(api_key=key["api_key"])
    agent = mine.agents.create(org_id=org["org_id"], name="Ticket agent")
    version = mine.agents.create_version(agent["agent_id"], model="local/extractive", instructions="Summarise the ticket.", response_format=TICKET_FORMAT)
    shown = mine.agents.get_version(version["agent_version_id"])["response_format"]
    assert shown is not None and shown["name"] == "ticket" and shown["schema"] == TICKET_FORMAT["schema"], shown
    run = mine.agent_runs.create_and_wait(org_id=org["org_id"], agent_version_id=version["agent_version_id"], input="Customer 4711 cannot log in. priority: high")
    assert run["status"] == "succeeded", run
    parsed = json.loads(run["output"] or "")
    assert parsed["priority"] == "high" and parsed["customer_id"] == 4711 and isinstance(parsed["summary"], str), parsed
    succeeded = [event for event in mine.agent_runs.events(run["run_id"]) if event["type"] == "succeeded"]
    assert succeeded[0]["data"]["output_parsed"] == parsed, succeeded

    free = mine.agent_runs.usage(run["run_id"])
    assert free["run_id"] == run["run_id"] and len(free["turns"]) == free["total"]["turns"] >= 1, free
    turn = free["turns"][0]
    assert turn["model"] == "local/extractive" and turn["counted_by"] == "tokenizer" and turn["input_tokens"] > 0 and turn["output_tokens"] > 0, turn
    assert free["total"]["cost_tokens"] == 0 and turn["charged"], free

    assert admin.admin.get_model_prices(org["org_id"])["organisation"] == []
    priced = admin.admin.replace_model_prices(org["org_id"], prices=[{"model": "local/extractive", "input_per_1k_tokens": 1000, "output_per_1k_tokens": 2000}])
    assert priced["org_id"] == org["org_id"] and priced["organisation"] == [
        {"model": "local/extractive", "input_per_1k_tokens": 1000, "output_per_1k_tokens": 2000}
    ], priced
    assert admin.admin.get_model_prices(org["org_id"]) == priced
    paid = mine.agent_runs.create_and_wait(org_id=org["org_id"], agent_version_id=version["agent_version_id"], input="Customer 7 lost a parcel. priority: low")
    assert paid["status"] == "succeeded", paid
    usage = mine.agent_runs.usage(paid["run_id"])
    expected = sum(one["input_tokens"] + 2 * one["output_tokens"] for one in usage["turns"])
    assert usage["total"]["cost_tokens"] == expected > 0 and all(one["charged"] for one in usage["turns"]), usage
    debits = [entry for entry in mine.tokens.entries() if entry["reference_type"] == "agent_run" and entry["reference_id"] == paid["run_id"]]
    assert sum(-entry["delta"] for entry in debits) == expected, debits
    models_24h = mine.usage.get()["windows"][0]["models"]
    assert models_24h["run_cost_tokens"] == expected and models_24h["turns"] >= 2, models_24h
    assert admin.admin.replace_model_prices(org["org_id"], prices=[])["organisation"] == []
    admin.admin.revoke_api_key(key["key_id"])
    print(f"structured output parsed, run usage per turn, model prices (a priced run cost {expected} tokens): ok")


def check_create_retried_after_lost_answer(api_key: str) -> None:
    """An agent create whose answer is lost on the way back is retried with its Idempotency-Key: one agent."""
    proxy = CuttableProxy(os.environ["PYLON_URL"], swallow_answers=1)
    name = f"retried {uuid.uuid4()}"
    try:
        agent = Pylon(api_key=api_key, base_url=proxy.url, max_retries=3).agents.create(org_id=ORG_ID, name=name)
    finally:
        proxy.close()
    assert proxy.accepted >= 2, "the first answer was not dropped"
    made = [one for one in Pylon(api_key=api_key).agents.list(limit=100) if one["name"] == name]
    assert [one["agent_id"] for one in made] == [agent["agent_id"]], made
    print(f"an agent create whose answer was lost, retried over {proxy.accepted} connections: one agent: ok")


def check_async_creates_and_updates(admin_token: str) -> None:
    """Every create and update of AsyncPylon, each with keyword arguments, as on Pylon."""

    async def main() -> None:
        async with AsyncPylon(api_key=admin_token) as admin:
            org = await admin.admin.create_org(name="Python async org")
            key = await admin.admin.create_api_key(org["org_id"], name="all", scopes=["*"])
            spare = await admin.admin.create_api_key(org["org_id"], name="spare", scopes=["runs:read"], expires_at=None)
            assert (await admin.admin.update_api_key(spare["key_id"], rate_limit_per_second=5, rate_limit_burst=10))["rate_limit_burst"] == 10
            await admin.admin.roll_api_key(spare["key_id"], grace_seconds=0)
            assert (await admin.admin.update_limits(org["org_id"], dispatch_weight=3))["dispatch_weight"] == 3
            await admin.admin.grant_tokens(org["org_id"], amount=2_000_000, reason="python async sdk", idempotency_key=str(uuid.uuid4()))
            prices = await admin.admin.replace_model_prices(org["org_id"], prices=[{"model": "local/echo", "input_per_1k_tokens": 500, "output_per_1k_tokens": 500}])
            assert (await admin.admin.get_model_prices(org["org_id"])) == prices and len(prices["organisation"]) == 1, prices
        async with AsyncPylon(api_key=key["api_key"]) as mine:
            own = await mine.api_keys.create(name="own", scopes=["runs:read"])
            await mine.api_keys.roll(own["key_id"], grace_seconds=0)
            agent = await mine.agents.create(org_id=org["org_id"], name="Async agent")
            version = await mine.agents.create_version(agent["agent_id"], model="local/extractive", instructions="Answer.")
            run = await mine.agent_runs.create_and_wait(org_id=org["org_id"], agent_version_id=version["agent_version_id"], input="hello", idempotency_key=str(uuid.uuid4()))
            assert run["status"] == "succeeded", run
            usage = await mine.agent_runs.usage(run["run_id"])
            assert usage["run_id"] == run["run_id"] and usage["total"]["turns"] == len(usage["turns"]) >= 1, usage
            schedule = await mine.agent_schedules.create(org_id=org["org_id"], agent_version_id=version["agent_version_id"], input="hello", every_seconds=3600, overlap="skip")
            assert (await mine.agent_schedules.update(schedule["schedule_id"], paused=True, input="later"))["input"] == "later"
            assert (await mine.agent_schedules.get(schedule["schedule_id"]))["paused"] is True
            assert schedule["schedule_id"] in [one["schedule_id"] async for one in mine.agent_schedules.list(limit=100)]
            await mine.agent_schedules.trigger(schedule["schedule_id"])
            while not [one async for one in mine.agent_schedules.runs(schedule["schedule_id"])]:
                await asyncio.sleep(0.1)
            await mine.agent_schedules.delete(schedule["schedule_id"])
            document = await mine.knowledge.documents.create(org_id=org["org_id"], title="Async", content="Keyword arguments everywhere.", metadata={"constructor": "kept"})
            assert document["metadata"] == {"constructor": "kept"}, document
            await mine.knowledge.search(org_id=org["org_id"], query="keyword", match_count=3)
            await mine.knowledge.query(org_id=org["org_id"], query="keyword")
            video = await mine.videos.create(user_prompt="a kite", aspect_ratio="16:9")
            while (await mine.videos.get([video["id"]]))[0]["state"] != "completed":
                await asyncio.sleep(0.2)
            await mine.videos.extend(video["id"], user_prompt="and further")
            endpoint = await mine.webhooks.create(org_id=org["org_id"], url=f"{os.environ['RECEIVER_URL']}/async", description="async")
            assert (await mine.webhooks.update(endpoint["endpoint_id"], description="updated"))["description"] == "updated"
            await mine.webhooks.rotate_secret(endpoint["endpoint_id"])
            await mine.webhooks.delete(endpoint["endpoint_id"])
        async with AsyncPylon(api_key=admin_token) as admin:
            await admin.admin.disable_webhook_endpoints(org["org_id"], reason="python async sdk test")
            await admin.admin.revoke_api_key(key["key_id"])

    asyncio.run(main())
    print("AsyncPylon, every create and update with keyword arguments: ok")


def _ready(pylon: Pylon, doc_id: str) -> models.DocumentView:
    """The document once its latest revision is ready."""
    while True:
        document = pylon.knowledge.documents.get(doc_id)
        assert document["status"] != "failed", document
        if document["status"] == "ready" and document["ready_revision"] == document["revision"]:
            return document
        time.sleep(0.1)


def _batch_ended(pylon: Pylon, batch_id: str) -> models.KnowledgeBatchView:
    while True:
        batch = pylon.knowledge.batches.get(batch_id)
        if batch["status"] != "processing":
            return batch
        time.sleep(0.1)


def check_knowledge_files(pylon: Pylon) -> None:
    report = os.environ["KNOWLEDGE_PDF"]
    with open(report, "rb") as handle:
        report_bytes = handle.read()
    # The default base is the oldest: one made first keeps this test's base from being it.
    pylon.knowledge_bases.create(org_id=ORG_ID, name=f"Python other {uuid.uuid4()}")
    base = pylon.knowledge_bases.create(org_id=ORG_ID, name=f"Python files {uuid.uuid4()}", description="from live_check")
    assert not base["is_default"], base
    kb = base["knowledge_base_id"]
    # From a path (its name is the file name), from an open binary file, from bytes into the default base.
    from_path = pylon.knowledge.files.upload(report, knowledge_base_id=kb, metadata={"source": "path"})
    assert from_path["revision"] == 1 and from_path["knowledge_base_id"] == kb, from_path
    assert from_path["file"]["name"] == "report.pdf" and from_path["file"]["type"] == "pdf", from_path
    assert from_path["metadata"] == {"source": "path"}, from_path
    with open(report, "rb") as handle:
        from_file = pylon.knowledge.files.upload(handle, file_name="opened.pdf", title="Opened report", knowledge_base_id=kb)
    assert from_file["title"] == "Opened report" and from_file["file"]["name"] == "opened.pdf", from_file
    from_bytes = pylon.knowledge.files.upload(b"# Puffins\n\nPuffins nest in burrows on cliffs.\n", file_name="puffins.md")
    assert from_bytes["knowledge_base_id"] != kb and from_bytes["file"]["type"] == "markdown", from_bytes
    for document in (from_path, from_file, from_bytes):
        assert _ready(pylon, document["doc_id"])["chunk_count"] > 0
    # A query of that base alone: pages of the report, never the puffins.
    matches = pylon.knowledge.query(org_id=ORG_ID, query="harbour survey northern basin", knowledge_base_ids=[kb])["matches"]
    assert matches and all(match["knowledge_base_id"] == kb for match in matches), matches
    assert any(match["doc_id"] == from_path["doc_id"] and match["page_start"] == 1 for match in matches), matches
    # Download: the very bytes, name and media type.
    downloaded = pylon.knowledge.files.download(from_path["doc_id"])
    assert downloaded.content == report_bytes and downloaded.file_name == "report.pdf" and downloaded.media_type == "application/pdf", downloaded
    # Replace by a file (revision 2, then downloaded), by text (revision 3, no file).
    replaced = pylon.knowledge.documents.replace_file(from_file["doc_id"], b"# Gannets\n\nGannets dive from thirty metres.\n", file_name="gannets.md")
    assert replaced["revision"] == 2, replaced
    second = _ready(pylon, from_file["doc_id"])
    assert second["ready_revision"] == 2 and second["file"]["name"] == "gannets.md", second
    again = pylon.knowledge.files.download(from_file["doc_id"])
    assert again.content == b"# Gannets\n\nGannets dive from thirty metres.\n" and again.file_name == "gannets.md", again
    assert pylon.knowledge.documents.replace(from_file["doc_id"], org_id=ORG_ID, content="Gannets are seabirds.")["revision"] == 3
    assert _ready(pylon, from_file["doc_id"])["file"] is None
    # A batch of texts and one of files, to their end; a cancel of an ended batch leaves it as it was.
    texts = pylon.knowledge.batches.create(
        org_id=ORG_ID,
        knowledge_base_id=kb,
        documents=[{"title": "Seals", "content": "Seals sleep in the water."}, {"title": "Otters", "content": "Otters hold hands.", "metadata": {"animal": "otter"}}],
    )
    assert texts["counts"]["total"] == 2, texts
    texts_done = _batch_ended(pylon, texts["batch_id"])
    assert texts_done["status"] == "completed" and texts_done["counts"]["ready"] == 2, texts_done
    assert [document["title"] for document in texts_done["documents"]] == ["Seals", "Otters"], texts_done
    with open(report, "rb") as handle:
        files = pylon.knowledge.batches.create(files=[report, handle, ("terns.md", b"# Terns\n\nTerns migrate far.\n")], knowledge_base_id=kb, metadata={"batch": "files"})
    assert files["counts"]["total"] == 3, files
    files_done = _batch_ended(pylon, files["batch_id"])
    assert files_done["status"] == "completed" and files_done["counts"]["ready"] == 3, files_done
    assert pylon.knowledge.documents.get(files_done["documents"][2]["doc_id"])["metadata"] == {"batch": "files"}
    assert pylon.knowledge.batches.cancel(files["batch_id"])["status"] == "completed"
    # Knowledge bases: get, list, update, delete (refused while not empty, unless cascading).
    assert pylon.knowledge_bases.get(kb)["document_count"] == 7
    assert kb in [listed["knowledge_base_id"] for listed in pylon.knowledge_bases.list(limit=1)]
    assert pylon.knowledge_bases.update(kb, name="Renamed " + kb)["name"] == "Renamed " + kb
    try:
        pylon.knowledge_bases.delete(kb)
        raise AssertionError("a base holding documents was deleted")
    except ConflictError as error:
        assert error.code == "knowledge_base_not_empty", error
    pylon.knowledge_bases.delete(kb, cascade=True)
    for gone in (lambda: pylon.knowledge_bases.get(kb), lambda: pylon.knowledge.documents.get(from_path["doc_id"])):
        try:
            gone()
            raise AssertionError("still there after a cascading delete")
        except NotFoundError:
            pass
    print("knowledge files: uploads from a path, a file and bytes, a query by base, download, replacements, batches, knowledge bases: ok")


def check_async_knowledge_files(api_key: str) -> None:
    report = os.environ["KNOWLEDGE_PDF"]

    async def main() -> None:
        async with AsyncPylon(api_key=api_key) as pylon:
            base = await pylon.knowledge_bases.create(org_id=ORG_ID, name=f"Async files {uuid.uuid4()}")
            kb = base["knowledge_base_id"]
            assert kb in [listed["knowledge_base_id"] async for listed in pylon.knowledge_bases.list()]
            uploaded = await pylon.knowledge.files.upload(pathlib.Path(report), knowledge_base_id=kb)
            while (document := await pylon.knowledge.documents.get(uploaded["doc_id"]))["status"] == "processing":
                await asyncio.sleep(0.1)
            assert document["status"] == "ready", document
            matches = (await pylon.knowledge.query(org_id=ORG_ID, query="silt conclusions", knowledge_base_ids=[kb]))["matches"]
            assert matches and all(match["doc_id"] == uploaded["doc_id"] for match in matches), matches
            downloaded = await pylon.knowledge.files.download(uploaded["doc_id"])
            with open(report, "rb") as handle:
                assert downloaded.content == handle.read() and downloaded.file_name == "report.pdf"
            replaced = await pylon.knowledge.documents.replace_file(uploaded["doc_id"], b"Cormorants dry their wings.", file_name="cormorants.txt")
            assert replaced["revision"] == 2, replaced
            await pylon.knowledge.documents.replace(uploaded["doc_id"], org_id=ORG_ID, content="Cormorants dive for fish.")
            batch = await pylon.knowledge.batches.create(files=[("a.md", b"# A\n\nAuks.\n"), ("b.md", b"# B\n\nBoobies.\n")], knowledge_base_id=kb)
            while (batch := await pylon.knowledge.batches.get(batch["batch_id"]))["status"] == "processing":
                await asyncio.sleep(0.1)
            assert batch["status"] == "completed" and batch["counts"]["ready"] == 2, batch
            texts = await pylon.knowledge.batches.create(org_id=ORG_ID, knowledge_base_id=kb, documents=[{"title": "C", "content": "Cranes."}])
            assert (await pylon.knowledge.batches.cancel(texts["batch_id"]))["batch_id"] == texts["batch_id"]
            renamed = await pylon.knowledge_bases.update(kb, description="async")
            assert renamed["description"] == "async", renamed
            assert (await pylon.knowledge_bases.get(kb))["document_count"] == 4
            await pylon.knowledge_bases.delete(kb, cascade=True)

    asyncio.run(main())
    print("AsyncPylon knowledge files: upload, query by base, download, replacements, batches, knowledge bases: ok")


def main() -> None:
    pylon = Pylon()
    admin = Pylon(api_key=os.environ["PYLON_ADMIN_TOKEN"])
    check_create_stream_wait(pylon)
    check_conversations(pylon)
    check_run_tools(pylon)
    check_required_action(pylon)
    check_async_tools(os.environ["PYLON_API_KEY"])
    check_cut_stream(os.environ["PYLON_API_KEY"])
    check_async(os.environ["PYLON_API_KEY"])
    check_create_retried_after_lost_answer(os.environ["PYLON_API_KEY"])
    check_rate_storm(admin)
    check_pagination(pylon)
    check_webhook(pylon)
    check_errors(pylon)
    check_every_method(admin)
    check_structured_output_and_costs(admin)
    check_async_creates_and_updates(os.environ["PYLON_ADMIN_TOKEN"])
    check_knowledge_files(pylon)
    check_async_knowledge_files(os.environ["PYLON_API_KEY"])


if __name__ == "__main__":
    main()
