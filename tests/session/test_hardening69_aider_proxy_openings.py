"""aider through a logging proxy: a folder of its calls is parted by the conversation each call sends
(sources._conversations_of), told by its first prompt. aider opens every request with messages it
writes itself (Aider-AI/aider ``aider/coders/base_coder.py`` ``format_chat_chunks``): its edit
format's example exchange, its repository map, the files in the chat (``base_prompts.py``). Read as
the first prompt, the map, which changes as the code does, cut one run in two, and the examples,
the same words in every run, joined two runs in one. A history aider summarized (``history.py``,
``summary_prefix``) is the same run."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

_SYSTEM = {"role": "system", "content": "Act as an expert software developer."}
_NO_FILES = [{"role": "user", "content": "I am not sharing any files that you can edit yet."},
             {"role": "assistant", "content": "Ok."}]
_EXAMPLES = [{"role": "user", "content": "Change get_factorial() to use math.factorial"},
             {"role": "assistant", "content": "To make this change we need to modify `mathweb/flask/app.py`."},
             {"role": "user", "content": "I switched to a new code base. Please don't consider the above files"
                                         " or try to edit them any longer."},
             {"role": "assistant", "content": "Ok."}]


def _map(version: int) -> list[dict]:
    return [{"role": "user", "content": "Here are summaries of some files present in my git repository.\n"
                                        "Do not propose changes to these files, treat them as *read-only*.\n"
                                        "If you need to edit any of these files, ask me to *add them to the chat*"
                                        " first.\n\npython/sglang/srt/speculative/eagle_worker.py:\n⋮\n"
                                        f"│class EAGLEWorker:\n│    def forward_draft_v{version}(self):\n"},
            {"role": "assistant", "content": "Ok, I won't try and edit those files without asking first."}]


def _user(text: str) -> dict:
    return {"role": "user", "content": text}


def _said(text: str) -> dict:
    return {"role": "assistant", "content": text}


def _write(folder: Path, calls: list[tuple[list, str]]) -> None:
    """Each call as llm-debug writes it (SingularityDAO-dev/tamashii-terminal ``llm-debug/app.py``)."""
    folder.mkdir()
    for n, (messages, answer) in enumerate(calls):
        reply = {"id": f"chatcmpl-{n}", "object": "chat.completion", "created": 1764930080 + n, "model": "gpt-4o",
                 "choices": [{"index": 0, "message": _said(answer), "finish_reason": "stop"}]}
        record = {"request": {"method": "POST", "url": "https://api.openai.com/v1/chat/completions", "headers": {},
                              "body": {"model": "gpt-4o", "messages": messages, "stream": False}},
                  "response": {"status_code": 200, "headers": {}, "body": reply, "error": None}}
        (folder / f"2025-12-05_10-21-{20 + n}-000000.json").write_text(json.dumps(record))


def test_one_aider_run_whose_map_changed_and_history_was_summarized(tmp_path: Path) -> None:
    ask, told = _user("why is accept length 1.0 with eagle3?"), _said("Check the draft model path.")
    again, told_again = _user("it points to the right checkpoint"), _said("Then check the hidden size.")
    summary = _user("I spoke to you previously about a number of things.\n"
                    "The user asked why accept length is 1.0 with EAGLE3; I suggested checking the draft model.")
    calls = [([_SYSTEM, *_map(1), *_NO_FILES, ask], told["content"]),
             ([_SYSTEM, *_map(1), ask, told, *_NO_FILES, again], told_again["content"]),
             ([_SYSTEM, *_map(2), ask, told, again, told_again, *_NO_FILES, _user("hidden size is 4096")],
              "Then the vocab mapping."),
             ([_SYSTEM, *_map(2), summary, _said("Ok."), *_NO_FILES, _user("where is the vocab mapping?")],
              "In d2t.")]
    _write(tmp_path / "logs", calls)
    doc = analyze_path(tmp_path / "logs").to_json()
    assert [s["id"] for s in doc["sessions"]] == ["logs"]


def test_two_aider_runs_that_open_with_the_same_examples(tmp_path: Path) -> None:
    a, b = _user("the draft model OOMs on gpu12"), _user("accept length dropped on gpu07")
    calls = [([_SYSTEM, *_EXAMPLES, *_map(1), *_NO_FILES, a], "Lower --mem-fraction-static."),
             ([_SYSTEM, *_EXAMPLES, *_map(1), *_NO_FILES, b], "Check the draft checkpoint."),
             ([_SYSTEM, *_EXAMPLES, *_map(1), a, _said("Lower --mem-fraction-static."), *_NO_FILES,
               _user("still OOMs at 0.7")], "Try 0.6."),
             ([_SYSTEM, *_EXAMPLES, *_map(1), b, _said("Check the draft checkpoint."), *_NO_FILES,
               _user("it is the right one")], "Then check the hidden size.")]
    _write(tmp_path / "logs", calls)
    doc = analyze_path(tmp_path / "logs").to_json()
    assert sorted(s["id"] for s in doc["sessions"]) == [
        "logs#2025-12-05_10-21-20-000000", "logs#2025-12-05_10-21-21-000000"]


def test_aider_run_read_once_its_own_messages_no_prompts(tmp_path: Path) -> None:
    """Read as prompts, aider's map and its "I am not sharing any files" were the person's words,
    and its history, which comes before the chat files it lists again, was read again with each call."""
    ask, told = _user("why is accept length 1.0 with eagle3?"), _said("Check the draft model path.")
    again, told_again = _user("it points to the right checkpoint"), _said("Then check the hidden size.")
    calls = [([_SYSTEM, *_EXAMPLES, *_map(1), *_NO_FILES, ask], told["content"]),
             ([_SYSTEM, *_EXAMPLES, *_map(1), ask, told, *_NO_FILES, again], told_again["content"]),
             ([_SYSTEM, *_EXAMPLES, *_map(2), ask, told, again, told_again, *_NO_FILES,
               _user("hidden size is 4096")], "Then the vocab mapping."),
             ([_SYSTEM, *_EXAMPLES, *_map(2), _user("I spoke to you previously about a number of things.\n"
                                                     "The user asked why accept length is 1.0 with EAGLE3."),
               _said("Ok."), *_NO_FILES, _user("where is the vocab mapping?")], "In d2t.")]
    _write(tmp_path / "logs", calls)
    doc = analyze_path(tmp_path / "logs").to_json()
    assert [p["text"] for p in doc["prompts"]] == [
        "why is accept length 1.0 with eagle3?", "it points to the right checkpoint", "hidden size is 4096",
        "where is the vocab mapping?"]
