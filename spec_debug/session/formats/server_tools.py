"""The Anthropic API's server tools inside a message: the model's call and the result the API
ran it for, both in the assistant's ``content``.

``{"type": "server_tool_use", "id": "srvtoolu_…", "name": "web_search", "input": {"query": …}}``
is answered in the same message by ``{"type": "web_search_tool_result", "tool_use_id":
"srvtoolu_…", "content": [{"type": "web_search_result", "url", "title", …}]}``, or by a
``content`` ``{"type": "web_search_tool_result_error", "error_code": "max_uses_exceeded"}``;
``web_fetch`` (``input.url``) by ``web_fetch_tool_result`` whose ``content`` is ``{"type":
"web_fetch_result", "url", "content": {"type": "document", "title", …}}`` or
``web_fetch_tool_result_error``; code execution by ``code_execution_tool_result`` /
``bash_code_execution_tool_result`` with ``stdout``, ``stderr``, ``return_code`` (anthropics/
anthropic-sdk-python ``types/beta/beta_server_tool_use_block.py``,
``beta_web_search_tool_result_block.py``, ``beta_web_fetch_tool_result_block.py``,
``beta_bash_code_execution_result_block.py``; the same blocks in many API clients' fixtures).

They ran on Anthropic's servers, never on a host of the user's: what was run is the query, the
URL or the code, and never a shell command (a ``bash_code_execution`` ``input.command`` ran in
the API's sandbox).
"""

from __future__ import annotations

from typing import Any

from spec_debug.session.events import Event
from spec_debug.session.formats.common import fetched_url

RESULT_BLOCKS = frozenset({
    "web_search_tool_result", "web_fetch_tool_result", "code_execution_tool_result",
    "bash_code_execution_tool_result", "text_editor_code_execution_tool_result", "tool_search_tool_result",
})
_WHAT_WAS_RUN = ("query", "url", "command", "code", "path", "pattern")
"""The input key that says what each server tool ran: ``web_search{query}``, ``web_fetch{url}``,
``bash_code_execution{command}``, ``code_execution{code}``, ``text_editor_code_execution{path}``,
``tool_search_tool_regex{pattern}``."""


def call(block: dict, ev: Event) -> Event:
    """``ev`` (a ``tool_call`` event of the block's message) filled from a ``server_tool_use``."""
    name = block.get("name")
    ev.tool_name = name if isinstance(name, str) and name else "server_tool"
    call_id = block.get("id")
    ev.call_id = call_id if isinstance(call_id, str) else None
    args = block.get("input") if isinstance(block.get("input"), dict) else {}
    ev.text = next((args[key] for key in _WHAT_WAS_RUN if isinstance(args.get(key), str)), "")
    ev.description = "run by the API (server tool)"
    ev.path = fetched_url(ev.tool_name, args)  # web_fetch{url}: a source file read is reading source
    return ev


def result(block: dict, ev: Event) -> Event:
    """``ev`` (a ``tool_result`` event) filled from a server tool's result block."""
    call_id = block.get("tool_use_id")
    ev.call_id = call_id if isinstance(call_id, str) else None
    content = block.get("content")
    if isinstance(content, dict) and isinstance(content.get("error_code"), str):
        # web_search_tool_result_error, web_fetch_tool_result_error, code_execution_tool_result_error
        ev.is_error, ev.text = True, f"{content.get('type', 'error')}: {content['error_code']}"
    elif isinstance(content, list):
        ev.text = "\n".join(_search_hit(hit) for hit in content if isinstance(hit, dict))
    elif isinstance(content, dict):
        ev.text, ev.exit_code = _ran(content)
        ev.is_error = ev.exit_code not in (None, 0)
    return ev


def _search_hit(hit: dict) -> str:
    title, url = hit.get("title"), hit.get("url")
    return " ".join(s for s in (title, url) if isinstance(s, str))


def _ran(content: dict) -> tuple[str, int | None]:
    """``(text, exit code)`` of a fetched page or of code run in the API's sandbox."""
    code = content.get("return_code")
    if "stdout" in content or "stderr" in content:
        out = "\n".join(s for s in (content.get("stdout"), content.get("stderr")) if isinstance(s, str) and s)
        return out, code if isinstance(code, int) else None
    # A fetched page is the web's text, not the session's output: its title and address are kept,
    # not its body, where a traceback quoted by a documentation page would read as one the
    # session hit.
    url = content.get("url") if isinstance(content.get("url"), str) else ""
    document: Any = content.get("content")
    title = document.get("title") if isinstance(document, dict) and isinstance(document.get("title"), str) else ""
    return " ".join(s for s in (title, url) if s), None
