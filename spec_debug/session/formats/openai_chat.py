"""OpenAI chat-completions ``messages``: a JSON array, ``{"messages": [...]}``, or JSONL.

``tool_calls[].function.arguments`` is a JSON string in the OpenAI API, but some
OpenAI-compatible stacks (Ollama, some vLLM tool parsers) send an object and leave out
``id``; both are accepted (TRANSCRIPTS.md section 1e). The same layouts saved from the
Anthropic Messages API (``tool_use``/``tool_result`` content blocks) are read too, and so are
Responses API requests and responses saved whole (``input``/``output`` items), Chat Completions
responses saved whole (``chat.completion``), Assistants API thread messages, logs of request
bodies (each resending the history), and mini-swe-agent trajectories
(:mod:`formats.mini_swe_agent`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from datetime import timezone
from email.utils import parsedate_to_datetime
from itertools import islice
from pathlib import Path

from spec_debug.session.events import Event, ReadStats
from spec_debug.session.formats import (
    aider_context, claude_code, cline_task, codex, codex_tool_ends, continue_session, har, hermes_code, kimi_cli,
    server_tools, sharegpt)
from spec_debug.session.formats.common import (
    SHELL_TOOL_NAMES,
    Cursor,
    attachments_shown,
    bare_command,
    block_text,
    call_path,
    call_text,
    decode_arguments,
    exit_code_of,
    remote_host,
    shell_command,
    shell_result,
    trailing_exit_code,
)
from spec_debug.session.formats.gemini_parts import PartsReader, user_events
from spec_debug.session.formats.instants import stamp
from spec_debug.session.formats.mini_swe_agent import ShownCommand, observation
from spec_debug.session.formats.compressed import open_transcript, read_head
from spec_debug.session.reader import decode_json, inner_json, iter_json_array, iter_json_records

ROLES = frozenset({"system", "developer", "user", "assistant", "tool", "function", "ipython"})
_RESULT_ROLES = ("tool", "function", "ipython")
"""Roles of a tool's output: ``tool``, the legacy ``function``, and Llama 3.1's ``ipython`` ("semantically
... the 'tool' role": Meta's Llama 3.1 prompt format), kept by agent loops run on Llama models."""


def looks_like(obj: dict) -> bool:
    role = obj.get("role")
    return (isinstance(role, str) and role in ROLES) or isinstance(obj.get("messages"), list) \
        or _goose_stream_message(obj) is not None \
        or is_responses_exchange(obj) or is_chatgpt_conversation(obj) or is_chat_completion(obj) \
        or is_thread_message_list(obj) or is_proxied_call(obj) or is_item_list(obj) \
        or (role == "model" and isinstance(obj.get("parts"), list)) \
        or sharegpt.is_trajectory(obj)
    # (Gemini API Content: formats.gemini_parts; ShareGPT trajectories: formats.sharegpt)


def _goose_stream_message(obj: dict) -> dict | None:
    """``goose run --output-format stream-json``: ``{"type": "message", "message": {id?, role,
    created, content: [...]}}`` (the shape two independent readers of Goose's stream parse), the
    message, or None."""
    inner = obj.get("message")
    if obj.get("type") != "message" or "role" in obj or not isinstance(inner, dict):
        return None
    role = inner.get("role")
    return inner if isinstance(role, str) and role in ROLES and isinstance(inner.get("content"), list) else None


def is_chatgpt_conversation(obj: dict) -> bool:
    """A conversation of ChatGPT's data export (``conversations.json`` is a list of them):
    ``{title, create_time, mapping: {node id: {message, parent, children}}, current_node}``
    (the export's schema as mitkury/chatgpt-export-parser ``docs/chatgpt-data-export-format.md``
    describes it). ``--input-format chatgpt`` named it, and each one was read as a single
    message of no known role: no prompt, no reply, no time."""
    return isinstance(obj.get("mapping"), dict) and "current_node" in obj and "role" not in obj


def is_chat_completion(obj: dict) -> bool:
    """A Chat Completions response saved whole (``print(completion.model_dump_json())``, a proxy's
    log of answers): ``{id, object: "chat.completion", created, model, choices: [{index, message,
    finish_reason}], usage}`` (openai/openai-python ``types/chat/chat_completion.py``). Its
    messages are under ``choices``: read as one record of no role, the answer was an unknown type,
    a file of them no transcript."""
    return obj.get("object") == "chat.completion" and isinstance(obj.get("choices"), list) and "role" not in obj


def is_thread_message_list(obj: dict) -> bool:
    """A page of an Assistants API thread's messages as ``client.beta.threads.messages.list()``
    returns it: ``{object: "list", data: [{object: "thread.message", role, content, created_at}],
    has_more}``, newest first by default (openai/openai-python ``resources/beta/threads/
    messages.py``, ``order`` "desc")."""
    data = obj.get("data")
    return obj.get("object") == "list" and isinstance(data, list) and any(
        isinstance(m, dict) and m.get("object") == "thread.message" for m in data[:8])


def is_item_list(obj: dict) -> bool:
    """A page of Responses items as the API lists them: a conversation's (``client.conversations.
    items.list(conv)``, where the Agents SDK's ``OpenAIConversationsSession`` keeps a session) or a
    response's input (``client.responses.input_items.list``), ``{object: "list", data: [items],
    first_id, last_id, has_more}`` (openai/openai-python ``resources/conversations/items.py``)."""
    data = obj.get("data")
    return obj.get("object") == "list" and isinstance(data, list) and any(
        isinstance(i, dict) and (looks_like_item(i) or i.get("type") == "message" and isinstance(i.get("role"), str))
        for i in data[:8])


def _items_oldest_first(items: list) -> list:
    """A page of :func:`is_item_list` in the order the conversation went. Newest first unless
    listed with ``order="asc"`` ("Default is `desc`", ``resources/conversations/items.py``), and the
    items have no time: a call's output before the call says the page is newest first, a call
    before its output that it is not; with no call, a page that begins with the person's message
    (and does not end with it) is oldest first."""
    at: dict[str, int] = {}
    for i, item in enumerate(items):
        call_id = item.get("call_id") if isinstance(item, dict) else None
        if not isinstance(call_id, str):
            continue
        item_type = item.get("type")
        if isinstance(item_type, str) and item_type.endswith("_output"):
            return items if call_id in at else items[::-1]  # its call came first, or not yet
        at.setdefault(call_id, i)
    roles = [i["role"] for i in items if isinstance(i, dict) and i.get("role") in ("user", "assistant")]
    return items if roles and roles[0] == "user" and roles[-1] != "user" else items[::-1]


def is_responses_exchange(obj: dict) -> bool:
    """A Responses API request body (``{model, instructions, input: [...]}``) or response object
    (``{object: "response", output: [...]}``), saved whole: the items of the conversation are
    under ``input`` and ``output`` (openai/openai-python ``types/responses/
    response_create_params.py`` and ``response.py``; the same items as :func:`looks_like_item`)."""
    if "role" in obj or "payload" in obj or "messages" in obj:
        return False
    if obj.get("object") == "response" and isinstance(obj.get("output"), list):
        return True
    if _prompt_request(obj) and any(key in obj for key in _RESPONSES_REQUEST_KEYS):
        return True
    return any(isinstance(obj.get(key), list) and any(
        isinstance(v, dict) and (looks_like_item(v) or isinstance(v.get("role"), str) and v["role"] in ROLES)
        for v in obj[key][:8]) for key in ("input", "output"))


_RESPONSES_REQUEST_KEYS = frozenset({"instructions", "previous_response_id", "conversation", "tools", "tool_choice",
                                     "reasoning", "text", "max_output_tokens", "include", "parallel_tool_calls",
                                     "truncation", "background", "store", "stream"})
"""Parameters of a Responses API request (openai/openai-python ``types/responses/response_create_params.py``)
that no request of another endpoint taking ``{model, input}`` has: an embeddings request is ``{model,
input, encoding_format, dimensions, user}``, a moderation ``{model, input}``."""


def _prompt_request(obj: dict) -> bool:
    """A request body whose ``input`` is the prompt as one string, ``client.responses.create(model=...,
    input="...")``, the SDK's and the API reference's first example (its ``input``: "Text, image, or
    file inputs to the model", ``str | ResponseInputParam``)."""
    return isinstance(obj.get("model"), str) and isinstance(obj.get("input"), str) and bool(obj["input"].strip())


def _is_response_answer(answer: object) -> bool:
    """A logged answer that is a Responses API response object (or an HTTP proxy's record of one)."""
    if isinstance(answer, dict) and isinstance(answer.get("body"), dict):
        answer = answer["body"]
    return isinstance(answer, dict) and answer.get("object") == "response" and isinstance(answer.get("output"), list)


def conversation(obj: dict) -> list | None:
    """The messages of a record that holds a whole conversation: a chat request's ``messages``,
    a Responses API exchange's ``instructions`` (a system message), ``input`` (a string is the
    prompt) and ``output`` items, a ChatGPT export's conversation; None when the record is
    itself one message."""
    if isinstance(obj.get("messages"), list):
        response = obj.get("response")
        if isinstance(response, dict) and (answer := _answer(response)):
            # LiteLLM's StandardLoggingPayload, what its file, S3 and GCS loggers keep of each call:
            # {messages, response: <the chat.completion>, status, ...} (BerriAI/litellm
            # litellm/types/utils.py); the answer is in no request
            return [*obj["messages"], *answer]
        return obj["messages"]
    if continue_session.is_session(obj):
        return continue_session.messages(obj)
    if sharegpt.is_trajectory(obj):
        return sharegpt.messages(obj)
    if is_chatgpt_conversation(obj):
        return chatgpt_messages(obj)
    if is_chat_completion(obj):
        return [c["message"] for c in obj["choices"] if isinstance(c, dict) and isinstance(c.get("message"), dict)]
    if is_proxied_call(obj):
        return _proxied_call(obj["request"], obj.get("response"))
    if is_item_list(obj) and not is_thread_message_list(obj):
        return _items_oldest_first(obj["data"])
    if not is_responses_exchange(obj):
        return None
    found: list = []
    for key, role in (("instructions", "developer"), ("input", "user")):
        value = obj.get(key)
        if isinstance(value, str) and value.strip():
            found.append({"role": role, "content": value})
        elif isinstance(value, list):
            found += value
    output = obj.get("output")
    if isinstance(output, list):
        found += output
    elif isinstance(output, dict) and isinstance(output.get("role"), str):
        found.append(output)  # one reply message logged beside the request
    return found


def is_litellm_payload(obj: dict) -> bool:
    """LiteLLM's StandardLoggingPayload of one call, ``{id, call_type, messages, response, status,
    startTime, ...}`` (BerriAI/litellm ``litellm/types/utils.py``), what its file, S3 and GCS
    loggers keep (:func:`conversation` reads its answer)."""
    return isinstance(obj.get("messages"), list) and isinstance(obj.get("call_type"), str) and "response" in obj


def is_proxied_call(obj: dict) -> bool:
    """A logging proxy's record of one call whose request holds a conversation (:func:`_proxied_call`)."""
    request = obj.get("request")
    if not isinstance(request, dict) or "role" in obj or "messages" in obj:
        return False
    body = request.get("body") if isinstance(request.get("body"), dict) else request
    # A request with only {model, input: "..."} is a Responses call when a response object answered it
    return isinstance(body.get("messages"), list) or is_responses_exchange(body) \
        or (_prompt_request(body) and _is_response_answer(obj.get("response")))


def _proxied_call(request: dict, response: object) -> list:
    """The messages of one call a logging proxy kept, ``{"request": ..., "response": ...}``: the
    conversation the request sent and the answer. dolphin-logger (QuixiAI/dolphin-logger
    ``src/dolphin_logger/providers/openai.py``) keeps the request JSON and the reply's text, or the
    whole ``chat.completion`` when the text is empty (a tool call); HTTP-level proxies keep
    ``{method, url, headers, body}`` and ``{status_code, headers, body, error}`` (llm-debug,
    SingularityDAO-dev/tamashii-terminal). Each request resends the history, as a log of request
    bodies does (:func:`read`)."""
    body = request.get("body") if isinstance(request.get("body"), dict) else request
    messages = conversation(body) or ([{"role": "user", "content": body["input"]}] if _prompt_request(body) else [])
    answer = response.get("body") if isinstance(response, dict) and "body" in response else response
    if isinstance(answer, str) and answer.lstrip().startswith("{"):
        try:
            answer = inner_json(answer)  # an HTTP proxy's body kept as the text it was sent
        except ValueError:
            return messages
    if isinstance(answer, str) and is_event_stream(answer):
        return [*messages, *streamed_answer(answer)]
    if isinstance(answer, str) and answer.strip():
        return [*messages, {"role": "assistant", "content": answer}]
    return [*messages, *_answer(answer)] if isinstance(answer, dict) else messages


def is_event_stream(text: str) -> bool:
    """``text`` is a server-sent event stream: it opens with a ``data:`` or ``event:`` line, after
    any comments (a line that starts with a colon: the WHATWG HTML standard, "Server-sent events",
    ignores it). OpenRouter sends ``: OPENROUTER PROCESSING`` comments into a stream while the model
    works (openrouter.ai/docs/api-reference/streaming): a stream that opened with one was read as
    the assistant's words, the raw ``data:`` lines, its tool calls lost."""
    text = text.lstrip()
    while text.startswith(":"):
        end = text.find("\n")
        if end < 0:
            return False
        text = text[end + 1:].lstrip()
    return text.startswith(("data:", "event:"))


def streamed_answer(text: str) -> list[dict]:
    """The answer of a streamed call that an HTTP proxy kept as the text it was sent, ``data:
    {chat.completion.chunk}`` lines then ``data: [DONE]``, or a Messages API stream's ``event:`` and
    ``data:`` lines (:mod:`formats.anthropic_stream`), or a Responses API stream's
(:func:`formats.responses_stream.output_items`): llm-debug keeps ``upstream_resp.text`` where
    the body is no JSON (SingularityDAO-dev/tamashii-terminal ``llm-debug/app.py``), and a
    ``"stream": true`` answer is none. Left out, the last call's answer was lost with its tool
    calls: what the agent was doing when the log ends (no later request resends them)."""
    from spec_debug.session.formats import anthropic_stream, chat_stream, responses_stream  # (they import this one)

    chunks = []
    for line in text.splitlines():
        data = line[5:].strip() if line.startswith("data:") else ""
        if data.startswith("{"):
            try:
                chunk = inner_json(data)
            except ValueError:
                continue
            if isinstance(chunk, dict):
                chunks.append(chunk)
    if any(responses_stream.looks_like(c) for c in chunks):
        return responses_stream.output_items(chunks)  # a Responses API stream: its output items
    if not any(chat_stream.looks_like(c) for c in chunks):
        return anthropic_stream.messages_of(chunks)
    # without the chunks' time (``created``), as the loop sends the message back in its next request
    return [{k: v for k, v in message.items() if k != "created"} for message in chat_stream.messages_of(chunks)]


def _failed_call(obj: dict) -> str | None:
    """What a logged call to the model that failed says, or None: an HTTP proxy's record of an
    error status (``{"response": {"status_code": 429, "body": {"error": {"message"}}}}``) or of a
    call that got no answer (``"error": "ReadTimeout..."``), LiteLLM's payload of a failed call
    (``status: "failure"``, ``error_information.error_message`` or ``error_str``: BerriAI/litellm
    ``litellm/types/utils.py`` StandardLoggingPayload). The agent's requests failed: the
    analysis's agent error, as a failed turn of Codex is."""
    response = obj.get("response")
    if isinstance(obj.get("messages"), list):
        if obj.get("status") != "failure":
            return None
        info = obj.get("error_information")
        said = info.get("error_message") if isinstance(info, dict) else None
        said = said if isinstance(said, str) and said else obj.get("error_str")
        return said if isinstance(said, str) and said else "the call to the model failed"
    if not isinstance(response, dict) or not is_proxied_call(obj):
        return None
    if isinstance(response.get("error"), str) and response["error"]:
        return response["error"]
    status = response.get("status_code")
    body = response.get("body")
    if isinstance(body, str) and '"error"' in body and is_event_stream(body) \
            and (said := _stream_error(body)) is not None:
        return said  # a stream that failed after its 200 (streamed_answer reads the rest)
    if type(status) is not int or status < 400:
        return None
    error = body.get("error") if isinstance(body, dict) else None
    said = error.get("message") if isinstance(error, dict) else error
    return f"HTTP {status}: {said}" if isinstance(said, str) and said else f"HTTP {status}"


def _stream_error(text: str) -> str | None:
    """The error a streamed answer a proxy kept as text (:func:`streamed_answer`) ended with, or
    None: the Messages API's ``event: error`` / ``data: {"type": "error", "error": {type,
    message}}`` (overloaded_error, api_error: anthropics/anthropic-sdk-python ``src/anthropic/
    _streaming.py`` raises it), a Chat Completions stream's ``data: {"error": {...}}``, or the
    Responses API's ``error`` event and ``response.failed``. The call failed though its status was
    200: read as an answer cut short, the agent's failed call went unseen."""
    for line in text.splitlines():
        data = line[5:].strip() if line.startswith("data:") else ""
        if not data.startswith("{") or '"error"' not in data:
            continue
        try:
            event = inner_json(data)
        except ValueError:
            continue
        if not isinstance(event, dict) or "choices" in event:
            continue
        kind = event.get("type")
        error = event.get("response", {}).get("error") if kind == "response.failed" \
            and isinstance(event.get("response"), dict) else event.get("error") if kind in (None, "error") else None
        if kind == "error" and not isinstance(error, (dict, str)):
            error = event  # the Responses API's ErrorEvent{code, message}
        if isinstance(error, str) and error:
            return error
        if isinstance(error, dict):
            said = error.get("message") if isinstance(error.get("message"), str) else "the stream failed"
            code = error.get("type") or error.get("code")
            return f"{code}: {said}" if isinstance(code, str) and code else said
    return None


def _answer(answer: dict) -> list:
    """The messages of an API's answer kept beside its request: a ``chat.completion``'s choices, a
    Responses response's output items, or an Anthropic Messages answer (``{id, type: "message",
    role, content, stop_reason, usage}``) as role and content, the way the next request sends it
    back; none for anything else."""
    if is_chat_completion(answer):
        return conversation(answer) or []
    if _is_response_object(answer):
        return answer["output"]
    if answer.get("role") == "assistant" and isinstance(answer.get("content"), list):
        return [{"role": "assistant", "content": answer["content"]}]
    return []


def chatgpt_messages(conv: dict) -> list[dict]:
    """The shown branch of a ChatGPT export's conversation as chat messages, oldest first: the
    path from ``current_node`` up through each ``parent`` (a regenerated answer or an edited
    prompt leaves other branches in ``mapping``, not shown in the app). A message's time is
    its ``create_time`` in epoch seconds; its text the string ``parts`` of ``content``, or
    ``content.text`` for code and its output. Hidden messages (the empty system root, custom
    instructions) are left out."""
    mapping = conv["mapping"]
    chain: list[dict] = []
    node_id, seen = conv.get("current_node"), set()
    while isinstance(node_id, str) and node_id not in seen and isinstance(mapping.get(node_id), dict):
        seen.add(node_id)
        node = mapping[node_id]
        if isinstance(node.get("message"), dict):
            chain.append(node["message"])
        node_id = node.get("parent")
    out: list[dict] = []
    for msg in reversed(chain):
        author = msg.get("author") if isinstance(msg.get("author"), dict) else {}
        role = author.get("role")
        content = msg.get("content") if isinstance(msg.get("content"), dict) else {}
        meta = msg.get("metadata") if isinstance(msg.get("metadata"), dict) else {}
        if not isinstance(role, str) or meta.get("is_visually_hidden_from_conversation") is True:
            continue
        text = _chatgpt_text(content)
        if not text.strip():
            continue
        message: dict = {"role": role, "content": text, "timestamp": msg.get("create_time")}
        recipient = msg.get("recipient")
        if role == "assistant" and content.get("content_type") == "thoughts":
            message = {"role": role, "content": "", "reasoning": text, "timestamp": msg.get("create_time")}
        elif role == "assistant" and isinstance(recipient, str) and recipient not in ("all", ""):
            # code sent to a tool (the Python sandbox, a plugin); its output comes back as role tool
            message = {"role": role, "content": None, "timestamp": msg.get("create_time"),
                       "tool_calls": [{"id": str(msg.get("id")), "function": {"name": recipient, "arguments": text}}]}
        elif role == "system" and meta.get("is_user_system_message") is True:
            continue  # custom instructions, the same in every conversation
        out.append(message)
    return out


def _chatgpt_text(content: dict) -> str:
    parts = content.get("parts")
    if isinstance(parts, list):
        return "\n".join(p if isinstance(p, str) else p.get("text", "") if isinstance(p, dict) and
                         isinstance(p.get("text"), str) else "" for p in parts).strip()
    if isinstance(content.get("text"), str):  # code, execution_output, tether_quote
        return content["text"]
    thoughts = content.get("thoughts")
    if isinstance(thoughts, list):  # a reasoning model's "thoughts": [{summary, content}]
        return "\n".join(t["content"] for t in thoughts if isinstance(t, dict) and isinstance(t.get("content"), str))
    return ""


def looks_like_item(obj: dict) -> bool:
    """A Responses API item without a role (a tool call, its output, a reasoning item) as the
    OpenAI Agents SDK saves it beside role messages (:class:`codex.ResponseItems`)."""
    item_type = obj.get("type")
    return "role" not in obj and "payload" not in obj and isinstance(item_type, str) \
        and item_type in codex.RESPONSE_ITEM_TYPES


def is_ollama_answer(obj: dict, streamed: bool = False) -> bool:
    """Ollama's answer to a ``/api/chat`` request made with ``"stream": false``: one object
    ``{model, created_at, message: {role, content, thinking?, tool_calls?}, done: true,
    done_reason, total_duration, ...}`` (ollama/ollama ``docs/api.md``, "Chat request (No
    streaming)"), logged after the request (``{model, messages}``) it answers. Read as one record of
    no role, the answer, and the commands it called, were an unknown type. ``streamed``: or a piece
    of a streamed one (``done: false``; :func:`_ollama_streams`)."""
    return (obj.get("done") is True or (streamed and obj.get("done") is False)) \
        and isinstance(obj.get("message"), dict) and isinstance(obj.get("model"), str) \
        and "role" not in obj and "type" not in obj


def is_chat_record(obj: dict) -> bool:
    """A record of a chat log this reader reads: a message (or a whole conversation), a Responses
    API item without a role, or an Ollama answer or a piece of a streamed one."""
    return looks_like(obj) or looks_like_item(obj) or is_ollama_answer(obj, streamed=True)


def _ollama_streams(records: Iterable[tuple[int, int, dict]]) -> Iterator[tuple[int, int, dict]]:
    """The records with each streamed Ollama answer made one: the pieces (``done: false``, each
    ``message`` a few words, a ``tool_calls`` list, or ``thinking``) and the last one (``done: true``,
    its ``message.content`` empty, the durations) as Ollama streams ``/api/chat`` by default (a
    line each: ``{"model", "created_at", "message": {"role": "assistant", "content": "Hel"}, "done":
    false}``). The last one alone was read as an empty answer, the pieces as unknown records: the
    next request, which sends the whole answer back, no longer began with the history read, and
    the conversation was read again from its first prompt."""
    pieces: list[tuple[int, int, dict]] = []
    for index, lineno, obj in records:
        if is_ollama_answer(obj, streamed=True) and (pieces or obj.get("done") is False):
            pieces.append((index, lineno, obj))
            if obj.get("done") is False:
                continue
        if pieces:
            yield _one_answer(pieces)
            done = pieces[-1][2].get("done") is True
            pieces = []
            if done:
                continue
        yield index, lineno, obj
    if pieces:
        yield _one_answer(pieces)  # a stream cut short: what came of it


def _one_answer(pieces: list[tuple[int, int, dict]]) -> tuple[int, int, dict]:
    """A streamed answer's pieces as the one answer they make (:func:`_ollama_streams`)."""
    message: dict = {}
    for _, _, piece in pieces:
        for key, value in piece["message"].items():
            if isinstance(value, str) and isinstance(message.get(key), str) and key != "role":
                message[key] += value
            elif isinstance(value, list) and isinstance(message.get(key), list):
                message[key] = message[key] + value
            elif key not in message or message[key] in (None, "", []):
                message[key] = value
    index, lineno, _ = pieces[0]
    return index, lineno, {**pieces[-1][2], "message": message, "done": True}


def _thread_in_order(records: Iterable[tuple[int, int, dict]], stats: ReadStats) -> Iterator[tuple[int, int, dict]]:
    """The records with each run of Assistants thread messages (``thread.message`` objects one a
    line or in an array, or pages of them) oldest first. The API lists a thread newest first
    (``order`` "desc" by default: openai/openai-python ``resources/beta/threads/messages.py``), and
    so does a dump of ``for m in client.beta.threads.messages.list(...)`` across its pages: read
    as written, the last answer came first and the first prompt last. A run in ascending order
    (``order="asc"``) is kept as it is; times in whole seconds that are all one say nothing, so such
    a run is taken as the API's default."""
    run: list[tuple[int, int, dict]] = []
    for index, lineno, obj in records:
        kind = obj.get("object")
        if kind == "thread.message":
            run.append((index, lineno, obj))
            continue
        if kind == "list" and is_thread_message_list(obj):
            for message in obj["data"]:
                if isinstance(message, dict):
                    run.append((index, lineno, message))
                else:
                    stats.non_object += 1
            continue
        if run:
            yield from _oldest_first(run)
            run = []
        yield index, lineno, obj
    yield from _oldest_first(run)


def _oldest_first(run: list[tuple[int, int, dict]]) -> list[tuple[int, int, dict]]:
    """A run of thread messages oldest first: turned round unless listed so, then in ``created_at``
    order where each has one, the order kept between messages of one second. Two threads dumped one
    after the other (a loop over the thread ids as they were made), each newest first, had the second
    thread first, or, the second thread the newer, every answer before its question."""
    ordered = run if _listed_ascending(m for _, _, m in run) else run[::-1]
    if all(type(m.get("created_at")) in (int, float) for _, _, m in ordered):
        ordered = sorted(ordered, key=lambda r: r[2]["created_at"])
    return ordered


def _listed_ascending(messages: Iterable) -> bool:
    """Thread messages listed oldest first: more of them come after an older one than after a newer
    one (``created_at``, epoch seconds), not only the first before the last (two threads each newest
    first, the second the newer)."""
    times = [m.get("created_at") for m in messages if isinstance(m, dict) and type(m.get("created_at")) in (int, float)]
    steps = list(zip(times, times[1:]))
    return sum(a < b for a, b in steps) > sum(a > b for a, b in steps)


def read(path: Path, cursor: Cursor, stats: ReadStats, *, array: bool, parts: Iterable[Path] = (),
         only: frozenset[int] | None = None, span: tuple[int, int, int] | None = None) -> Iterator[Event]:
    """``parts``: files read after ``path`` as more records of its log (a proxy's folder of one
    file per call: ``sources._proxy_log_folders``), each event naming the file it came from.
    ``only``: the lines read, where the file logs several conversations (``sources.
    _logged_conversations``); ``span``: the bytes of ``path`` read and the line they start on,
    where each line is a conversation (``sources._trajectory_lines``)."""
    call_names: dict[str, str] = {}
    items = codex.ResponseItems()
    shown = ShownCommand()
    gemini = PartsReader()
    unanswered: list[str] = []
    seq = cursor.seq_base - 1
    previous: list | None = None
    heads: list[list] = []  # the conversations read, each as its latest request gave it, the latest last
    systems: set[str] = set()  # the Anthropic system prompts read (request_system): each once
    aside = False  # the record before was a side call's request (is_title_call, is_claude_side_call)
    for file in (path, *parts):
        cursor.file = str(file)
        if span is not None and file == path:
            # one line of the file: its line numbers as the file's (the reader counts from the span's)
            records = ((index, lineno + span[2] - 1, obj)
                       for index, lineno, obj in iter_json_records(file, stats, span=span[:2]))
        else:
            records = iter_json_array(file, stats) if array else iter_json_records(file, stats)
        lines = only
        if not array and har.is_har(file):
            records, lines = _har_calls(records, only), None
        records = _ollama_streams(_thread_in_order(records, stats))
        if array and (system := _document_system(file)):
            systems.add(system)
            seq += 1
            yield Event(session=cursor.session, seq=seq, agent=cursor.agent, role="system", kind="system",
                        file=cursor.file, line=1, text=system)
        for _index, lineno, obj in records:
            if lines is not None and lineno not in lines:
                continue  # another conversation's call
            if "request" in obj and counts_tokens(obj):
                continue  # a proxy's record of a token count: no call of the model
            # A JSONL line (or a whole file) may itself be a conversation: {"messages": [...]}, one
            # line of fine-tuning data, or a Responses API request or response saved whole.
            messages = conversation(obj)
            answer = messages is None and is_ollama_answer(obj)
            if answer:
                messages = [obj["message"]]
            start, kept, compacted = 0, None, False
            if aside:
                aside = False
                if answer or (_is_message_object(obj) if messages is None else
                              is_chat_completion(obj) or _is_response_object(obj)):
                    continue  # its answer, saved after it: no more a turn than its request
            record_ts = None if messages is None else time_of(obj)
            if record_ts is None and messages is not None and ("request" in obj or "call_type" in obj):
                record_ts = _answered_at(obj)
            if messages is None:
                messages = [obj]
                if previous is not None and _is_message_object(obj):
                    # An Anthropic answer saved whole after its request: the next request of the
                    # loop sends it back as {role, content}, after the history it answered
                    previous = previous + [{"role": obj["role"], "content": obj["content"]}]
                    heads[-1] = previous
                else:
                    previous = None
            elif answer or is_chat_completion(obj) or _is_response_object(obj):
                # An answer (a Responses API response's output items too): the next request of the
                # loop sends it back after the history it answered
                if previous is not None:
                    previous = previous + messages
                    heads[-1] = previous
            else:
                # A log of the requests an agent loop sent: each one resends the whole history
                # (chat completions and Responses ``input`` are stateless), so an earlier line's
                # conversation is this one's head. Read once, a command run once is not repeated
                # (three copies would read as a loop of it). Not only the line before: loops run
                # side by side through one proxy (an eval's samples) interleave their requests, and
                # each of a conversation's calls was read again after another conversation's line.
                if is_title_call(messages) or is_claude_side_call(obj, messages):
                    aside = True
                    continue  # OpenCode's or Claude Code's side call (a title, ...): no turn of the conversation
                if (fork := claude_fork_at(messages)) is not None:
                    # Claude Code's guess at the person's next prompt, or its compaction: the
                    # conversation so far is read (its last answer may be only here), the question
                    # and its answer are not (a compaction's summary opens the requests after it)
                    compacted = is_claude_compaction(messages[fork])
                    messages = messages[:fork]
                    aside = True  # (its answer, saved on the next line)
                messages = aider_context.without_context(messages)  # aider's own, its map changing
                at = _longest_head(heads, messages)
                if at is not None:
                    start = len(heads[at])
                    del heads[at]  # this request holds it now: one copy of each conversation is kept
                elif heads and (trimmed := _trimmed(heads, messages)) is not None:
                    # The loop trimmed its history (the oldest turns dropped or summarised), keeping
                    # the latest calls: only what this request adds around them is new
                    at, kept = trimmed
                    del heads[at]
                elif heads and (rebuilt := _after_codex_compaction(messages)) is not None:
                    # Codex rebuilt its history after its own compaction: its context and the
                    # person's earlier messages, read before, then the summary; only what follows is new
                    start = rebuilt
                elif heads:
                    # No conversation read before is all of this one's head: it may have left one
                    # part way (n samples or a retry sent from the same history, then each went its
                    # own way). The messages they share were read with the first; the branch is kept
                    # beside it, both may go on. Only here, where no head matched: one loop's log
                    # never gets this far.
                    start = _shared_start(heads, messages)
                    if not start and _continues_stored(obj):
                        start = _repeated_instructions(heads[-1], messages)
                previous = messages
                heads.append(messages)
                if len(heads) > _HEADS_KEPT:
                    del heads[0]
            if ("system" in obj or "request" in obj) and (system := request_system(obj)) and system not in systems:
                # the same prompt each request of a loop resends, or another conversation's: once each
                systems.add(system)
                seq += 1
                cursor.records = seq - cursor.seq_base + 1
                yield Event(session=cursor.session, seq=seq, agent=cursor.agent, role="system", kind="system",
                            timestamp=record_ts, file=cursor.file, line=lineno, text=system)
            for message in messages[start:] if kept is None else kept:
                seq += 1
                cursor.records = seq - cursor.seq_base + 1
                if isinstance(message, dict):
                    yield from _message(message, cursor, seq, lineno, stats, call_names, items, shown, record_ts,
                                        gemini, unanswered)
                else:
                    stats.non_object += 1
            if compacted:
                seq += 1
                cursor.records = seq - cursor.seq_base + 1
                yield Event(session=cursor.session, seq=seq, agent=cursor.agent, role="system", kind="compaction",
                            timestamp=record_ts, file=cursor.file, line=lineno, raw_type="compact",
                            text="context compacted")
            if "response" in obj and (refused := _failed_call(obj)) is not None:
                seq += 1
                cursor.records = seq - cursor.seq_base + 1
                yield Event(session=cursor.session, seq=seq, agent=cursor.agent, role="system", kind="system",
                            timestamp=record_ts, file=cursor.file, line=lineno, raw_type="error", text=refused)


_COUNT_PATHS = ("/messages/count_tokens", "/responses/input_tokens")
"""The token-counting endpoints of the Messages and Responses APIs (anthropics/anthropic-sdk-python
``Messages.count_tokens``: ``/v1/messages/count_tokens``; OpenAI's ``/v1/responses/input_tokens``):
a request there runs no model, and Claude Code sends one per context entry for ``/context`` (each
agent, memory or rule file a message of its own; router-for-me/CLIProxyAPI issue #4104) and one
at startup (coder/aibridge PR #34)."""


def counts_tokens(obj: dict) -> bool:
    """``obj`` is a proxy's record of a token count (:data:`_COUNT_PATHS`): read as a call, each
    file it counted was a prompt of the session and a conversation of its own."""
    request = obj.get("request")
    url = request.get("url") if isinstance(request, dict) else None
    return isinstance(url, str) and url.split("?", 1)[0].rstrip("/").endswith(_COUNT_PATHS)


def _har_calls(records: Iterable[tuple[int, int, dict]],
               only: frozenset[int] | None = None) -> Iterator[tuple[int, int, dict]]:
    """The calls of a HAR file's document (:mod:`formats.har`), each as a logging proxy's record
    of it; an entry of no call to a model is left out. ``only``: the calls read, counted from 0."""
    n = -1
    for index, lineno, obj in records:
        found = har.calls(obj) if isinstance(obj, dict) else None
        if found is None:
            yield index, lineno, obj
            continue
        for call in found:
            if is_proxied_call(call):
                n += 1
                if only is None or n in only:
                    yield index, lineno, call


def _answered_at(obj: dict) -> str | None:
    """When a logging proxy's record of a call (:func:`is_proxied_call`; :func:`is_litellm_payload`,
    whose ``response`` is the answer itself) was answered, where the record has no time of its own:
    the answer's ``created``/``created_at`` (a ``chat.completion``, a Responses ``response``), else
    the HTTP response's ``Date`` header, which llm-debug keeps
    (SingularityDAO-dev/tamashii-terminal ``llm-debug/app.py``: ``resp_data["headers"] =
    dict(upstream_resp.headers)``). Neither llm-debug nor dolphin-logger stamps its records: a
    session of them had no time at all. LiteLLM's payload of a call that failed has no answer
    (``response`` empty, ``status: "failure"``): it was over at its ``endTime`` (epoch seconds,
    ``StandardLoggingPayload`` in BerriAI/litellm ``litellm/types/utils.py``), when the error came."""
    response = obj.get("response")
    if "call_type" in obj and (not isinstance(response, dict) or not response):
        return stamp(obj.get("endTime"))
    if not isinstance(response, dict):
        return None
    body = response.get("body") if "body" in response else response
    found = time_of(body) if isinstance(body, dict) else None
    headers = response.get("headers")
    if found is None and isinstance(headers, dict):
        date = next((v for k, v in headers.items() if isinstance(k, str) and k.lower() == "date"), None)
        if isinstance(date, str):
            try:
                at = parsedate_to_datetime(date)
            except (TypeError, ValueError, IndexError):
                return None
            if at.tzinfo is not None:
                found = at.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    return found


def call_time(obj: dict) -> str | None:
    """When a logged call (:func:`is_proxied_call`, :func:`is_litellm_payload`) was made, for
    ordering a folder of them: its own time, LiteLLM's ``startTime`` (epoch seconds,
    ``StandardLoggingPayload`` in BerriAI/litellm ``litellm/types/utils.py``), else when it was
    answered (:func:`_answered_at`)."""
    return time_of(obj) or stamp(obj.get("startTime")) or _answered_at(obj)


def request_system(obj: dict) -> str:
    """The system prompt of an Anthropic Messages request, logged (``{model, system, messages}``) or
    in a proxy's record of the call: the Messages API has no ``system`` role, its system prompt is
    the request's top-level ``system``, a string or a list of text blocks (anthropics/anthropic-sdk-
    python ``src/anthropic/types/message_create_params.py``: ``system: Union[str,
    Iterable[TextBlockParam]]``). Only ``messages`` was read, so the prompt the agent ran under was
    not in the session, as an OpenAI request's ``system`` message is."""
    body = _request_body(obj)
    system = body.get("system") if body is not None else None
    return block_text(system).strip() if isinstance(system, (str, list)) else ""


def _request_body(obj: dict) -> dict | None:
    """The request ``obj`` logs with its ``messages`` (itself, or a proxy's record's request body)."""
    if isinstance(obj.get("messages"), list):
        return obj
    request = obj.get("request")
    if not isinstance(request, dict):
        return None
    body = request.get("body") if isinstance(request.get("body"), dict) else request
    return body if isinstance(body.get("messages"), list) else None


_SYSTEM_KEY = re.compile(rb'"system"\s*:')
"""A ``system`` key, not the role ``"system"`` every chat's first message names."""
_WHOLE_REQUEST_BYTES = 32 * 1024 * 1024
"""The largest request saved as one JSON document whose system prompt is looked for
(:func:`_document_system`): its messages are read one at a time, this reads it whole once more."""


def _document_system(path: Path) -> str:
    """:func:`request_system` of a file that is one request saved whole (``json.dump`` of the
    ``{model, system, messages}`` it sent), whose messages :func:`read` takes from the array alone.
    The key may come after the messages: the Anthropic SDK sends ``create()``'s parameters in the
    order of their names, ``max_tokens, messages, model, ..., system, ...``
    (anthropics/anthropic-sdk-python ``src/anthropic/resources/messages/messages.py``, the body of
    ``Messages.create``), so a proxy's copy of the body has the prompt after a long history."""
    try:
        if path.stat().st_size > _WHOLE_REQUEST_BYTES:
            return ""
        head = read_head(path, _SYSTEM_HEAD_BYTES)
        if not head.lstrip().startswith(b"{"):
            return ""
        if _SYSTEM_KEY.search(head) is None and (len(head) < _SYSTEM_HEAD_BYTES or not _has_system_key(path)):
            return ""
        with open_transcript(path) as f:
            document = decode_json(f.read())
    except (OSError, ValueError):
        return ""
    return request_system(document) if isinstance(document, dict) else ""


_SYSTEM_HEAD_BYTES = 256 * 1024


def _has_system_key(path: Path) -> bool:
    """``path`` holds a ``system`` key past its head: read a block at a time, the document is
    parsed whole only where it has one."""
    tail = b""
    with open_transcript(path) as f:
        while block := f.read(1024 * 1024):
            if _SYSTEM_KEY.search(tail + block) is not None:
                return True
            tail = block[-64:]
    return False


_HEADS_KEPT = 64
"""How many conversations of a file a request is matched against (:func:`_longest_head`), each
kept as its latest request gave it: more than the loops a harness runs side by side, few enough
that a long log's lines are not all held and compared."""


def _longest_head(heads: list[list], messages: list) -> int | None:
    """Where in ``heads`` the longest of the conversations read before is that ``messages`` begins
    with (:func:`_resent`), or None. The latest first: in one loop's log it is the only one."""
    found: int | None = None
    for at in range(len(heads) - 1, -1, -1):
        if (found is None or len(heads[at]) > len(heads[found])) and _resent(heads[at], messages):
            found = at
    return found


def _shared_start(heads: list[list], messages: list) -> int:
    """How many of ``messages``' first messages the conversation read before that shares the
    most of them holds (each compared as :func:`_resent` compares them): they were read with it.
    0 where they share the system messages alone: conversations of their own with one system
    prompt (fine-tuning lines, an eval's tasks) are read whole."""
    best = 0
    for head in reversed(heads):
        n = 0
        for a, b in zip(head, messages):
            if a != b and _as_resent(a) != _as_resent(b):
                break
            n += 1
        best = max(best, n)
    if all(isinstance(m, dict) and m.get("role") in _SYSTEM_ROLES for m in messages[:best]):
        return 0
    return best


_SYSTEM_ROLES = frozenset(("system", "developer"))


def _continues_stored(obj: dict) -> bool:
    """``obj`` is a Responses API request (or a proxy's record of one) that continues a conversation
    the API keeps: ``previous_response_id`` or ``conversation``. Its ``input`` is only what is new,
    but its ``instructions`` are sent again each time: they do not carry over (the OpenAI Agents
    SDK passes ``instructions=system_instructions`` with ``previous_response_id`` and
    ``conversation`` on every call: openai/openai-agents-python ``src/agents/models/
    openai_responses.py``, ``_fetch_response``)."""
    request = obj.get("request")
    body = obj
    if isinstance(request, dict):
        body = request.get("body") if isinstance(request.get("body"), dict) else request
    return isinstance(body.get("previous_response_id"), str) or bool(body.get("conversation"))


def _repeated_instructions(head: list, messages: list) -> int:
    """How many of ``messages``' first system or developer messages repeat those ``head`` began
    with (a stored conversation's request: :func:`_continues_stored`): read with it, not again."""
    n = 0
    while n < len(messages) and n < len(head) and isinstance(messages[n], dict) \
            and messages[n].get("role") in _SYSTEM_ROLES and _same(messages[n], head[n]):
        n += 1
    return n


def _trimmed(heads: list[list], messages: list) -> tuple[int, list] | None:
    """A request of a loop that trimmed its history once it grew (dropped its oldest turns, or
    put a summary in their place) and kept the latest: where in ``heads`` the conversation it
    trimmed is, and the messages of ``messages`` that are new, or None. Known by a run of at
    least two of that conversation's last messages, the last a tool call or result (its call id,
    :func:`_call_key`) or a summary (:func:`_summary_key`), found again in ``messages``: ids and
    words no other conversation shares. What the
    request begins with as the conversation did (the system prompt, the first prompt) was read
    with it too. Only for a request no conversation read before heads."""
    where: dict | None = None  # call ids -> the last message of ``messages`` holding them
    for at in range(len(heads) - 1, -1, -1):
        head = heads[at]
        key = _call_key(head[-1]) or _summary_key(head[-1]) if len(head) >= 2 else None
        if key is None:
            continue
        if where is None:
            where = {k: i for i, m in enumerate(messages) if (k := _call_key(m) or _summary_key(m)) is not None}
        end = where.get(key)
        if not end or not _same(messages[end], head[-1]):
            continue
        n = 1
        while n <= end and n < len(head) and _same(messages[end - n], head[-1 - n]):
            n += 1
        if n < 2 and not (_summary_key(head[-1]) is not None and _asks_summary(messages[end - 1])):
            continue  # (one message found again is enough where it is a summary OpenCode's question asked for)
        first, shared = end - n + 1, 0
        while shared < first and shared < len(head) - n and _same(messages[shared], head[shared]):
            shared += 1
        return at, messages[shared:first] + messages[end + 1:]
    return None


def _after_codex_compaction(messages: list) -> int | None:
    """Where what is new begins in a request whose history Codex rebuilt after its own compaction
    (its context, the person's earlier messages, then the summary in a user message that opens with
    :data:`codex.COMPACTION_BRIDGE`): after the summary; None for any other request. Read again, the
    person's earlier prompts were theirs twice."""
    for i in range(len(messages) - 1, -1, -1):
        message = messages[i]
        if isinstance(message, dict) and message.get("role") == "user" \
                and block_text(message.get("content")).lstrip().startswith(codex.COMPACTION_BRIDGE):
            return i + 1
    return None


def _asks_summary(message: object) -> bool:
    """``message`` is OpenCode's compaction question (:data:`COMPACTION_QUESTION`), which each request
    after a compaction sends before the summary: newer releases wrote the summary with a request that
    holds the history written out (:data:`COMPACTION_REPLAY`), not before the question."""
    return isinstance(message, dict) and message.get("role") == "user" \
        and block_text(message.get("content")).strip() == COMPACTION_QUESTION


_SUMMARY_CHARS = 200
"""How long an answer that ends a conversation is, at least, to tell the conversation as a call id does
(:func:`_summary_key`): a summary of the history, not a short word any conversation may say."""


def _summary_key(message: object) -> object:
    """An answer in words that ends a conversation (:data:`_SUMMARY_CHARS`), or None: OpenCode's
    compaction asks for a summary of the history, then sends it as the answer in every later request,
    after the question and in place of all before it (:data:`COMPACTION_QUESTION`): read again, the run
    had the question and the summary twice."""
    if not isinstance(message, dict) or message.get("role") != "assistant" or message.get("tool_calls"):
        return None
    text = block_text(message.get("content"))
    return ("said", text) if len(text) >= _SUMMARY_CHARS else None


def _call_key(message: object) -> object:
    """The call ids a message holds, or None: a tool result's ``tool_call_id``, the ids of an
    assistant message's ``tool_calls``, a Responses item's ``call_id``, the ids of Anthropic
    ``tool_use`` / ``tool_result`` blocks."""
    if not isinstance(message, dict):
        return None
    if isinstance(message.get("tool_call_id"), str):
        return message["tool_call_id"]
    if isinstance(message.get("call_id"), str) and isinstance(message.get("type"), str):
        return message["type"], message["call_id"]
    calls, content = message.get("tool_calls"), message.get("content")
    if isinstance(calls, list):
        ids = tuple(c["id"] for c in calls if isinstance(c, dict) and isinstance(c.get("id"), str))
    elif isinstance(content, list):
        ids = tuple(i for b in content if isinstance(b, dict) and b.get("type") in ("tool_use", "tool_result")
                    and isinstance(i := b.get("id") or b.get("tool_use_id"), str))
    else:
        return None
    return ids or None


def _same(a: object, b: object) -> bool:
    return a == b or _as_resent(a) == _as_resent(b)


def _is_response_object(obj: dict) -> bool:
    """A Responses API response saved whole (``{object: "response", output: [...]}``,
    openai/openai-python ``types/responses/response.py``): the model's answer to the request
    before it, whose ``input`` the next request resends with this output after it."""
    return obj.get("object") == "response" and isinstance(obj.get("output"), list)


def _is_message_object(obj: dict) -> bool:
    """An Anthropic Messages API answer saved whole (``print(message.model_dump_json())``, a log of
    answers beside their requests): ``{id, type: "message", role: "assistant", content: [...],
    model, stop_reason, stop_sequence, usage}`` (anthropics/anthropic-sdk-python ``src/anthropic/
    types/message.py``). ``stop_reason`` tells it from a Responses API message item, which has none."""
    return obj.get("type") == "message" and obj.get("role") == "assistant" and "stop_reason" in obj \
        and isinstance(obj.get("content"), list)


def _resent(previous: list, messages: list) -> bool:
    """``messages`` begins with ``previous``: the same messages, or the same but for empty fields
    (an answer read from its ``chat.completion`` sent back as the loop built it: no ``refusal:
    null`` or ``annotations: []``; read again, its call was read twice)."""
    if len(previous) > len(messages):
        return False
    head = messages[:len(previous)]
    return head == previous or all(a == b or _as_resent(a) == _as_resent(b) for a, b in zip(head, previous))


_SERVER_ONLY = ("id", "status")
"""Fields of a Responses API output item that a stateless loop need not send back: Codex
serializes its items without them (``id`` is ``skip_serializing`` in openai/codex
``codex-rs/protocol/src/models.rs``), so the item a response gave and the same item in the next
request's ``input`` differ by them alone."""


def _as_resent(message: object) -> object:
    """The message as a later request resends it: :func:`filled`, and a Responses API item
    without the fields only its response had (:data:`_SERVER_ONLY`)."""
    message = filled(message)
    if isinstance(message, dict) and isinstance(message.get("type"), str):
        message = {key: value for key, value in message.items() if key not in _SERVER_ONLY}
    if isinstance(message, dict) and isinstance(message.get("tool_calls"), list):
        # a call's empty id, as the client sends back a streamed answer's call whose id was ""
        # (Gemini's, LM Studio's), is the none its stream gave (formats.chat_stream); and a call's
        # id at all: clients that regenerate the ids each time they build the history send the
        # same calls under new ones (cloudflare/ai PR #384), which read as new calls ran each
        # earlier command again at every turn
        message = {**message, "tool_calls": [_without_id(filled(call)) for call in message["tool_calls"]]}
    if isinstance(message, dict) and isinstance(message.get("tool_call_id"), str) and message.get("role") in _RESULT_ROLES:
        message = {key: value for key, value in message.items() if key != "tool_call_id"}
    if isinstance(message, dict) and isinstance(message.get("content"), list):
        # blocks too: an Anthropic answer dumped whole has "citations": null in its text blocks,
        # which the request that sends it back need not; and a prompt-cache breakpoint is no part
        # of a message: loops put one on the last block of the last message and move it on with
        # each request, "content": "..." made a text block to carry it (iTerm2 nightly
        # v20260622's "rolling ephemeral cache breakpoint"; QwenLM/qwen-code PR #4121). The same
        # message with it and without it was two messages: a Claude Code run through a logging
        # proxy read each turn again, every command twice.
        blocks = [_without_breakpoint(filled(block)) for block in message["content"]]
        only = blocks[0] if len(blocks) == 1 else None
        text = only.get("text") if isinstance(only, dict) and only.keys() == {"type", "text"} \
            and only["type"] == "text" else None
        message = {**message, "content": text if isinstance(text, str) else blocks}
    return message


def _without_id(call: object) -> object:
    return {key: value for key, value in call.items() if key != "id"} if isinstance(call, dict) else call


def _without_breakpoint(block: object) -> object:
    if isinstance(block, dict) and "cache_control" in block:
        return {key: value for key, value in block.items() if key != "cache_control"}
    return block


def filled(message: object) -> object:
    """The message without its fields that say nothing (null, empty)."""
    if not isinstance(message, dict):
        return message
    return {key: value for key, value in message.items() if value is not None and value != "" and value != []
            and value != {}}


def read_conversation(messages: list, lineno: int, cursor: Cursor, stats: ReadStats,
                      record_ts: str | None = None) -> Iterator[Event]:
    """The events of one conversation already taken out of its file (a conversation of a
    ChatGPT export: :mod:`formats.chatgpt_export`); seq counts its messages from the cursor's base."""
    return read_messages(((lineno, message) for message in messages), cursor, stats, record_ts)


def read_messages(messages: Iterable[tuple[int, object]], cursor: Cursor, stats: ReadStats,
                  record_ts: str | None = None) -> Iterator[Event]:
    """:func:`read_conversation` of messages that come one at a time, each with its own line (a
    row of Goose's session store: :mod:`formats.goose_store`)."""
    call_names: dict[str, str] = {}
    items = codex.ResponseItems()
    shown = ShownCommand()
    gemini = PartsReader()
    unanswered: list[str] = []
    for index, (lineno, message) in enumerate(messages):
        cursor.records = index + 1
        if isinstance(message, dict):
            yield from _message(message, cursor, cursor.seq_base + index, lineno, stats, call_names, items, shown,
                                record_ts, gemini, unanswered)
        else:
            stats.non_object += 1


def assistant_events(message: dict, cursor: Cursor, seq: int, lineno: int, stats: ReadStats) -> Iterator[Event]:
    """The events of one message put together elsewhere (a completion streamed in chunks:
    :mod:`formats.chat_stream`), read as any chat message."""
    return _message(message, cursor, seq, lineno, stats, {}, codex.ResponseItems(), ShownCommand())


_THINK_OPEN, _THINK_CLOSE = "<think>", "</think>"


def _inline_thinking(text: str) -> tuple[str, str] | None:
    """``(thinking, said)`` of a reply that opens with a ``<think>…</think>`` block: a reasoning
    model (Qwen3, DeepSeek-R1) served without a reasoning parser (SGLang's and vLLM's
    ``--reasoning-parser``) returns its thinking in ``content``, and an agent loop run against it
    (Hermes Agent, Goose) saves it so. Read as the reply's text, its guesses ("I suspect ...") were
    the model's stated hypotheses. None when the reply opens with no such block, or the block is
    not closed (a reply cut mid-thought is kept as it came)."""
    start = len(text) - len(text.lstrip())
    if not text.startswith(_THINK_OPEN, start):
        return None
    end = text.find(_THINK_CLOSE, start)
    if end < 0:
        return None
    return text[start + len(_THINK_OPEN):end].strip(), text[end + len(_THINK_CLOSE):].strip()


def time_of(record: dict) -> str | None:
    """When a message (or a logged request or response) was written: ``timestamp`` as a harness
    stamps it (ISO, or ``time.time()``), ``created_at``/``created`` in epoch seconds as OpenAI's
    objects carry them, or mini-swe-agent's ``extra.timestamp`` (see :mod:`formats.instants`)."""
    for key in ("timestamp", "created_at", "created"):
        found = stamp(record.get(key))
        if found:
            return found
    extra = record.get("extra")
    return stamp(extra.get("timestamp")) if isinstance(extra, dict) else None


def _message(message: dict, cursor: Cursor, seq: int, lineno: int, stats: ReadStats, call_names,
             items: codex.ResponseItems, shown: ShownCommand, record_ts: str | None = None,
             gemini: PartsReader | None = None, unanswered: list[str] | None = None) -> Iterator[Event]:
    """``unanswered``: the calls of the last reply that made any, not yet answered, in order."""
    if (streamed := _goose_stream_message(message)) is not None:
        message = streamed
    role = message.get("role")
    inner = message.get("message")
    if "content" not in message and isinstance(inner, dict) and "content" in inner and isinstance(role, str):
        # Cursor's agent transcripts (~/.cursor/projects/<project>/agent-transcripts/<id>.jsonl):
        # {"role", "message": {"content": [text | tool_use blocks]}}, as the sessions trimmed
        # into jazzyalex/agent-sessions AgentSessionsTests/Fixtures/Cursor show them. Read
        # without the wrapper, the calls in it were no command.
        message = {**inner, "role": role}
    # A message without a time of its own was sent or received with the record that holds it;
    # Roo Code stamps each message ``ts`` in epoch milliseconds (formats.cline_task)
    ts = time_of(message) or stamp(message.get("ts")) or record_ts

    def event(kind, role, block=0, **kw) -> Event:
        return Event(session=cursor.session, seq=seq, agent=cursor.agent, role=role, kind=kind,
                     block=block, timestamp=ts, file=cursor.file, line=lineno, **kw)

    extra = message.get("extra") if isinstance(message.get("extra"), dict) else {}
    if looks_like_item(message):
        returncode = extra.get("returncode")
        for ev in items.events(message, event):
            if ev.kind == "tool_result" and type(returncode) is int:
                # mini-swe-agent run on the Responses API: its observation is a function_call_output
                # whose text is the rendered template, the exit status and raw output beside it in
                # ``extra`` (SWE-agent/mini-swe-agent src/minisweagent/models/utils/
                # actions_toolcall_response.py, format_toolcall_observation_messages)
                ev.exit_code, ev.is_error = returncode, returncode != 0
                if isinstance(extra.get("raw_output"), str):
                    ev.text = extra["raw_output"]
            elif ev.kind == "tool_result" and ev.exit_code is None and ev.text and not ev.is_error \
                    and ev.raw_type is None and ev.extracted is None:
                # another agent's function_call_output says its status as its role: tool message
                # would (OpenHands' SDK on the Responses API sends its terminal output, ending
                # "[The command completed with exit code N.]", as the item's output: OpenHands/
                # software-agent-sdk openhands-sdk/openhands/sdk/llm/utils/responses_serialization.py)
                ev.text, code = _result_status(ev.text)
                ev.exit_code, ev.is_error = code, bool(code)
            yield ev
        return
    if role == "user" and message.get("type") == "message" and isinstance(message.get("content"), list) \
            and codex.injects(message["content"]):
        # Codex's request through a proxy: the parts it writes into the user's messages (its
        # environment, AGENTS.md) are no prompt, as in its rollouts (codex._user_message)
        yield from items.events(message, event)
        return
    if role == "user" and type(message.get("content")) is str and codex.injects([message["content"]]):
        # Codex on the Chat Completions wire (`wire_api = "chat"`) sends each of its messages as
        # {"role", "content": its parts' text joined} (openai/codex codex-rs/core/src/
        # chat_completions.rs, stream_chat_completions): its context messages come as plain
        # user strings, read as the parts it writes, as above; a prompt typed in the same message
        # follows the closing tag of the last of them
        yield from items.events({"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": part} for part in codex.joined_parts(message["content"])]}, event)
        return
    parts = message.get("parts")
    if role == "assistant" and isinstance(invocations := message.get("toolInvocations"), list) \
            and not isinstance(parts, list):
        # AI SDK 3 and 4's UIMessage before its parts: {content, toolInvocations: [...]}
        parts = [{"type": "text", "text": message.get("content")}] * isinstance(message.get("content"), str) \
            + [{"type": "tool-invocation", "toolInvocation": i} for i in invocations]
        message = {k: v for k, v in message.items() if k != "content"}
    if role == "assistant" and isinstance(parts, list) and (
            "content" not in message or type(message.get("content")) is str and _ui_tool_parts(parts)):
        # The Vercel AI SDK's UIMessage (what useChat keeps and apps save): its parts the core
        # message's, each call a part that holds its result too (_ui_parts); AI SDK 4 kept the
        # text in ``content`` beside them as well. Read as chat text, an assistant's calls and
        # their output were none.
        yield from _anthropic_blocks(_ui_parts(parts), role, event, call_names)
        return
    if "content" not in message and isinstance(parts, list) and role in ("user", "model", "function"):
        # Gemini API Content (formats.gemini_parts): read as chat messages, its calls and their
        # output were no command and no result.
        gemini = gemini if gemini is not None else PartsReader()
        yield from gemini.reply(parts, event) if role == "model" else user_events(parts, event, gemini)
        return
    if role == "exit":
        # mini-swe-agent's last message: {"role": "exit", "content": submission, "extra": {"exit_status":
        # "Submitted" | "LimitsExceeded" | ...}} (SWE-agent/mini-swe-agent src/minisweagent/agents/default.py)
        status = extra.get("exit_status") if isinstance(extra.get("exit_status"), str) else "exit"
        submitted = shown.submission(role, block_text(message.get("content")))
        if submitted is not None:
            yield from shown.result(submitted, event, call_names, None)
        yield event("system", "exit", int(submitted is not None), text=f"agent exited: {status}", raw_type="exit")
        return

    content = message.get("content")
    if isinstance(content, list) and role in ("user", "assistant", "tool") and _has_tool_blocks(content):
        yield from _anthropic_blocks(content, role, event, call_names)
        return
    if role == "user" and isinstance(content, list):
        cline = _cline_user_blocks(content, event, call_names)
        if cline is not None:
            yield from cline
            return
    text = block_text(content)
    if role == "assistant":
        text = "\n".join(part for part in (text, _audio_reply(message), _refusal(message, content)) if part)
    observed = observation(role, text, extra) or shown.submission(role, text)
    if observed is not None:
        given = message.get("tool_call_id")
        yield from shown.result(observed, event, call_names, given if isinstance(given, str) else None)
        return
    if text[:1] == "[" and role in ("user", "assistant") and not message.get("tool_calls") \
            and (compacted := _hermes_compaction(text)) is not None:
        summary, typed = compacted
        yield event("compaction", "system", raw_type="compact", text="context compacted")
        yield event("summary", role, 1, text=summary)
        if typed and role == "user":
            yield event("prompt", role, 2, text=typed)
        return
    if role in ("system", "developer"):
        yield event("system", role, text=text)
    elif role == "user" and is_cli_context(text):
        yield event("system", "system", text=text, raw_type="environment_context")
    elif role == "user" and claude_code._CONTINUED in text[:200]:
        # Claude Code's summary after a compaction, the person's next prompt maybe in a block after it
        said = []
        for part in _texts(content):
            if part[:len(claude_code._CONTINUED) + 8].lstrip().startswith(claude_code._CONTINUED):
                yield event("summary", role, text=part)
            elif part.strip() and not part[:64].lstrip().startswith(claude_code._REMINDER_OPEN):
                said.append(part)
        if said:
            yield event("prompt", role, text="\n".join(said))
    elif role == "user":
        if text.startswith(_HERMES_NOTICE):
            yield _hermes_notice(text, items.background, event)
            return
        if text[:1] == "[" and (wrapped := _hermes_wrapped(text)) is not None:
            note, typed = wrapped
            yield event("system", "system", text=note)
            if typed:
                yield event("prompt", role, 1, text=typed)
            return
        if claude_code._REMINDER_OPEN in text:
            # Claude Code's context in the prompt's message, before it or after it (its folder,
            # CLAUDE.md, the date, the file open in the IDE: <system-reminder> blocks), as its
            # session files write it apart
            typed = _outside_reminders(text)
            if not typed:  # reminders alone: the CLI's
                yield event("system", role, text=text)
                return
            text = typed
        cli_note = _harness_note(extra) or kimi_cli.is_cli_note(content) or _goose_agent_only(message) \
            or _opencode_note(text) or text.startswith(_HERMES_NOTES) \
            or (type(content) is str and content.startswith(aider_context.SUMMARY))  # aider's, of the history
        yield event("system" if cli_note else "prompt", role, text=text or attachments_shown(content))
    elif role == "assistant":
        block = 0
        reasoning = next((message[k] for k in REASONING_FIELDS if isinstance(message.get(k), str) and message[k]), "")
        if not reasoning and isinstance(content, list):
            reasoning = kimi_cli.thinking(content)
            if not reasoning and (thought := _reasoning_parts(content)):
                # the Vercel AI SDK's {type: "reasoning", text} parts: thinking, not said (block_text
                # read them with the reply's text parts)
                reasoning = "\n".join(thought)
                said = block_text([part for part in content if not _is_reasoning_part(part)])
                text = "\n".join(part for part in (said, _audio_reply(message), _refusal(message, content)) if part)
        if not reasoning and _THINK_OPEN in text[:64] and (inline := _inline_thinking(text)) is not None:
            reasoning, text = inline
        if reasoning.strip():
            yield event("thinking", role, text=reasoning)
            block += 1
        if text:
            yield event("text", role, block, text=text)
            block += 1
        calls = message.get("tool_calls")
        if not isinstance(calls, list) or not calls:
            # The legacy ``function_call`` (one call, answered by a ``function`` message). Servers
            # send both fields, the unused one empty: vLLM answers ``"function_call": null,
            # "tool_calls": []``, and loggers that default the fields write ``"tool_calls": []``
            # beside a legacy call, or ``"function_call": {}``, which is no call.
            legacy = message.get("function_call")
            named = isinstance(legacy, dict) and isinstance(legacy.get("name"), str) and legacy["name"].strip()
            calls = [{"function": legacy}] if named else []
        if not calls and isinstance(extra.get("actions"), list):
            # mini-swe-agent keeps the commands it parsed from the reply (formats.mini_swe_agent)
            calls = [{"function": {"name": "bash", "arguments": {"command": a["command"]}}}
                     for a in extra["actions"] if isinstance(a, dict) and isinstance(a.get("command"), str)]
        if not calls and text and isinstance(content, list):
            # Cline and Roo Code call their tools in XML inside the reply (formats.cline_task), which
            # they keep as Anthropic text blocks; a chat's string reply that shows such a tag is text
            calls = [{"id": f"xml-{seq}-{n}", "function": {"name": tool, "arguments": params}}
                     for n, (tool, params) in enumerate(cline_task.xml_calls(text))]
        shown.reply(seq, block + len(calls), text if not calls else "", ts)
        if calls and unanswered is not None:
            unanswered.clear()
        for n, call in enumerate(calls):
            if not isinstance(call, dict):
                continue
            # A custom tool (type "custom") sends free-form text as ``custom.input``, no JSON
            # arguments (openai/openai-python src/openai/types/chat/
            # chat_completion_message_custom_tool_call.py).
            fn = next((call[k] for k in ("function", "custom") if isinstance(call.get(k), dict)), call)
            name = fn.get("name") if isinstance(fn.get("name"), str) else "?"
            raw = fn.get("arguments", fn.get("input"))
            args = decode_arguments(raw)
            command = shell_command(args) if isinstance(args, dict) else None
            if name in _EDITOR_TOOLS:
                name, command = _editor_call(args), None
            if command is None and isinstance(args, dict) and _is_shell(name):
                command = _shell_argument(args)
            if command is None and _is_shell(name):
                command = bare_command(raw, args)  # some stacks send the bare command string
            if command is None and name == hermes_code.TOOL and isinstance(args, dict):
                command = hermes_code.script_commands(args.get("code"))  # Hermes's terminal() in Python
            # An empty id is none: Gemini's and LM Studio's OpenAI-compatible endpoints answer
            # "id": "" (openai/openai-dotnet issue #428; lmstudio-ai/lmstudio-bug-tracker issue #830)
            call_id = call["id"] if isinstance(call.get("id"), str) and call["id"] else f"call-{seq}-{n}"
            call_names[call_id] = name
            if len(call_names) > 4096:
                call_names.pop(next(iter(call_names)))
            if unanswered is not None:
                unanswered.append(call_id)
            if _unified_exec(name, args) and isinstance(raw, str):
                # Codex's unified exec on the Chat Completions wire (openai/codex codex-rs/codex-api/
                # src/requests/chat.rs sends each FunctionCall as a tool call, its output as the tool
                # message): a command outlives its first output and the model polls it with
                # write_stdin, whose output says how it ended. Read as on the Responses wire
                # (codex.ResponseItems), that status is the command's, not the poll's.
                items.chat_calls.add(call_id)
                yield from items.events({"type": "function_call", "call_id": call_id, "name": name, "arguments": raw},
                                        lambda kind, who, at=0, **kw: event(kind, who, block + n + at, **kw))
                continue
            host = remote_host(args) if command is not None else None
            yield event("tool_call", role, block + n, tool_name=name, call_id=call_id, command=command,
                        text=call_text(command, raw), path=call_path(name, args), host=host,
                        # Codex's: in the folder its <environment_context> named (codex.ResponseItems)
                        cwd=items.folder_of(args) if command is not None and host is None else None)
    elif role in _RESULT_ROLES:
        call_id = message.get("tool_call_id") or None  # "" is no id (as a call's, above)
        if isinstance(call_id, str) and unanswered and call_id not in call_names:
            # An id no call has: the client answered under an id of its own (one it regenerated or
            # transformed after the server's reply: cloudflare/ai PR #384, NousResearch/hermes-agent
            # PR #4534), which a server that checks no ids (vLLM, SGLang) runs on. Read as an id, the
            # output belonged to no command and the call waiting for it kept none; it answers the
            # reply's calls in order, as a result with no id does.
            call_id = None
        if isinstance(call_id, str):
            if unanswered and call_id in unanswered:
                unanswered.remove(call_id)
        elif unanswered:
            # No id (Ollama): a reply's calls are answered in their order, each by the tool it
            # names where it names one (Ollama's `tool_name`, docs.ollama.com api/chat); was the
            # most recent call for each, so two calls in one reply had their outputs swapped.
            # Others name it in `name`: OpenAI's legacy `function` message (openai-python
            # chat_completion_function_message_param.py, `name` required), Mistral's tool message.
            named = message.get("tool_name")
            if not isinstance(named, str):
                named = message.get("name")
            at = next((i for i, c in enumerate(unanswered) if call_names.get(c) == named), 0) \
                if isinstance(named, str) else 0
            call_id = unanswered.pop(at)
        else:
            # No id and no call waiting: pair with the most recent call.
            call_id = next(reversed(call_names), None) if call_names else None
        if call_id in items.chat_calls and isinstance(content, str):
            items.chat_calls.discard(call_id)
            yield from items.events({"type": "function_call_output", "call_id": call_id, "output": content}, event)
            return
        if isinstance(content, dict) and not text:
            # an object as the content (a loop that appended its tool's dict and saved the message
            # before a client made it text): its text part's words, else the object as JSON
            text = block_text([content]) or json.dumps(content, ensure_ascii=False)
        elif text[:2] == '"{':
            text = _encoded_twice(text)
        if text[:1] == "{" and '"session_id"' in text and (job := _hermes_job(text, call_id, items.background)):
            yield event("tool_result", "tool", **job)
            return
        if text[:1] == "{" and call_names.get(call_id) == hermes_code.TOOL \
                and (script := hermes_code.script_result(text)) is not None:
            said, code, failed = script  # what a Hermes execute_code script printed, not its JSON
            yield event("tool_result", "tool", call_id=call_id, text=said, exit_code=code, is_error=failed)
            return
        kimi = kimi_cli.tool_status(content)
        if kimi is not None:
            code, failed = kimi  # Kimi CLI says how its tools ended in <system> notes
            text = kimi_cli.result_text(content)
        else:
            refused = _hermes_refusal(text)
            text, code = _result_status(text)
            failed = bool(code) or text.startswith(codex.AGENTS_SDK_TOOL_FAILED)
            if refused is not None:
                kind, said = refused
                yield codex_tool_ends.not_run(event("tool_result", "tool", call_id=call_id, text=said or text), kind)
                return
            if code is None and not failed and text[:1] == "{" and not _is_shell(call_names.get(call_id) or "") \
                    and (said := _tool_error_json(text)) is not None:
                # (a shell's output that is JSON, a server's {"error": ...} a curl printed, is its output)
                text, failed = said, True
        yield event("tool_result", "tool", call_id=call_id, text=text, exit_code=code,
                    is_error=failed or message.get("is_error") is True)
    elif isinstance(role, str) and role in kimi_cli.BOOKKEEPING_ROLES:
        # Kimi CLI's own lines (formats.kimi_cli): known, so not counted as unknown types
        shown_text = text if role == "_system_prompt" else ", ".join(
            f"{k}={v}" for k, v in message.items() if k != "role" and isinstance(v, (int, str)))
        yield event("system" if role == "_system_prompt" else "other", "system", raw_type=role, text=shown_text)
    elif role is None and isinstance(message.get("type"), str) and message["type"] in _DROID_BOOKKEEPING:
        # Factory Droid's own lines around its messages: known, so not counted as unknown types
        cwd = message.get("cwd")
        yield event("system", "system", raw_type=message["type"], text=f"cwd={cwd}" if isinstance(cwd, str) else "")
    elif role == "session_meta":
        # Hermes Agent's first line of a gateway transcript: the model and the tools it was given
        said = ", ".join(f"{k}={message[k]}" for k in ("model", "platform") if isinstance(message.get(k), str))
        yield event("system", "system", raw_type="session_meta", text=said)
    elif role is None and isinstance(message.get("working_dir"), str) and "message_count" in message:
        # Goose's first line: the session's metadata (working_dir, description, token counts)
        yield event("system", "system", raw_type="session_meta", text=f"working_dir={message['working_dir']}")
    else:
        stats.unknown_types += 1
        yield event("other", str(role), raw_type=str(role))


def _unified_exec(name: str, args: object) -> bool:
    """A call of Codex's unified exec tools, by their arguments: ``exec_command {cmd, ...}`` and
    ``write_stdin {session_id, chars, ...}`` (openai/codex ``codex-rs/core/src/tools/handlers/
    unified_exec.rs``, ``ExecCommandArgs``, ``WriteStdinArgs``)."""
    if name == "exec_command":
        return isinstance(args, dict) and isinstance(args.get("cmd"), str)
    return name == "write_stdin" and isinstance(args, dict) and "session_id" in args


_HERMES_STARTED = "Background process started"
_HERMES_JOBS = 256


def _hermes_job(text: str, call_id: str | None, background: dict) -> dict | None:
    """A result about a background process of Hermes Agent's ``terminal`` tool, as the
    ``tool_result`` it is (None for any other result). ``terminal(background=true)`` answers at
    once ``{"output": "Background process started", "session_id", "pid", "exit_code": 0}``, and
    the model learns how the command went by polling it (the ``process``/``process_manage`` tool:
    ``{"session_id", "command", "status": "running" | "exited", "output_preview", "exit_code"}``;
    NousResearch/hermes-agent ``tools/terminal_tool.py`` and ``tools/process_registry.py``,
    ``poll``). Read as they were, a server launch that crashed was a command that succeeded (exit
    0), and its traceback the output of a call that ran nothing. Now the start is the command's
    first output (``<call>#running``, as Codex's running commands: the analysis keeps it open),
    a poll of it running more of that, and the poll that saw it exit its end, exit status and all."""
    try:
        result = inner_json(text)
    except ValueError:
        return None
    if not isinstance(result, dict) or not isinstance(job := result.get("session_id"), str):
        return None
    if isinstance(call_id, str) and result.get("output") == _HERMES_STARTED and result.get("exit_code") == 0:
        background[job] = call_id
        if len(background) > _HERMES_JOBS:
            background.pop(next(iter(background)))
        return {"call_id": f"{call_id}#running", "text": _HERMES_STARTED, "raw_type": "running"}
    owner = background.get(job)
    if owner is None:
        return None
    shown = next((result[k] for k in ("output", "output_preview") if isinstance(result.get(k), str)), "")
    code = result.get("exit_code")
    if result.get("status") == "exited" and type(code) is int:
        del background[job]
        return {"call_id": owner, "text": shown, "exit_code": code, "is_error": code != 0}
    if result.get("status") == "running":
        return {"call_id": f"{owner}#running", "text": shown, "raw_type": "running"}
    return None


_HERMES_NOTICE = "[IMPORTANT: Background process "
_HERMES_NOTICE_HEAD = re.compile(
    r"\[IMPORTANT: Background process (?P<job>\S+) (?:(?P<watch>matched watch pattern)|.*?"
    r"\((?:exit code |exit_code=)(?P<code>-?\d+)?)")
"""The first line of Hermes Agent's notice of a background process started with
``notify_on_complete`` (or ``watch_patterns``): ``[IMPORTANT: Background process {id} completed
normally (exit code 0).`` / ``exited (exit code 1).`` / ``terminated by Hermes (exit code -15,
SIGTERM).`` (older releases: ``completed (exit code N).``), then ``Command: {command}``, ``Output:``
and the output, the whole closed by ``]``; or ``... matched watch pattern "{pattern}".``, then
``Matched output:``. NousResearch/hermes-agent ``tools/process_registry.py``,
``format_process_notification`` and ``_completion_status``."""


_HERMES_SUMMARY = ("[CONTEXT COMPACTION", "[CONTEXT SUMMARY]:")
_HERMES_SUMMARY_END = "--- END OF CONTEXT SUMMARY"
_HERMES_PRIOR = ("[PRIOR CONTEXT — for reference only; not a new message]",
                 "[END OF PRIOR CONTEXT — COMPACTION SUMMARY BELOW]")
_HERMES_CONTINUE = "Continue from the compressed conversation context above."
_HERMES_NOTES = (_HERMES_CONTINUE, "[Your active task list was preserved across context compression]",
                 "[Your latest Plan panel plan was preserved across context compression", "[ASYNC DELEGATION",
                 "[System: ", "[System note:", "[Runtime note:", "[SYSTEM]", "[Planning state preserved", "[OUT-OF-BAND",
                 "[IMPORTANT: MCP servers have been reloaded")
"""User messages Hermes Agent writes itself: the turn it adds when a compression kept no message of
the person's, the task list (``tools/todo_tool.py`` ``TODO_INJECTION_HEADER``) and plan it puts back
after one, a background delegation's report (``tools/async_delegation.py``), the gateway's note of a
model switch (``[System: The active model for this chat has changed to …]``, persisted as a user row
because strict providers refuse a late system message) and the agent loop's other ``[System: …]``
notes, an MCP reload (``[IMPORTANT: MCP servers have been reloaded. …]``, ``cli.py``). Notes, not
prompts: the prefixes Hermes's own compressor and titler take for rows no person wrote
(``agent/context_compressor.py`` ``_SYNTHETIC_USER_ROW_PREFIXES``, ``agent/title_generator.py``
``_MACHINE_PREFIXES``). Read as prompts, a model switch was the session's title and a request."""
_HERMES_BATCH = re.compile(r"\[IMPORTANT: \d+ background (?:processes|subagent delegations) completed")
"""The head of the notice Hermes's gateway writes for several background processes (or delegations)
that ended together (``[IMPORTANT: 3 background processes completed for this session.``, then a
block a process): a note (its blocks are not read as the ends of their launches)."""
_HERMES_CRON = ("[IMPORTANT: You are running as a scheduled cron job", "[SYSTEM: You are running as a scheduled cron job")
_HERMES_WRAPPERS = (*_HERMES_CRON, '[IMPORTANT: The user has invoked the "', '[SYSTEM: The user has invoked the "',
                    "[IMPORTANT: The following skill(s) were listed for this job",
                    "[SYSTEM: The following skill(s) were listed for this job")
_HERMES_INSTRUCTION = "The user has provided the following instruction alongside the skill invocation: "
_HERMES_RUNTIME_NOTE = "\n\n[Runtime note:"
_HERMES_BUNDLE = (" skill bundle,", "\nUser instruction: ", "\n\n[Loaded as part of the ")
"""A skill bundle's invocation (``agent/skill_bundles.py``): ``[IMPORTANT: The user has invoked the
"<name>" skill bundle, …]``, then ``User instruction: <what they asked>`` before the bundle's skills,
each opening ``[Loaded as part of the …`` (the markers Hermes's OpenViking plugin keeps
byte-identical to the builder's, ``plugins/memory/openviking``)."""


def _hermes_wrapped(text: str) -> tuple[str, str] | None:
    """Hermes Agent's scaffolding around what the person asked, split: ``(note, typed)``, ``typed``
    empty when the message holds none of their words; None for any other message.

    A cron job's prompt opens with the scheduler's hint (``[IMPORTANT: You are running as a
    scheduled cron job. DELIVERY: … [SILENT] …]``, ``[SYSTEM: …`` in earlier releases), then a
    blank line and the job's prompt (``cron/scheduler.py`` ``_build_job_prompt``); a skill's
    invocation is ``[IMPORTANT: The user has invoked the "<name>" skill …]``, the skill's body,
    then ``The user has provided the following instruction alongside the skill invocation:
    <what they asked>`` and maybe a ``[Runtime note: …]`` (``agent/skill_commands.py``); a cron
    job that names skills none of which are found opens with ``[IMPORTANT: The following skill(s)
    were listed for this job but could not be found …]`` (the scheduler again). Nested so (a cron
    job's skills, its hint in the instruction), each layer is taken off in turn. A notice of
    background processes ended together is a note. Read whole, the hint (or the skill's body) was
    the person's prompt and the session's title."""
    if not text.startswith(_HERMES_WRAPPERS):
        return (text, "") if _HERMES_BATCH.match(text) else None
    start, end = 0, len(text)
    for _ in range(4):  # the skipped skills' notice, a skill, the cron hint: three layers at most
        rest = text[start:end]
        if not rest.startswith(_HERMES_WRAPPERS):
            break
        at = rest.rfind(_HERMES_INSTRUCTION)
        if at < 0 and _HERMES_BUNDLE[0] in rest[:200] and (said := rest.find(_HERMES_BUNDLE[1])) >= 0:
            start += said + len(_HERMES_BUNDLE[1])  # a bundle's: its instruction, before its skills
            cut = text.find(_HERMES_BUNDLE[2], start, end)
            if cut >= 0:
                end = cut
        elif at >= 0:
            start += at + len(_HERMES_INSTRUCTION)
            cut = text.find(_HERMES_RUNTIME_NOTE, start, end)
            if cut >= 0:
                end = cut
        elif rest.startswith(_HERMES_CRON) and (close := rest.find("]\n")) >= 0:
            start += close + 2  # ("[SILENT]" inside the hint is never followed by a line's end)
        else:
            start = end  # a skill invoked with no words of the person's
        while start < end and text[start].isspace():
            start += 1
    typed = text[start:end].strip()
    return (text[:start] + text[end:]).strip(), typed


def _hermes_compaction(text: str) -> tuple[str, str] | None:
    """The summary Hermes Agent's context compression put in the conversation, and what the person
    typed in the same message (``""`` when nothing), or None for any other message. The summary is
    a message of its own, user or assistant as the turns around it allow, opening with its
    handoff note (``[CONTEXT COMPACTION — REFERENCE ONLY] Earlier turns were compacted ...``;
    ``[CONTEXT SUMMARY]:`` in earlier releases) and closed by ``--- END OF CONTEXT SUMMARY — ...
    ---``, the person's next message after it when it had to share theirs; or it is merged into
    that message, their words first between ``[PRIOR CONTEXT — ...]`` and ``[END OF PRIOR CONTEXT
    — COMPACTION SUMMARY BELOW]`` (NousResearch/hermes-agent ``agent/context_compressor.py``,
    ``SUMMARY_PREFIX``, ``LEGACY_SUMMARY_PREFIX``, ``_SUMMARY_END_MARKER``,
    ``_MERGED_PRIOR_CONTEXT_HEADER``). Read as a prompt, the summary of the earlier turns was a
    request the person made, and no compaction was seen."""
    if text.startswith(_HERMES_SUMMARY):
        end = text.find(_HERMES_SUMMARY_END)
        if end < 0:
            return text, ""
        close = text.find("\n", end)
        typed = text[close:].strip() if close >= 0 else ""
        return text[:end].rstrip(), "" if typed.startswith(_HERMES_CONTINUE) else typed
    if text.startswith(_HERMES_PRIOR[0]) and (at := text.find(_HERMES_PRIOR[1])) >= 0:
        typed = text[len(_HERMES_PRIOR[0]):at].strip()
        return text[at + len(_HERMES_PRIOR[1]):].strip(), typed
    return None


def _hermes_notice(text: str, background: dict, event) -> Event:
    """Hermes Agent's notice that a background process ended (or printed what it was told to watch
    for), which it hands the model as a user message of its own when the process's
    ``completion_queue`` drains (the CLI's ``_pending_input``, the gateway's internal message): the
    end of the command that started it, exit status and output, as the poll that saw it exit
    (:func:`_hermes_job`); a system note where the start is not in the file. Read as a prompt, the
    person had typed the notice, and the launch that crashed stayed running, its traceback no
    error."""
    head = _HERMES_NOTICE_HEAD.match(text)
    owner = background.get(head["job"]) if head else None
    if owner is None:
        return event("system", "system", text=text, raw_type="background_notice")
    watched = head["watch"] is not None
    mark = "\nMatched output:\n" if watched else "\nOutput:\n"
    at = text.find(mark)
    shown = text[at + len(mark):] if at >= 0 else ""
    if shown.endswith("]"):
        shown = shown[:-1]
    if watched:
        return event("tool_result", "tool", call_id=f"{owner}#running", text=shown, raw_type="running")
    del background[head["job"]]
    code = int(head["code"]) if head["code"] is not None else None
    return event("tool_result", "tool", call_id=owner, text=shown, exit_code=code, is_error=bool(code))


def _encoded_twice(text: str) -> str:
    """A tool's JSON object that was encoded a second time as a JSON string (``"{\\"output\\":
    ...}"``: a tool that returns ``json.dumps(result)`` in a framework that encodes what a tool
    returns), as the object's text; any other text as it is. Read as it was, its output was one
    line of escapes, its exit code unread."""
    try:
        inner = inner_json(text)
    except ValueError:
        return text
    return inner if isinstance(inner, str) and inner.lstrip()[:1] == "{" else text


def _tool_error_json(text: str) -> str | None:
    """The reason a tool gave in the JSON object it returned to say it failed: ``{"error": "<why>"}``
    (Hermes Agent's tools: NousResearch/hermes-agent ``tools/registry.py``, ``tool_error``) or
    ``{"success": false, "error": "<why>"}`` (tools written to its plugin interface, and many of
    one's own); None for any other result. A shell's JSON (an ``exit_code``, an ``output``) is read
    by its exit status (:func:`common.shell_result`), not here. Read as text, the failed call was a
    success."""
    if not ('"error"' in text[:2000] or '"success"' in text[:2000]):
        return None
    try:
        result = inner_json(text)
    except ValueError:
        return None
    if not isinstance(result, dict) or "output" in result or any(k in result for k in ("exit_code", "returncode")):
        return None
    error = result.get("error")
    if isinstance(error, dict):  # {"error": {"message": ...}}
        error = error.get("message")
    if not isinstance(error, str) or not error.strip():
        error = result.get("message") if result.get("success") is False else None
        if not isinstance(error, str) or not error.strip():
            return "the tool reported a failure" if result.get("success") is False else None
    if result.get("success") is True:
        return None
    return error.strip()


_HERMES_USER_DENIED = "BLOCKED: User denied this command"


def _hermes_refusal(text: str) -> tuple[str, str] | None:
    """Who refused a command Hermes Agent's terminal tool never ran, and what to say of it when its
    result says nothing: ``rejected`` (the person, at its approval prompt: "BLOCKED: User denied this
    command. ..."), ``denied`` (its guard: smart approval, an approval that timed out, a working
    folder it would not use; or, in its gateway's ask mode, a command left waiting for the person's
    approval); None for any other result. Such a result is ``{"output": "", "exit_code": -1,
    "error": <why>, "status": "blocked"}``, or ``"status": "pending_approval"`` with an empty error
    and the ``description`` of what was flagged (NousResearch/hermes-agent ``tools/terminal_tool.py``,
    the checks before a command runs; the texts from ``tools/approval.py``). Read by its exit code,
    the command had failed ("exit code -1")."""
    if not (text[:1] == "{" and ('"blocked"' in text or '"pending_approval"' in text)):  # most results are no JSON
        return None
    try:
        result = inner_json(text)
    except ValueError:
        return None
    if not isinstance(result, dict) or result.get("status") not in ("blocked", "pending_approval") \
            or result.get("output"):
        return None
    if result["status"] == "pending_approval":
        flagged = result.get("description")
        said = f"awaiting approval: {flagged}" if isinstance(flagged, str) and flagged else "awaiting approval"
        return "denied", said
    error = result.get("error")
    return ("rejected" if isinstance(error, str) and error.startswith(_HERMES_USER_DENIED) else "denied"), ""


def _result_status(text: str) -> tuple[str, int | None]:
    """A tool result's text and the exit code it says: Claude Code's ``Exit code N`` prefix, a
    trailer (OpenHands, Factory Droid, ``kubectl exec``), Codex's JSON or ``Exit code: N`` header,
    an agent loop's own status line (common.shell_result)."""
    code = exit_code_of(text)
    if code is None:
        code = trailing_exit_code(text)
    if code is None:
        text, code = shell_result(text)
    return text, code


COMPACTION_QUESTION = "What did we do so far?"
"""How OpenCode sends a compaction in every request after it: this question as a user message, the
summary its compaction call wrote as the answer (sst/opencode ``packages/opencode/src/session/
message-v2.ts``, ``toModelMessages``: a ``compaction`` part), then what came after. A proxy's record
of its calls on an OpenAI-compatible provider names no session: parted by their first prompt, a run
that compacted was two sessions, and two runs that compacted were joined on the question
(``sources._conversations_of``); read as the person's, the question was a prompt of each request."""

_COMPACTION_NOTE = ("Continue if you have next steps, or stop and ask for clarification if you are unsure how "
                    "to proceed.")
"""What OpenCode adds as a user message after a compaction it made on its own, marked synthetic
(sst/opencode ``packages/opencode/src/session/compaction.ts``, ``processCompaction``; a note about
media it left out may come before it): its store reads it as no prompt (formats.opencode)."""


TITLE_REQUEST = "Generate a title for this conversation:"
"""How OpenCode asks a small model for a session's title, at its first prompt: the title generator's
system prompt, this user message, then the person's first prompt (older releases put this before it,
in the same message: sst/opencode ``packages/opencode/src/session/prompt.ts``, ``ensureTitle``). Read as
a call of the session, the first prompt was the person's twice, this line a prompt of theirs and the
title the assistant's words; two sessions' title calls, alike in their first user message, were a
session of their own (``sources._opening``)."""


def is_title_call(messages: list) -> bool:
    """``messages`` (a request's) ask for OpenCode's title of a session (:data:`TITLE_REQUEST`)."""
    first = next((m for m in messages if isinstance(m, dict) and m.get("role") == "user"), None)
    content = first.get("content") if first is not None else None
    if isinstance(content, list):  # its first part's text (block_text joins them all: a long first prompt)
        content = next((text for part in content if (text := block_text([part]))[:80].strip()), "")
    return isinstance(content, str) and content[:80].lstrip().startswith(TITLE_REQUEST)


_CLAUDE_SIDE_SYSTEMS = ("Analyze if this message indicates a new conversation topic",
                        "Summarize this coding conversation in under 50 characters",
                        "Generate a concise, sentence-case title",
                        "Your task is to process Bash commands that an AI coding agent wants to run",
                        "Extract any file paths that this command reads or modifies",
                        "You are an expert at analyzing git history",
                        "You are an assistant for performing a web search tool use",
                        "You are evaluating a hook in Claude Code",
                        "Generate a short kebab-case name (2-4 words) that captures the main topic")
"""The system prompts of the side calls Claude Code makes on its small model beside the conversation,
after "You are Claude Code, Anthropic's official CLI for Claude." (its only other block): the topic
check of each prompt (the prompt its one user message, ``{"isNewTopic", "title"}`` back), the
session's summary and, newer, its title (the conversation written out as a user message), a Bash
command's prefix and the files it touches (``Command: <the command>``), and at start the files the
welcome screen's example prompts name (``Files modified by user: ...`` from ``git log``, five file
names back). Through a logging proxy each was read as a turn: the summary's text, each command and
the git log's counts a prompt of the person's, the JSON and the file names the assistant's words
(public proxies route them by these words: the topic prompt as Claude Code's cli.js writes it, the
title and Bash ones in their lists of Claude Code's auxiliary calls; the git history one as a proxy
logged claude-cli/0.2.107's calls: RavenStorm-bit/claude-code-api-logger ``full-requests-clean.md``,
requests #4 and #19). And each WebSearch's call, the query as ``Perform a web search for the query:
...`` on the ``web_search`` server tool (the search and its pages the assistant's, the tool's
result in the conversation its answer). And a ``"type": "prompt"`` hook's check (the hook's prompt
and its input as the user message, after the conversation when the hook passes it; ``{"ok": true}``
back: ``utils/hooks/execPromptHook.ts``, querySource ``hook_prompt``), and the name ``/rename``
without one asks for (the conversation written out as the user message, ``{"name": ...}`` back:
``generateSessionName``, ``rename_generate_name``): the hook's prompt and the conversation's text
were prompts of the person's, the JSON the assistant's words."""
_AWAY = "The user stepped away and is coming back."
_AWAY_MEMORY = "Session memory (broader context):\n"
"""The one user message Claude Code adds after the conversation's last messages for its "while you
were away" recap, on the small model with no system prompt of its own (Claude Code's identity
alone): this sentence, then how to write the recap, after the session's memory when it has one
(``services/awaySummary.ts``, ``buildAwaySummaryPrompt``, querySource ``away_summary``). Read as a
turn, the instruction was a prompt of the person's and the recap the assistant's words."""
_AWAY_TAIL = 600
"""The characters at the end of that message the instruction sits in (its own run to 260)."""
_SECURITY_MONITOR = "You are a security monitor for autonomous AI coding agents."
_TRANSCRIPT = "<transcript>"
"""Auto mode's classifier of each action the agent wants to take: a long system prompt opening with
:data:`_SECURITY_MONITOR` after Claude Code's own first block, and two user messages, the person's
CLAUDE.md ("The following is the user's CLAUDE.md configuration. ...") and the conversation so far
written out in ``<transcript>`` (a reader of Claude Code's proxied calls that hides its auxiliary
ones matches it so; another classes a request whose last user message opens ``<transcript>`` as
the monitor's). Read as turns, CLAUDE.md and the transcript were the person's prompts, once per
action."""
_SIDE_SYSTEM_CHARS = 4096
"""Longer system prompts are no side call's (Claude Code's own, of the conversation, runs to tens of
thousands of characters): not looked into."""
_CLAUDE_PROBES = ("quota", "Warmup")
"""The one user message of Claude Code's probes: ``quota`` (``max_tokens: 1``, no system prompt) for
the account's limits at start, and ``Warmup`` for each agent's prompt cache (a proxy's rules to
answer them itself: sub2api's ``isMaxTokensOneHaikuRequest``, "content exactly equal to Warmup")."""
_WEB_PAGE = "Web page content:\n---\n"
_WEB_PAGE_ASK = "\nProvide a concise response based"
"""How the one user message of WebFetch's call on the small model opens and what its last lines say:
the page as Markdown between ``---`` lines, the model's question of it, then the guidelines
(``Provide a concise response based [only] on the content above...``; Claude Code's WebFetch tool,
``buildSecondaryModelPrompt`` in a reconstruction of 2.1.183's bundle). The tool's result in the
conversation is that call's answer; read as a turn, the page was a prompt of the person's."""
_WEB_PAGE_TAIL = 1200
"""The characters at the end of that message the guidelines sit in (the longer ones run to 560)."""


_TELEPORT_TITLE = "You are coming up with a succinct title and git branch name for a coding session"
_TELEPORT_ASK = "</description>\nPlease generate a title and branch name for this session."
"""How the one user message of Claude Code's title and branch call for a session it sends to the web
opens and ends (``--teleport``/``--remote``, plan mode's hand-off): the whole instruction, the
session's description between ``<description>`` tags near its end; on the small model with no system
prompt of its own, ``{"title", "branch"}`` back (``generateTitleAndBranch``, querySource
``teleport_generate_title``, ``SESSION_TITLE_AND_BRANCH_PROMPT`` of ``src/utils/teleport.tsx`` in
public copies of the CLI's source; before 2.1.x the answer in ``<title>``/``<branch>`` tags). Read as
a turn, the instruction was a prompt of the person's and the title the assistant's words."""


def _is_web_fetch_call(said: str) -> bool:
    """``said``, a request's one user message, is WebFetch's call on the small model (:data:`_WEB_PAGE`)."""
    return said.startswith(_WEB_PAGE) and _WEB_PAGE_ASK in said[-_WEB_PAGE_TAIL:]


def is_claude_side_call(obj: dict, messages: list) -> bool:
    """``obj``, a logged Messages request (or a proxy's record of one) with ``messages``, is one of
    Claude Code's side calls (:data:`_CLAUDE_SIDE_SYSTEMS`, :data:`_CLAUDE_PROBES`, :data:`_WEB_PAGE`,
    :data:`_SECURITY_MONITOR`), no turn of its conversation."""
    if not messages or not isinstance(first := messages[0], dict):
        return False
    if len(messages) <= 2 and first.get("role") == "user" \
            and (len(messages) == 1 or isinstance(messages[1], dict) and messages[1].get("role") == "assistant"):
        # (a proxy's record holds the answer after the request's one message)
        said = block_text(first.get("content")).strip()
        if said in _CLAUDE_PROBES and (said == "Warmup" or (body := _request_body(obj)) is not None
                                       and body.get("max_tokens") == 1):
            return True
        if _is_web_fetch_call(said) or said.startswith(_TELEPORT_TITLE) and said.endswith(_TELEPORT_ASK):
            return True
    if first.get("role") == "system":  # a proxy that logs the Messages call as a chat request
        system = first.get("content")
    else:
        body = _request_body(obj) if "system" in obj or "request" in obj else None
        system = body.get("system") if body is not None else None
    if _is_security_monitor(system, messages):
        return True
    if isinstance(system, list):  # its text blocks, measured before they are joined
        if sum(len(b["text"]) for b in system if isinstance(b, dict) and isinstance(b.get("text"), str)) \
                > _SIDE_SYSTEM_CHARS:
            return False
        system = block_text(system)
    if system is not None and not isinstance(system, str) or system and len(system) > _SIDE_SYSTEM_CHARS:
        return False
    return bool(system) and any(marker in system for marker in _CLAUDE_SIDE_SYSTEMS) or _is_away_recap(messages)


def _is_away_recap(messages: list) -> bool:
    """The last user message of ``messages`` (a request's on a short system prompt, or none) asks for
    Claude Code's "while you were away" recap (:data:`_AWAY`)."""
    last = next((m for m in reversed(messages[-2:]) if isinstance(m, dict) and m.get("role") == "user"), None)
    for text in _texts(last.get("content")) if last is not None else ():
        head = text[:len(_AWAY_MEMORY) + 8].lstrip()
        if head.startswith(_AWAY) or head.startswith(_AWAY_MEMORY) and ("\n" + _AWAY) in text[-_AWAY_TAIL:]:
            return True
    return False


def _is_security_monitor(system, messages: list) -> bool:
    """A request with ``system`` (a string, or text blocks) and ``messages`` is auto mode's
    classifier (:data:`_SECURITY_MONITOR`): one of the system's first two blocks opens with its
    words (only their heads are read: the prompt is long) and the last user message with
    :data:`_TRANSCRIPT`."""
    if isinstance(system, list):
        heads = [b["text"][:len(_SECURITY_MONITOR) + 8].lstrip() for b in system[:2]
                 if isinstance(b, dict) and isinstance(b.get("text"), str)]
        if not any(head.startswith(_SECURITY_MONITOR) for head in heads):
            return False
    elif not isinstance(system, str) or _SECURITY_MONITOR not in system[:200]:
        return False
    last = next((m for m in reversed(messages) if isinstance(m, dict) and m.get("role") == "user"), None)
    content = last.get("content") if last is not None else None
    if isinstance(content, list):
        content = next((b["text"] for b in content if isinstance(b, dict) and isinstance(b.get("text"), str)), "")
    return isinstance(content, str) and content[:len(_TRANSCRIPT) + 8].lstrip().startswith(_TRANSCRIPT)


SUGGESTION_MODE = "[SUGGESTION MODE"
"""How the user message opens that Claude Code adds after the conversation so far to guess the
person's next prompt, the greyed suggestion in its prompt box (``[SUGGESTION MODE: Suggest what the
user might naturally type next into Claude Code.]``, then its rules; the ``prompt_suggestion`` fork,
``agent-aprompt_suggestion-*`` in the session's folder: formats.claude_layout). The fork resends the
whole history on the conversation's model after each answer; through a logging proxy the question
was read as a prompt of the person's after every answer, the guess (``run the tests``) as the
assistant's words."""


CLAUDE_COMPACTION = "Your task is to create a detailed summary of the conversation so far"
"""How the user message opens that Claude Code adds after the conversation so far to compact it
(``/compact``, or on its own near the context's limit; the ``agent-acompact-*`` files of a session
folder hold the same request: formats.claude_layout). The summary it answers opens every request
after it as a user message, ``This session is being continued from a previous conversation ...``
(read as the session file's summary line is: formats.claude_code). Through a logging proxy the
instruction was a prompt of the person's and the summary the assistant's words."""
SIDE_QUESTION = "<system-reminder>This is a side question from the user."
"""How the user message opens that Claude Code adds after the conversation so far for ``/btw
<question>``: a fork on the conversation's model, no tools, one answer, the question after the
reminder's end (``runSideQuestion``, querySource ``side_question``; the reminder as
Piebald-AI/claude-code-system-prompts records it for 2.1.23, ``This is a side question from the user.
You must answer this question directly in a single response. ...``). Through a logging proxy the
question was a prompt of the person's (its reminder set aside as the CLI's note) and the answer the
assistant's words, in the middle of the work the main agent went on with."""
_FORK_ASKS = (SUGGESTION_MODE, CLAUDE_COMPACTION, SIDE_QUESTION)


def is_claude_compaction(message: object) -> bool:
    """``message`` is Claude Code's request for a compaction's summary (:data:`CLAUDE_COMPACTION`)."""
    return isinstance(message, dict) and any(
        t[:len(CLAUDE_COMPACTION) + 8].lstrip().startswith(CLAUDE_COMPACTION) for t in _texts(message.get("content")))


def _texts(content: object) -> list[str]:
    """A message content's text: itself, a string; its text blocks' (a tool result's block holds none at its top)."""
    if isinstance(content, str):
        return [content]
    return [b["text"] for b in content if isinstance(b, dict) and isinstance(b.get("text"), str)] \
        if isinstance(content, list) else []


def claude_fork_at(messages: list) -> int | None:
    """Where in ``messages`` (a request's, its answer maybe after them) Claude Code's suggestion fork,
    its compaction or a ``/btw`` side question adds its question (:data:`SUGGESTION_MODE`,
    :data:`CLAUDE_COMPACTION`, :data:`SIDE_QUESTION`), or None:
    a request of the conversation."""
    for at in range(len(messages) - 1, max(len(messages) - 3, -1), -1):  # the last user message
        message = messages[at]
        if isinstance(message, dict) and message.get("role") == "user":
            return at if any(t[:len(CLAUDE_COMPACTION) + 8].lstrip().startswith(_FORK_ASKS)
                             for t in _texts(message.get("content"))) else None
    return None


_CLI_CONTEXTS = ("This is the Qwen Code. We are setting up the context for our chat.",
                 "This is the Gemini CLI. We are setting up the context for our chat.")
"""How Qwen Code (and Gemini CLI, whose fork it is) opens every session's history: a user message of
its own with the date, the system and the folder's file tree, then the model's "Got it. Thanks for
the context!" (QwenLM/qwen-code ``packages/core/src/utils/environmentContext.ts``,
``getInitialChatHistory``; newer Gemini CLIs wrap it in ``<session_context>``). Its own session
files read it as the CLI's (formats.gemini_parts); through an OpenAI-compatible proxy it was the
person's first prompt of every session."""


def is_cli_context(text: str) -> bool:
    """``text``, a user message's, is Qwen Code's or Gemini CLI's own context (:data:`_CLI_CONTEXTS`)."""
    text = text[:120].lstrip()  # (a slice: a user message may be long)
    if text.startswith("<session_context>"):
        text = text[len("<session_context>"):].lstrip()
    return text.startswith(_CLI_CONTEXTS)


COMPACTION_REPLAY = "Here is the conversation so far:\n\n<conversation>\n"
"""How the one user message opens that newer OpenCode releases ask for a compaction's summary with,
the history written out in it, a message a line (``[User]: <text>``, ``[Assistant]: <text>``,
``[Assistant tool call]: ...``): sst/opencode ``packages/core/src/session/compaction.ts``
(``buildPrompt``, ``serialize``; the "prepend" mode, its default)."""


def _opencode_note(text: str) -> bool:
    """The text of a user message OpenCode wrote (:data:`COMPACTION_QUESTION`, :data:`_COMPACTION_NOTE`,
    :data:`COMPACTION_REPLAY`)."""
    # (on slices of the ends: a user message may be a long one, a tool's output an agent put there)
    if text[:len(COMPACTION_REPLAY) + 16].lstrip().startswith(COMPACTION_REPLAY):
        return True
    if len(text) <= 64:
        return text.strip() == COMPACTION_QUESTION
    return text[-len(_COMPACTION_NOTE) - 16:].rstrip().endswith(_COMPACTION_NOTE)


def _harness_note(extra: dict) -> bool:
    """A user message the agent loop wrote, not a person: mini-swe-agent marks the turns it adds
    after an exception with ``extra.interrupt_type`` (``FormatError`` when the reply held no
    command, a timeout's name), and those a person typed with a ``User…`` type
    (``UserInterruption``, ``UserRejection``, ``UserNewTask``; SWE-agent/mini-swe-agent
    src/minisweagent/agents/interactive.py). Read as prompts, "Please always provide EXACTLY ONE
    action" opened a phase and stood in the timeline as the person's words."""
    kind = extra.get("interrupt_type")
    return isinstance(kind, str) and not kind.startswith("User")


REASONING_FIELDS = ("reasoning_content", "reasoning", "thinking")
"""Where OpenAI-compatible servers put a reasoning model's thinking, beside ``content``: vLLM and
SGLang with a reasoning parser send ``reasoning_content`` (vLLM docs, "Reasoning Outputs"),
which newer vLLM calls ``reasoning`` (same page: "reasoning used to be called
reasoning_content"); Ollama sends ``thinking`` (ollama/ollama ``docs/api.md``, chat with
``think``). An agent loop run against a local model saves the message as it came."""


_DROID_BOOKKEEPING = frozenset({"session_start", "todo_state", "compaction_state"})
"""The lines of a Factory Droid session (``~/.factory/sessions/<cwd slug>/<id>.jsonl``) other than its
``{"type": "message", "message": {role, content blocks}}``: the header ``session_start`` (id,
title, owner, cwd), the todo list and the compaction state (the kinds yigitkonur/cli-continues
``src/parsers/droid.ts`` found in real sessions)."""


def _refusal(message: dict, content) -> str:
    """What the model said when it refused: ``message.refusal`` (openai/openai-python
    ``types/chat/chat_completion_message.py``), or ``{"type": "refusal", "refusal": ...}``
    content parts (``chat_completion_content_part_refusal_param.py``). Nothing else of the
    message says it; without this the turn vanished."""
    parts = [message.get("refusal")]
    if isinstance(content, list):
        parts += [b.get("refusal") for b in content if isinstance(b, dict) and b.get("type") == "refusal"]
    return "\n".join(p for p in parts if isinstance(p, str) and p)


def _audio_reply(message: dict) -> str:
    """What the model said aloud (a request with ``modalities: ["text", "audio"]``): the reply's
    ``content`` is null and its words are ``audio.transcript`` (openai/openai-python
    ``types/chat/chat_completion_audio.py``); the history sent back names the audio by ``id`` alone
    (``chat_completion_assistant_message_param.py``, ``Audio{id}``). Without this the turn vanished."""
    audio = message.get("audio")
    if not isinstance(audio, dict):
        return ""
    if isinstance(audio.get("transcript"), str) and audio["transcript"].strip():
        return audio["transcript"]
    return f"[audio reply {audio['id']}]" if isinstance(audio.get("id"), str) and audio["id"] else ""


_GOOSE_NOTES = frozenset({"actionRequired", "toolConfirmationRequest", "systemNotification", "redactedThinking"})
"""Goose's other message parts (``MessageContent`` in block/goose ``crates/goose/src/conversation/message/
content_types.rs``): a confirmation asked of the person, Goose's own notice (``notificationType``
``thinkingMessage``, ``inlineMessage``, ``creditsExhausted``), hidden thinking. A user message of
them alone was read as an empty prompt."""
_TOOL_BLOCKS = frozenset({"tool_use", "tool_result", "thinking", "toolRequest", "toolResponse",
                          "frontendToolRequest", "server_tool_use", "tool-call", "tool-result"}) \
    | _GOOSE_NOTES | server_tools.RESULT_BLOCKS
"""Anthropic's blocks (its server tools' too: :mod:`formats.server_tools`), Goose's
``toolRequest``/``toolResponse`` (see :func:`_goose_call`), and the Vercel AI SDK's ``tool-call``/
``tool-result`` parts (:func:`_ai_sdk_call`)."""


def _has_tool_blocks(content: list) -> bool:
    return any(isinstance(b, dict) and isinstance(b.get("type"), str) and b["type"] in _TOOL_BLOCKS for b in content)


def _anthropic_blocks(content: list, role: str, event, call_names) -> Iterator[Event]:
    """The same ``messages`` saved from the Anthropic Messages API (an agent loop of one's own):
    ``tool_use{id, name, input}`` in assistant turns, ``tool_result{tool_use_id, content,
    is_error}`` in user turns, the blocks Claude Code writes too (TRANSCRIPTS.md section 1a)."""
    for i, block in enumerate(content):
        if not isinstance(block, dict):
            continue
        btype = block.get("type")
        if not isinstance(btype, str):
            continue  # a list or object "type" (a damaged block) is no block's: was a TypeError
        if btype == "text" and isinstance(block.get("text"), str):
            text = block["text"]
            kind = "text" if role != "user" else "system" if cline_task.is_extension_note(text) else "prompt"
            if kind == "prompt" and text[:64].lstrip().startswith(claude_code._REMINDER_OPEN):
                # Claude Code's reminder beside the results it sent (a file changed, the todo list)
                if _STEERED in text:
                    text, typed = _steered(text)
                    yield from (event("prompt", role, i, text=said) for said in typed)
                    if not text.strip():
                        continue
                typed = claude_code._after_reminders(text)
                kind, text = ("system", text) if typed is text else ("prompt", typed)
            yield event(kind, role, i, text=text)
        elif btype == "thinking":
            yield event("thinking", role, i, text=str(block.get("thinking", "")))
        elif btype == "tool_use":
            name = block.get("name") if isinstance(block.get("name"), str) else "?"
            args = block.get("input") if isinstance(block.get("input"), dict) else {}
            # Cursor's transcripts give their calls no id: one per call, not per block index
            call_id = block.get("id") if isinstance(block.get("id"), str) else f"call-{len(call_names)}-{i}"
            call_names[call_id] = name
            command = shell_command(args)
            if name in _EDITOR_TOOLS:  # its native home: the Messages API's text editor tool
                name, command = _editor_call(args), None
            if command is None and name == cline_task.SDK_SHELL_TOOL:
                command = cline_task.sdk_commands(args)
            description = args.get("description") if isinstance(args.get("description"), str) else None
            yield event("tool_call", role, i, tool_name=name, call_id=call_id, command=command,
                        text=call_text(command, args), path=call_path(name, args), description=description,
                        host=remote_host(args) if command is not None else None)
        elif btype == "tool_result":
            output = block_text(block.get("content"))
            call_id = block.get("tool_use_id") if isinstance(block.get("tool_use_id"), str) else None
            read = None
            if call_id is not None and call_names.get(call_id) == "Read":
                # Claude Code's Read of a text file, as the model got it: the file's text is what
                # it read (was each line behind its number and the CLI's malware reminder after it:
                # a traceback in a log it read lost its exception line, and a line "Exit code 1"
                # of the file is no exit of the call)
                read = claude_code.read_file_text(output)
            if read is not None:
                code, failed = None, False
            else:
                code = exit_code_of(output)
                if code is None:
                    code = trailing_exit_code(output)  # Factory Droid's "[Process exited with code N]"
                failed = bool(code)
                if code is None:
                    code, failed = cline_task.exit_status(output)  # Roo Code's "Exit code: N"
            typed = ()
            if _STEERED in output:  # what the person typed while it ran, as Claude Code tells the model
                output, typed = _steered(output)
            if read is not None:  # (the file's text without the person's words, when they came in it)
                output = (claude_code.read_file_text(output) or read) if typed else read
            yield event("tool_result", "tool", i, call_id=call_id, text=output, exit_code=code,
                        is_error=block.get("is_error") is True or failed)
            yield from (event("prompt", "user", i, text=said) for said in typed)
        elif btype == "tool-call":
            yield _ai_sdk_call(block, role, i, event, call_names)
        elif btype == "tool-result":
            yield _ai_sdk_result(block, i, event)
        elif btype == "reasoning" and role == "assistant" and isinstance(block.get("text"), str):
            yield event("thinking", role, i, text=block["text"])  # the AI SDK's reasoning part
        elif btype in ("toolRequest", "frontendToolRequest"):  # the latter a tool the desktop app runs
            yield _goose_call(block, role, i, event, call_names)
        elif btype == "toolResponse":
            yield _goose_result(block, i, event)
        elif btype == "server_tool_use":  # web_search, web_fetch, code execution: run by the API (was dropped)
            yield server_tools.call(block, event("tool_call", role, i))
        elif btype in server_tools.RESULT_BLOCKS:
            yield server_tools.result(block, event("tool_result", "tool", i))
        elif btype in _GOOSE_NOTES:
            yield _goose_note(block, btype, role, i, event)


def _is_reasoning_part(part: object) -> bool:
    return isinstance(part, dict) and part.get("type") == "reasoning" and isinstance(part.get("text"), str)


def _reasoning_parts(content: list) -> list[str]:
    """The texts of an assistant message's ``{type: "reasoning", text}`` parts (the Vercel AI SDK's
    ``ReasoningPart``, vercel/ai ``packages/provider-utils/src/types/content-part.ts``)."""
    return [part["text"] for part in content if _is_reasoning_part(part)]


def _ai_sdk_call(block: dict, role: str, i: int, event, call_names) -> Event:
    """A call as the Vercel AI SDK keeps it in an assistant ``ModelMessage``: ``{type: "tool-call",
    toolCallId, toolName, input}`` (``args`` before AI SDK 5; vercel/ai ``packages/provider-utils/
    src/types/content-part.ts``, ``ToolCallPart``). An agent loop on the SDK saves its messages so;
    read as chat text, its calls were none."""
    name = block.get("toolName") if isinstance(block.get("toolName"), str) else "?"
    raw = block.get("input", block.get("args"))
    args = decode_arguments(raw)
    command = shell_command(args) if isinstance(args, dict) else None
    if command is None and isinstance(args, dict) and _is_shell(name):
        command = _shell_argument(args)
    call_id = block["toolCallId"] if isinstance(block.get("toolCallId"), str) and block["toolCallId"] \
        else f"call-{len(call_names)}-{i}"
    call_names[call_id] = name
    return event("tool_call", role, i, tool_name=name, call_id=call_id, command=command, text=call_text(command, raw),
                 path=call_path(name, args), host=remote_host(args) if command is not None else None)


def _ui_tool_parts(parts: list) -> bool:
    """Some of a UIMessage's parts are calls (:func:`_ui_parts`)."""
    return any(isinstance(p, dict) and isinstance(kind := p.get("type"), str)
               and kind.startswith(("tool-", "dynamic-tool")) and kind not in ("tool-call", "tool-result") for p in parts)


def _ui_parts(parts: list) -> list:
    """A ``UIMessage``'s parts as the core message's (:func:`_ai_sdk_call`, :func:`_ai_sdk_result`):
    a call is one part, ``{type: "tool-<name>" | "dynamic-tool" (with toolName), toolCallId, state,
    input, output | errorText}``, its ``state`` ``output-available``, ``output-error`` or
    ``output-denied`` once it ended (``input-streaming``, ``input-available``, ``approval-requested``
    while it had not: a call with no result); AI SDK 4 wrote ``{type: "tool-invocation",
    toolInvocation: {state: "call" | "result", toolCallId, toolName, args, result}}`` (vercel/ai
    ``packages/ai/src/ui/ui-messages.ts``, ``ToolUIPart``, ``DynamicToolUIPart``). Text and reasoning
    parts are kept; the rest (``step-start``, sources, files, data) are the UI's."""
    found: list = []
    for part in parts:
        kind = part.get("type") if isinstance(part, dict) else None
        if not isinstance(kind, str):
            continue
        if kind == "tool-invocation" and isinstance(part.get("toolInvocation"), dict):
            part = part["toolInvocation"]
            name, state, raw = part.get("toolName"), part.get("state"), part.get("args")
            state = "output-available" if state == "result" else state
        elif (kind.startswith("tool-") and kind not in ("tool-call", "tool-result")) or kind == "dynamic-tool":
            name = part.get("toolName") if kind == "dynamic-tool" else kind[len("tool-"):]
            state, raw = part.get("state"), part.get("input")
        else:
            if kind in ("text", "reasoning"):
                found.append(part)
            continue
        call_id = part.get("toolCallId")
        found.append({"type": "tool-call", "toolCallId": call_id, "toolName": name, "input": raw})
        if state == "output-available":
            found.append({"type": "tool-result", "toolCallId": call_id,
                          "result": part.get("output", part.get("result"))})
        elif state == "output-error":
            found.append({"type": "tool-result", "toolCallId": call_id, "result": part.get("errorText"),
                          "isError": True})
        elif state == "output-denied":
            approval = part.get("approval") if isinstance(part.get("approval"), dict) else {}
            found.append({"type": "tool-result", "toolCallId": call_id,
                          "output": {"type": "execution-denied", "reason": approval.get("reason")}})
    return found


_AI_SDK_ERRORS = ("error-text", "error-json")


def _ai_sdk_result(block: dict, i: int, event) -> Event:
    """A result as the Vercel AI SDK keeps it in a ``tool`` message: ``{type: "tool-result",
    toolCallId, toolName, output}``, ``output`` being ``{type: "text" | "json" | "error-text" |
    "error-json", value}``, ``{type: "content", value: [parts]}`` or, for a call the person did not
    approve, ``{type: "execution-denied", reason?}`` (``ToolResultOutput``, content-part.ts); before
    AI SDK 5, ``result`` (any JSON) and ``isError``. A shell tool's JSON (``{stdout, stderr,
    exitCode}``) or its ``Exit code: N`` says its exit status, as a tool message's does."""
    call_id = block.get("toolCallId") if isinstance(block.get("toolCallId"), str) else None
    output = block.get("output")
    failed = block.get("isError") is True
    if isinstance(output, dict) and isinstance(output.get("type"), str):
        kind = output["type"]
        if kind == "execution-denied":
            reason = output.get("reason") if isinstance(output.get("reason"), str) else ""
            return codex_tool_ends.not_run(event("tool_result", "tool", i, call_id=call_id, text=reason), "rejected")
        value = output.get("value")
        failed = failed or kind in _AI_SDK_ERRORS
        value = block_text(value) if kind == "content" else value
    else:
        value = output if "output" in block else block.get("result")
    text = value if isinstance(value, str) else "" if value is None else json.dumps(value, ensure_ascii=False)
    text, code = _result_status(text)
    return event("tool_result", "tool", i, call_id=call_id, text=text, exit_code=code, is_error=failed or bool(code))


def _outside_reminders(text: str) -> str:
    """``text`` without the whole ``<system-reminder>...</system-reminder>`` blocks in it (a tag
    never closed is kept, as words about it are): what the person typed, ``""`` when nothing is."""
    kept = []
    at = 0
    while (opened := text.find(claude_code._REMINDER_OPEN, at)) >= 0:
        closed = text.find(claude_code._REMINDER_CLOSE, opened)
        if closed < 0:
            break
        kept.append(text[at:opened])
        at = closed + len(claude_code._REMINDER_CLOSE)
    kept.append(text[at:])
    return "\n".join(part.strip() for part in kept if part.strip())


_STEERED = "The user sent a new message while you were working:\n"
_STEERED_END = "\n\nIMPORTANT: After completing your current task, you MUST address the user's message above."
_STEERED_LAST = " Do not ignore it."
"""How Claude Code tells the model what the person typed while it worked (a queued prompt, its
session file's ``queued_command`` attachment: formats.claude_code): ``<system-reminder>\n`` + this +
the message + :data:`_STEERED_END` + :data:`_STEERED_LAST` + ``\n</system-reminder>``, inside the next
tool result it sends, or beside it (wording as independent readers of its requests strip it and an
end-to-end test of the CLI through a proxy finds it "inside the next tool_result"). Read from a
proxy's log it was part of the tool's output, or a note, and the person's words no prompt."""


def _steered(text: str) -> tuple[str, list[str]]:
    """``text`` (a tool's output, a user text block) without Claude Code's notes of the messages the
    person typed meanwhile (:data:`_STEERED`), and those messages, in order."""
    typed: list[str] = []
    at = text.find(_STEERED)
    while at >= 0:
        start = text.rfind(claude_code._REMINDER_OPEN, 0, at)
        wrapped = start >= 0 and not text[start + len(claude_code._REMINDER_OPEN):at].strip()
        start = start if wrapped else at
        said_from = at + len(_STEERED)
        close = text.find(claude_code._REMINDER_CLOSE, said_from) if wrapped else -1
        said_to = text.find(_STEERED_END, said_from, close if close >= 0 else len(text))
        if close < 0 and said_to < 0:  # the words alone (a file that quotes them): no note of the CLI's
            at = text.find(_STEERED, said_from)
            continue
        if close >= 0:
            stop = close + len(claude_code._REMINDER_CLOSE)
        else:
            stop = said_to + len(_STEERED_END)
            stop += len(_STEERED_LAST) if text.startswith(_STEERED_LAST, stop) else 0
        said = text[said_from:said_to if said_to >= 0 else close].strip()
        if said:
            typed.append(said)
        text = "\n".join(part for part in (text[:start].rstrip(), text[stop:].lstrip()) if part)
        at = text.find(_STEERED, start)
    return text, typed


def _cline_user_blocks(content: list, event, call_names) -> list[Event] | None:
    """A Cline or Roo Code user turn of text blocks (formats.cline_task): a ``[tool for 'x']
    Result:`` block and the output after it are the result of one of the reply's calls (the n
    results of a turn answer its last n calls, in order), the ``<environment_details>`` block the
    extension's note; None when no block is either (a plain prompt, read as before)."""
    texts = [(i, b["text"]) for i, b in enumerate(content)
             if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)]
    if not any(t.startswith("[") and cline_task.result_header(t) or cline_task.is_extension_note(t)
               for _i, t in texts):
        return None
    headers = sum(1 for _i, t in texts if cline_task.result_header(t) is not None)
    answered = list(islice(reversed(call_names), headers))[::-1]
    events: list[Event] = []
    result: list[str] | None = None
    opened = 0
    for i, text in texts:
        header = cline_task.result_header(text)
        if cline_task.is_extension_note(text):
            events.append(event("system", "user", i, text=text))
        elif header is not None or result is not None:
            if header is not None:
                _close_result(events, result, opened, event, answered)
                result, opened, text = [], i, header[1]
            result.append(text)
        else:
            events.append(event("prompt", "user", i, text=text))
    _close_result(events, result, opened, event, answered)
    return events


def _close_result(events: list, parts: list[str] | None, block: int, event, answered: list[str]) -> None:
    if parts is None:
        return
    output = "\n".join(p for p in parts if p)
    code, failed = cline_task.exit_status(output)
    call_id = answered.pop(0) if answered else None
    events.append(event("tool_result", "tool", block, call_id=call_id, text=output, exit_code=code, is_error=failed))


def _goose_call(block: dict, role: str, i: int, event, call_names) -> Event:
    """Goose's session JSONL (``~/.local/share/goose/sessions/<id>.jsonl``: a metadata line, then
    ``{role, created, content: [...]}``) and its stream output: ``{type: "toolRequest", id,
    toolCall: {status, value: {name, arguments}}}`` (block/goose ``crates/goose/src/conversation/
    message.rs``; a session quoted in a public schema note, citing goose issue #2529). Read as
    chat blocks of an unknown type, its shell calls were no command."""
    call = block.get("toolCall") if isinstance(block.get("toolCall"), dict) else {}
    value = call.get("value") if isinstance(call.get("value"), dict) else call
    name = value.get("name") if isinstance(value.get("name"), str) else "?"
    args = value.get("arguments") if isinstance(value.get("arguments"), dict) else {}
    call_id = block.get("id") if isinstance(block.get("id"), str) else f"call-{len(call_names)}-{i}"
    call_names[call_id] = name
    command = shell_command(args)
    return event("tool_call", role, i, tool_name=name, call_id=call_id, command=command,
                 text=call_text(command, args), path=call_path(name, args),
                 host=remote_host(args) if command is not None else None)


def _goose_agent_only(message: dict) -> bool:
    """A message Goose wrote for the model alone, ``metadata: {userVisible: false, agentVisible: true}``
    (``MessageMetadata::agent_only`` in block/goose ``crates/goose/src/conversation/message.rs``): the
    summary and memory text its compaction puts in a user message, its follow-up nudges. Read as a
    prompt, a compaction opened a phase with words the person never typed."""
    meta = message.get("metadata")
    return isinstance(meta, dict) and meta.get("userVisible") is False


def _goose_note(block: dict, btype: str, role: str, i: int, event) -> Event:
    """Goose's notes (:data:`_GOOSE_NOTES`): its notice that the account's credits ran out is the
    agent's failure (the raw type ``error``, as Crush's failed request); the rest are Goose's own lines."""
    if btype == "redactedThinking":
        return event("thinking", role, i, text="[redacted thinking]")
    data = block.get("data") if isinstance(block.get("data"), dict) else {}
    said = next((v for v in (block.get("msg"), block.get("prompt"), data.get("prompt"), data.get("message"),
                             block.get("toolName"), data.get("toolName")) if isinstance(v, str) and v), "")
    if btype == "systemNotification" and block.get("notificationType") == "creditsExhausted":
        return event("system", role, i, raw_type="error", text=said or "credits exhausted")
    return event("system", role, i, raw_type=btype, text=said)


_GOOSE_EXIT = re.compile(r"\n\nCommand exited with code (-?\d+)\s*\Z")
"""How Goose's shell tool ends a failed command's output, the result marked an error (block/goose
``crates/goose-mcp/src/developer/shell.rs``, ``shell_with_cwd``: ``\n\nCommand exited with code N``)."""


def _goose_result(block: dict, i: int, event) -> Event:
    """``{type: "toolResponse", id, toolResult: {status, value: [content] | {content, isError,
    structuredContent}, error?}}``: a failed call says ``status: "error"``."""
    result = block.get("toolResult") if isinstance(block.get("toolResult"), dict) else {}
    value = result.get("value")
    content = value.get("content") if isinstance(value, dict) else value
    output = block_text(content) or (result["error"] if isinstance(result.get("error"), str) else "")
    structured = value.get("structuredContent") if isinstance(value, dict) else None
    code = structured.get("exit_code") if isinstance(structured, dict) else None
    code = code if type(code) is int else exit_code_of(output)
    if code is None and (ended := _GOOSE_EXIT.search(output[-200:])):
        code = int(ended.group(1))
    failed = result.get("status") == "error" or (isinstance(value, dict) and value.get("isError") is True)
    call_id = block.get("id") if isinstance(block.get("id"), str) else None
    return event("tool_result", "tool", i, call_id=call_id, text=output, exit_code=code, is_error=failed or bool(code))


_EDITOR_TOOLS = frozenset({"str_replace_based_edit_tool", "str_replace_editor", "text_editor"})
"""Anthropic's text editor tool under its names (``str_replace_editor`` of the 2024-10-22 and
2025-01-24 tool versions, ``str_replace_based_edit_tool`` of 2025-04-29 and later: Anthropic docs,
"Text editor tool"), as agents sent through an OpenAI-compatible API declare it."""
_EDITOR_AS = {"view": "Read", "create": "Write"}


def _editor_call(args: object) -> str:
    """The file tool a text editor call is (:data:`_EDITOR_TOOLS`): its ``command`` says what it
    does to the file (view, str_replace, create, insert, undo_edit), no shell command. Read as
    the file tools of those names, as formats.openhands_sdk reads its editor (was: a command
    `str_replace` run where the agent ran, and no edit)."""
    return _EDITOR_AS.get(args.get("command") if isinstance(args, dict) else None, "Edit")


def _is_shell(name: str) -> bool:
    return name.lower() in SHELL_TOOL_NAMES


_SHELL_ARGUMENT_KEYS = ("commands", "script", "input", "query")
"""Where a shell tool that has no ``command``/``cmd`` takes its command: LangChain's ShellTool
(named ``terminal``) takes ``commands``, a string or a list it runs joined by ``;``
(langchain-ai/langchain ``libs/community/langchain_community/tools/shell/tool.py``,
``ShellInput``; ``BashProcess.run``), Langchain-Chatchat's ``shell`` a ``query``, and tools
written as ``def bash(script: str)`` or with one free-form ``input`` name theirs so. Read only
for a tool named as a shell (:func:`_is_shell`): elsewhere these keys hold no command."""


def _shell_argument(args: dict) -> str | None:
    """The command a shell tool's arguments give under another key (:data:`_SHELL_ARGUMENT_KEYS`)."""
    for key in _SHELL_ARGUMENT_KEYS:
        value = args.get(key)
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            value = "; ".join(v.strip() for v in value)
        if isinstance(value, str) and value.strip():
            return value
    return None
