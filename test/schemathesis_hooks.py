"""Schemathesis hooks for the test suite's fuzzing run (test/e2e/schemathesis.e2e.test.ts).

A body's org_id must be the organisation of the key (403 otherwise), which no schema can say, so a
generated org_id that is a well-formed id becomes the tenant's: the operations are then fuzzed past
authorisation. An org_id that is not a well-formed id is left as drawn, so negative cases stay negative.
"""

import os
import re

import schemathesis

ORG_ID = os.environ.get("PYLON_FUZZ_ORG_ID")
UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")


def _own(value):
    return ORG_ID if ORG_ID and isinstance(value, str) and UUID.match(value) else value


@schemathesis.hook
def map_body(ctx, body):
    if isinstance(body, dict) and "org_id" in body:
        body["org_id"] = _own(body["org_id"])
    return body


@schemathesis.hook
def map_query(ctx, query):
    if isinstance(query, dict) and "org_id" in query:
        query["org_id"] = _own(query["org_id"])
    return query
