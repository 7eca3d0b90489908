"""A Claude Code call a PreToolUse hook denied, whose result is the hook's reason alone.

A hook that blocks a call writes an attachment line before the call's result: ``{"type":
"attachment", "attachment": {"type": "hook_blocking_error", "hookName": "PreToolUse:Bash",
"toolUseID": "toolu_…", "hookEvent": "PreToolUse", "blockingError": {"blockingError": <the
text>, "command": <the hook>}}}``; the text is ``[command]: stderr`` for a hook that exited 2,
the hook's own ``reason`` for one that answered ``permissionDecision: "deny"`` (a reconstruction
of the CLI's ``BlockingError``, "the hook's own reason on a permissionDecision deny"). The call's
``tool_result`` is then ``is_error`` with that reason: CLI 2.1.285 writes it as
``PreToolUse:Bash hook error: <reason>``, which :func:`failures.extract_errors` reads as a call
that never ran, but 2.1.280 wrote the reason alone (``"jev-cops: Irreversible git operation on
the default branch."``, a real run recorded in a hook project's verification notes, sections (d)
and (f)). Read alone, the denied ``git push --force`` was a failed command, its error the reason.

The attachment names the call, so its result is given the newer CLI's words when it lacks them.
"""

from __future__ import annotations

from spec_debug.session.events import Event
from spec_debug.session.formats.common import Cursor

_PRE_TOOL_USE = "PreToolUse"
_HOOK_ERROR = " hook error: "
_MAX_PENDING = 1024
"""Blocks whose result was never read (a file cut short) are let go past this many."""


def note_block(attachment: dict, cursor: Cursor) -> None:
    """Keep the call a PreToolUse ``hook_blocking_error`` attachment names."""
    call = attachment.get("toolUseID")
    if attachment.get("hookEvent") != _PRE_TOOL_USE or not isinstance(call, str):
        return
    name = attachment.get("hookName")
    if len(cursor.hook_blocked) >= _MAX_PENDING:
        cursor.hook_blocked.pop(next(iter(cursor.hook_blocked)))
    cursor.hook_blocked[call] = name if isinstance(name, str) and name.startswith(_PRE_TOOL_USE) else _PRE_TOOL_USE


def mark_blocked(events: list[Event], cursor: Cursor) -> None:
    """Give the failed result of a blocked call the words of a hook's block."""
    for event in events:
        if event.kind == "tool_result" and event.call_id in cursor.hook_blocked:
            name = cursor.hook_blocked.pop(event.call_id)
            text = event.text or ""
            if event.is_error and not (text.startswith(_PRE_TOOL_USE) and _HOOK_ERROR in text[:200]):
                event.text = f"{name}{_HOOK_ERROR}{text}"
