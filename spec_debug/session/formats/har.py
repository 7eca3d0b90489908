"""HTTP Archive (HAR 1.2) files of an agent's calls to a model API: what a proxy or a browser's
network panel saves of the traffic it saw, ``{"log": {"version", "creator", "pages", "entries":
[{startedDateTime, request: {method, url, headers, postData: {mimeType, text}}, response: {status,
headers, content: {mimeType, text, encoding?}}}]}}``. mitmproxy writes it (``mitmdump --set
hardump=calls.har``, or ``save.har``: mitmproxy/mitmproxy ``mitmproxy/addons/savehar.py``,
``flow_entry``), the request body as the text it was sent, the answer as text, or base64 where it
is mostly binary, and a call that got no answer with status 0 and its ``_error``.

Each entry whose request body holds a conversation becomes the ``{"request", "response"}``
record of a logging proxy (:func:`formats.openai_chat.is_proxied_call`), read as one: a request
resends the history, a streamed answer is its event text. Other entries (telemetry, model lists)
hold no call of the agent and are left out.
"""

from __future__ import annotations

import base64
import binascii
import re
from pathlib import Path

from spec_debug.session.formats.compressed import read_head
from spec_debug.session.reader import inner_json

_HEAD = re.compile(rb'\A(?:\xef\xbb\xbf)?\s*\{\s*"log"\s*:\s*\{')
"""A HAR document's first key: ``log``, an object (every writer puts it first: it is the only one)."""


def looks_like_head(head: bytes) -> bool:
    """``head`` (the file's first bytes) opens a HAR document."""
    return _HEAD.match(head) is not None and b'"entries"' in head


def is_har(path: Path) -> bool:
    try:
        return looks_like_head(read_head(path, 8192))
    except OSError:
        return False


def calls(document: dict) -> list[dict] | None:
    """The entries of a HAR ``document`` as logged calls ``{"request": {method, url, body},
    "response": {status_code, body, error}, "timestamp"}``, the bodies decoded from their text
    where they are JSON; None when ``document`` is no HAR."""
    log = document.get("log")
    entries = log.get("entries") if isinstance(log, dict) else None
    if not isinstance(entries, list):
        return None
    return [call for entry in entries if isinstance(entry, dict) and (call := _call(entry)) is not None]


def _call(entry: dict) -> dict | None:
    request = entry.get("request")
    post = request.get("postData") if isinstance(request, dict) else None
    text = post.get("text") if isinstance(post, dict) else None
    if not isinstance(text, str) or not text.lstrip().startswith("{"):
        return None
    try:
        body = inner_json(text)
    except ValueError:
        return None
    if not isinstance(body, dict):
        return None
    response = entry.get("response") if isinstance(entry.get("response"), dict) else {}
    content = response.get("content") if isinstance(response.get("content"), dict) else {}
    answer = content.get("text")
    if isinstance(answer, str) and content.get("encoding") == "base64":
        try:
            answer = base64.b64decode(answer, validate=False).decode("utf-8")
        except (binascii.Error, ValueError):
            answer = None
    if isinstance(answer, str) and answer.lstrip().startswith("{"):
        try:
            answer = inner_json(answer)
        except ValueError:
            pass  # kept as text: a proxy's body that is no JSON (openai_chat._proxied_call)
    error = response.get("_error")
    sent = request.get("headers")  # [{name, value}]: the name of the conversation a request says (sources)
    headers = {h["name"].lower(): h["value"] for h in sent if isinstance(h, dict) and isinstance(h.get("name"), str)
               and isinstance(h.get("value"), str)} if isinstance(sent, list) else {}
    record: dict = {"request": {"method": request.get("method"), "url": request.get("url"), "headers": headers,
                                "body": body},
                    "response": {"status_code": response.get("status"), "body": answer,
                                 "error": error if isinstance(error, str) else None}}
    started = entry.get("startedDateTime")
    if isinstance(started, str) and started:
        record["timestamp"] = started
    return record
