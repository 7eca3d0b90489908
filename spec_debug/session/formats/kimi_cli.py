"""Kimi CLI's session history, ``~/.kimi/sessions/<work_dir_hash>/<session_id>/context.jsonl``:
one chat message a line in the OpenAI shape (read by :mod:`formats.openai_chat`), with the CLI's
own bookkeeping lines and status notes around it.

- Bookkeeping lines have a role of their own: ``{"role": "_system_prompt", "content"}``,
  ``{"role": "_checkpoint", "id": N}``, ``{"role": "_usage", "token_count": N}``
  (``Context.restore``, MoonshotAI/kimi-cli ``src/kimi_cli/soul/context.py``).
- A tool's result is a ``tool`` message whose first text parts are the CLI's notes, each wrapped
  as ``<system>...</system>`` (``system()`` in ``src/kimi_cli/soul/message.py``): a failure
  opens with ``<system>ERROR</system>`` then ``<system>{message}</system>`` (older releases:
  one ``<system>ERROR: {message}</system>``), then the output.
- The Shell tool's messages (``src/kimi_cli/tools/shell/__init__.py``): ``Command executed
  successfully.`` for exit 0, ``Command failed with exit code: N.`` otherwise, and ``Command
  killed by timeout (Ns)``.
- The model's thinking is a ``{"type": "think", "think": …}`` part of the assistant's content
  (kosong's ``ThinkPart``), beside its text parts.
- A checkpoint may also be told to the model as a user message ``<system>CHECKPOINT N</system>``
  (``Context.checkpoint``): the CLI's, not a prompt the person typed.
"""

from __future__ import annotations

import re

BOOKKEEPING_ROLES = frozenset({"_system_prompt", "_checkpoint", "_usage"})
_SYSTEM_NOTE = re.compile(r"\A<system>(.*)</system>\Z", re.DOTALL)
_FAILED = re.compile(r"\ACommand failed with exit code: (-?\d+)\.?\Z")
SUCCEEDED = _SUCCEEDED = "Command executed successfully."


def _notes(content: object) -> list[str]:
    """The ``<system>`` notes a message's content opens with, unwrapped."""
    notes = []
    if not isinstance(content, list):
        return notes
    for part in content:
        text = part.get("text") if isinstance(part, dict) and part.get("type") == "text" else None
        found = _SYSTEM_NOTE.match(text) if isinstance(text, str) else None
        if found is None:
            break
        notes.append(found.group(1).strip())
    return notes


def tool_status(content: object) -> tuple[int | None, bool] | None:
    """``(exit_code, is_error)`` of a Kimi CLI tool result from its notes, or None when the
    content opens with none (another writer's tool message)."""
    notes = _notes(content)
    if not notes:
        return None
    failed = notes[0] == "ERROR" or notes[0].startswith("ERROR:")
    code = None
    for note in notes:
        message = note.removeprefix("ERROR:").strip()
        if (match := _FAILED.match(message)) is not None:
            code = int(match.group(1))
        elif message == _SUCCEEDED and not failed:
            code = 0
    return code, failed or bool(code)


def shell_exit_code(note: str) -> int | None:
    """The exit code a Shell status note names (``Command failed with exit code: N.``), else None."""
    match = _FAILED.match(note.strip())
    return int(match.group(1)) if match else None


def result_text(content: list) -> str:
    """A Kimi CLI tool result as a reader reads it: the CLI's notes unwrapped (its bare ``ERROR``
    marker left out), then the tool's output, then the exit-status note (the exit code is also
    the result's ``exit_code``). Left wrapped, the first line of every failure was
    ``<system>ERROR</system>``: the error said nothing, and the output's own error line (``grep:
    server.log: No such file``) or the timeout note was not what it named."""
    notes = [note.removeprefix("ERROR:").strip() for note in _notes(content)]
    status = [note for note in notes if note == _SUCCEEDED or _FAILED.match(note)]
    said = [note for note in notes if note != "ERROR" and note not in status]
    output = [part["text"] for part in content[len(notes):]
              if isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str)]
    return "\n".join(part.strip("\n") for part in (*said, *output, *status) if part.strip())


def is_cli_note(content: object) -> bool:
    """A user message made only of the CLI's ``<system>`` notes (a checkpoint marker)."""
    return isinstance(content, list) and bool(content) and len(_notes(content)) == len(content)


def thinking(content: list) -> str:
    """The ``think`` parts of an assistant's content, joined (kosong's ``ThinkPart``)."""
    return "\n".join(part["think"] for part in content
                     if isinstance(part, dict) and part.get("type") == "think" and isinstance(part.get("think"), str))
