"""The names ``--input-format`` takes, apart from the readers (the CLI lists them in its help
without importing every reader)."""

from __future__ import annotations

from spec_debug.errors import UsageError

INPUT_FORMATS = ("auto", "claude-code", "codex", "codex-exec", "openai", "openhands", "swe-agent", "text", "asciicast",
                 "specstory", "gemini-cli", "qwen-code", "pi", "copilot", "droid", "grok", "opencode", "kimi", "crush")
"""What ``--input-format`` takes: every format detection finds. ``codex-exec`` is ``codex exec
--json`` output, ``asciicast`` an asciinema recording, ``specstory`` SpecStory Markdown, ``pi``
the Pi coding agent's sessions (OpenClaw's too), ``copilot`` GitHub Copilot CLI's events.jsonl, ``droid`` Factory Droid's ``droid exec
--output-format stream-json``, ``grok`` Grok CLI's chat_history.jsonl, ``opencode`` OpenCode's
file storage, ``kimi`` Kimi CLI's wire.jsonl (its context.jsonl is ``openai``), ``crush`` Crush's
SQLite store (.crush/crush.db). Cline's and Roo Code's task histories are ``openai`` and their
exports ``specstory``: no format of their own. daaain/claude-code-log's Markdown and HTML pages
are ``text`` (``claude-code-log`` names it): the text reader knows them by their stamp."""
_FORMAT_ALIASES = {"claude": "claude-code", "asciinema": "asciicast", "chatgpt": "openai", "gemini": "gemini-cli",
                   "qwen": "qwen-code", "pi-agent": "pi", "github-copilot": "copilot", "copilot-cli": "copilot",
                  "factory-droid": "droid", "grok-cli": "grok", "open-code": "opencode",
                  "kimi-cli": "kimi", "kimi-wire": "kimi", "crush-db": "crush", "claude-code-log": "text"}


_READ_AS = {
    "aider": "Aider's chat history (.aider.chat.history.md) is read as `text`",
    "github-actions": "a GitHub Actions job log is read as `text`",
    "gitlab-ci": "a GitLab CI job log is read as `text`",
    "cline": "Cline's task history (api_conversation_history.json) is read as `openai`, its exported task as `specstory`",
    "roo-code": "Roo Code's task history (api_conversation_history.json) is read as `openai`, its exported task as "
                "`specstory`",
}
"""Sources the README and docs/analyze.md name that have no format of their own: a user who
typed the tool's name (`--input-format aider`) was told only that it is unknown, with the 19
names, none of them saying it reads Aider. Still a usage error (the name is no format), whose
hint names the format that reads it and that leaving the option out detects it."""
_READ_AS_NAMES = {"gha": "github-actions", "actions": "github-actions", "github": "github-actions",
                  "gitlab": "gitlab-ci", "roo": "roo-code", "roocode": "roo-code", "roo-cline": "roo-code",
                  "aider-chat": "aider"}


def source_read_as(name: str) -> str | None:
    """The words for a source with no format of its own (`aider`: "Aider's chat history ... is
    read as `text`"), or None."""
    key = name.strip().lower().replace("_", "-")
    return _READ_AS.get(_READ_AS_NAMES.get(key, key))


def input_format_name(input_format: str | None) -> str | None:
    """The format ``--input-format`` names (None for auto), spelt as :data:`INPUT_FORMATS`
    spells it; case, ``_`` for ``-`` and a few other names (``claude``, ``asciinema``) are
    accepted. An unknown name is a usage error that lists the known ones."""
    if input_format is None:
        return None
    name = input_format.strip().lower().replace("_", "-")
    name = _FORMAT_ALIASES.get(name, name)
    if name not in INPUT_FORMATS:
        known = ", ".join(INPUT_FORMATS)
        read_as = source_read_as(name)
        if read_as:
            raise UsageError(f"unknown input format {input_format!r}: {read_as}",
                             hint=f"leave --input-format out (auto detects it), or use one of {known}")
        raise UsageError(f"unknown input format {input_format!r}", hint=f"use one of {known}")
    return None if name == "auto" else name
