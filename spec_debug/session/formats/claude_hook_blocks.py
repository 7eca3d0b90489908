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

from spec_debug.session import failures
from spec_debug.session.events import Event
from spec_debug.session.formats.common import Cursor

_PRE_TOOL_USE = "PreToolUse"
_HOOK_ERROR = " hook error: "
_TOOL_USE_ERROR, _TOOL_USE_ERROR_END = "<tool_use_error>", "</tool_use_error>"
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


DENIED = "Claude Code denied this call (toolDenialKind "
"""How a refused call's result is worded when its own words do not say it never ran
(:func:`mark_denied`); :data:`failures._DENIED` holds it."""
_DENIALS = frozenset({"permission-rule", "user-rejected", "automode-blocked", "automode-unavailable",
                      "automode-parsing-error"})
"""``toolDenialKind`` on the user line of a call's result: the permission check refused the call
(claude-code 2.1.195, ``useCanUseTool``: "user-rejected" for a refused ask, the auto mode
classifier's three, else "permission-rule"). "interrupted" and "cancelled" are no refusal."""


def mark_denied(events: list[Event], denial: str) -> None:
    """Give the failed result of a call the CLI refused words that say so, where its own do not.
    A PreToolUse hook's ``permissionDecision: "deny"`` answers the call with the hook's reason
    alone (CLI 2.1.268: "the denied Bash call comes back with ``toolDenialKind:
    "permission-rule"`` and a tool_result that is exactly the reason string", a hook project's
    notes), as an SDK host's refusal does with its message: read alone, the command that never ran
    was a failed one, its error the reason."""
    if denial not in _DENIALS:
        return
    for event in events:
        if event.kind != "tool_result" or not event.is_error:
            continue
        text = event.text or ""
        if any(e.kind in failures.NOT_RUN for e in failures.extract_errors(text, None, True)):
            continue
        if text.startswith(_TOOL_USE_ERROR):
            text = text[len(_TOOL_USE_ERROR):].replace(_TOOL_USE_ERROR_END, "", 1)
        event.text = f"{DENIED}{denial}): {text}"
