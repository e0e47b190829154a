"""Standard Webhooks signature checks for what Pylon delivers."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

from ._errors import WebhookVerificationError


def verify_webhook(
    payload: str | bytes, headers: Mapping[str, str], secret: str | Sequence[str], *, tolerance_seconds: int = 300, now: float | None = None
) -> dict[str, Any]:
    """Checks a delivery (`webhook-id`, `webhook-timestamp`, `webhook-signature`) against the endpoint's secret, or
    both secrets during a rotation, and returns the event. Pass the body exactly as received."""
    lowered = {name.lower(): value for name, value in headers.items()}
    message_id, timestamp, signatures = lowered.get("webhook-id"), lowered.get("webhook-timestamp"), lowered.get("webhook-signature")
    if not message_id or not timestamp or not signatures:
        raise WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature")
    try:
        sent_at = int(timestamp)
    except ValueError as error:
        raise WebhookVerificationError("the webhook-timestamp is not a number") from error
    if abs((time.time() if now is None else now) - sent_at) > tolerance_seconds:
        raise WebhookVerificationError("the webhook-timestamp is too far from now (a replay, or a clock out of step)")
    body = payload.decode() if isinstance(payload, bytes) else payload
    signed = f"{message_id}.{timestamp}.{body}".encode()
    offered = [entry.split(",", 1)[1] for entry in signatures.split(" ") if entry.startswith("v1,")]
    for candidate in [secret] if isinstance(secret, str) else list(secret):
        key = base64.b64decode(candidate.removeprefix("whsec_"))
        expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
        if any(hmac.compare_digest(expected, signature) for signature in offered):
            event: dict[str, Any] = json.loads(body)
            return event
    raise WebhookVerificationError("no signature matches the secret")
