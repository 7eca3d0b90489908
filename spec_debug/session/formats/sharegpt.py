"""ShareGPT-style trajectories: ``{"conversations": [{"from": "system" | "human" | "gpt" | "tool",
"value": text}, ...]}``, one a line, as Hermes Agent saves the runs of its batch runner and of
``save_trajectories`` (``trajectory_samples.jsonl``, ``failed_trajectories.jsonl``: NousResearch/
hermes-agent ``agent/trajectory.py`` ``save_trajectory``, ``{"conversations", "timestamp",
"model", "completed"}``) and as training sets of tool use are published.

The calls are text in the model's turn, Hermes's function-calling form: ``<think>…</think>``, then
each call ``<tool_call>\\n{"name", "arguments": {...}}\\n</tool_call>``; the ``tool`` turn after it
holds one ``<tool_response>\\n{"tool_call_id", "name", "content"}\\n</tool_response>`` a call, in the
calls' order (``convert_to_trajectory_format``; datasets write the call as a Python dict's repr).
Each turn is read as the OpenAI chat message it was made from (:mod:`formats.openai_chat`), a
response paired with the call in its place. Read as they were, the records were no transcript.
"""

from __future__ import annotations

import json

from spec_debug.session.formats.common import decode_arguments

_ROLES = {"system": "system", "human": "user", "user": "user", "gpt": "assistant", "assistant": "assistant",
          "tool": "tool", "function_response": "tool", "observation": "tool"}
"""ShareGPT's speakers as chat roles (``human``/``gpt`` the usual pair; ``tool`` Hermes's,
``function_response`` and ``observation`` other published sets', ``observation`` after a
``function_call`` turn in LLaMA-Factory's)."""
_CALL = ("<tool_call>", "</tool_call>")
_RESPONSE = ("<tool_response>", "</tool_response>")
_THINK = ("<think>", "</think>")


def is_trajectory(obj: dict) -> bool:
    """``obj`` is a ShareGPT record: ``conversations`` a list whose first turn has ``from`` and ``value``."""
    turns = obj.get("conversations")
    return isinstance(turns, list) and bool(turns) and isinstance(turns[0], dict) \
        and isinstance(turns[0].get("from"), str) and "value" in turns[0]


def messages(obj: dict) -> list[dict]:
    """The trajectory's turns as chat messages: the model's calls ``tool_calls`` (ids of its own,
    ``sharegpt_<turn>_<n>``), each response a ``tool`` message answering the call in its place."""
    found: list[dict] = []
    calls: list[str] = []  # the ids of the last model turn's calls, in order
    for n, turn in enumerate(obj["conversations"]):
        if not isinstance(turn, dict) or not isinstance(turn.get("from"), str):
            continue  # a damaged turn: no speaker to read it as
        role = _ROLES.get(turn["from"], turn["from"])
        value = turn.get("value")
        text = value if isinstance(value, str) else "" if value is None else json.dumps(value, ensure_ascii=False)
        if role == "assistant" and _CALL[0] in text:
            message, calls = _reply(text, n)
            found.append(message)
        elif turn.get("from") == "function_call":
            message, calls = _calls("", _called(value), n)
            found.append(message)
        elif role == "tool" and _RESPONSE[0] in text:
            found += _responses(text, calls)
        elif role == "assistant" and _THINK[0] in text:
            # a reply without calls: Hermes writes every model turn as <think>…</think> and its
            # words (convert_to_trajectory_format), the answer as well; read whole, the thinking
            # was the answer's text, its guesses the model's stated hypotheses
            found.append(_said(text))
        else:
            found.append({"role": role, "content": text})
    return found


def _blocks(text: str, tags: tuple[str, str]) -> tuple[list[str], str]:
    """The insides of ``text``'s ``tags`` blocks, and the text outside them."""
    inside, outside, at = [], [], 0
    while (start := text.find(tags[0], at)) >= 0:
        end = text.find(tags[1], start)
        outside.append(text[at:start])
        if end < 0:  # cut short: the rest is the block
            inside.append(text[start + len(tags[0]):].strip())
            at = len(text)
            break
        inside.append(text[start + len(tags[0]):end].strip())
        at = end + len(tags[1])
    outside.append(text[at:])
    return inside, "".join(outside).strip()


def _called(value) -> list:
    """A ``function_call`` turn's calls (LLaMA-Factory's ShareGPT form: hiyouga/LLaMA-Factory
    ``data/README.md``, the call as a JSON object, or a list of them, in ``value``)."""
    found = decode_arguments(value)
    return found if isinstance(found, list) else [found]


def _reply(text: str, turn: int) -> tuple[dict, list[str]]:
    thoughts, text = _blocks(text, _THINK)
    raw_calls, said = _blocks(text, _CALL)
    message, ids = _calls(said, [decode_arguments(raw) for raw in raw_calls], turn)
    if any(thoughts):
        message["reasoning"] = "\n".join(t for t in thoughts if t)
    return message, ids


def _said(text: str) -> dict:
    """A model turn of no calls: its ``<think>`` blocks its reasoning, the rest what it said."""
    thoughts, said = _blocks(text, _THINK)
    message: dict = {"role": "assistant", "content": said}
    if any(thoughts):
        message["reasoning"] = "\n".join(t for t in thoughts if t)
    return message


def _calls(said: str, called: list, turn: int) -> tuple[dict, list[str]]:
    """An assistant message of ``said`` and the calls decoded (``{"name", "arguments"}`` each), and their ids."""
    message: dict = {"role": "assistant", "content": said}
    calls, ids = [], []
    for k, call in enumerate(called):
        if not isinstance(call, dict) or not isinstance(call.get("name"), str):
            continue
        args = call.get("arguments")
        ids.append(f"sharegpt_{turn}_{k}")
        calls.append({"id": ids[-1], "type": "function", "function": {
            "name": call["name"],
            "arguments": args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)}})
    if calls:
        message["tool_calls"] = calls
    return message, ids


def _responses(text: str, calls: list[str]) -> list[dict]:
    found = []
    blocks, _ = _blocks(text, _RESPONSE)
    for k, raw in enumerate(blocks):
        response = decode_arguments(raw)
        content = response.get("content", raw) if isinstance(response, dict) else raw
        message = {"role": "tool", "content": content if isinstance(content, str) else
                   json.dumps(content, ensure_ascii=False)}
        if k < len(calls):
            message["tool_call_id"] = calls[k]
        if isinstance(response, dict) and isinstance(response.get("name"), str):
            message["name"] = response["name"]
        found.append(message)
    return found
