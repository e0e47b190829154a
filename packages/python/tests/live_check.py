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
import socket
import threading
import time
import uuid
from datetime import datetime, timedelta, timezone
from urllib.parse import urlparse

from pylon_sdk import AsyncPylon, AuthenticationError, InvalidApiKeyError, NotFoundError, Pylon, TERMINAL_EVENTS, WebhookVerificationError, models

ORG_ID = os.environ["ORG_ID"]
VERSION_ID = os.environ["AGENT_VERSION_ID"]


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
    assert mine.agents.model_providers()["data"][0] == {"provider": "local", "configured": True, "models": ["local/extractive", "local/echo"]}
    created = mine.agent_runs.create(org_id=org["org_id"], agent_version_id=version["agent_version_id"], input="hello")
    try:
        mine.agent_runs.cancel(created["run_id"])
    except Exception as error:  # a run that already finished cannot be cancelled: 409
        assert getattr(error, "status", None) == 409, error
    assert [event.seq for event in mine.agent_runs.stream(created["run_id"])][0] == 1
    assert [event["seq"] for event in mine.agent_runs.events(created["run_id"])][0] == 1
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
        async with AsyncPylon(api_key=key["api_key"]) as mine:
            own = await mine.api_keys.create(name="own", scopes=["runs:read"])
            await mine.api_keys.roll(own["key_id"], grace_seconds=0)
            agent = await mine.agents.create(org_id=org["org_id"], name="Async agent")
            version = await mine.agents.create_version(agent["agent_id"], model="local/extractive", instructions="Answer.")
            run = await mine.agent_runs.create_and_wait(org_id=org["org_id"], agent_version_id=version["agent_version_id"], input="hello", idempotency_key=str(uuid.uuid4()))
            assert run["status"] == "succeeded", run
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


def main() -> None:
    pylon = Pylon()
    admin = Pylon(api_key=os.environ["PYLON_ADMIN_TOKEN"])
    check_create_stream_wait(pylon)
    check_cut_stream(os.environ["PYLON_API_KEY"])
    check_async(os.environ["PYLON_API_KEY"])
    check_create_retried_after_lost_answer(os.environ["PYLON_API_KEY"])
    check_rate_storm(admin)
    check_pagination(pylon)
    check_webhook(pylon)
    check_errors(pylon)
    check_every_method(admin)
    check_async_creates_and_updates(os.environ["PYLON_ADMIN_TOKEN"])


if __name__ == "__main__":
    main()
