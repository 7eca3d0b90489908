"""The messages aider writes itself around the chat in each request it sends (Aider-AI/aider
``aider/coders/base_coder.py`` ``format_chat_chunks``): its edit format's example exchange, the
read-only files, its repository map, then the history, then the files added to the chat (or that
there are none), then the person's new message. Each is a user message and aider's own "Ok..."
answer to it (``get_repo_messages``, ``get_readonly_files_messages``, ``get_chat_files_messages``).

Read from a proxy's log of the requests, they were prompts of the person, and, as the map changes
with the code and the chat files come after the history, no request read as the one before it
continued: the history was read again with each call."""

from __future__ import annotations

CONTEXT = ("Here are summaries of some files present in my git repository.\n",
           "Here are some READ ONLY files, provided for your reference.\n",
           "I have *added these files to the chat* so you can go ahead and edit them.\n",
           "I am not sharing any files that you can edit yet.",
           "Don't try and edit any existing code without asking me to add the files to the chat!\n")
"""How aider's context messages begin (``aider/coders/base_prompts.py``: ``repo_content_prefix``,
``read_only_files_prefix``, ``files_content_prefix``, ``files_no_full_files``,
``files_no_full_files_with_repo_map``)."""
EXAMPLES_END = "I switched to a new code base. Please don't consider the above files"
"""The user message aider closes its edit format's example exchange with (``format_chat_chunks``)."""
SUMMARY = "I spoke to you previously about a number of things.\n"
"""How aider's summary of a history grown too long begins (``aider/prompts.py`` ``summary_prefix``,
``aider/history.py`` ``summarize_all``): the requests after it send it in place of that history."""
_REPLY = "Ok"
"""How each of aider's answers to its own messages begins ("Ok.", "Ok, I won't try and edit those
files without asking first.", "Ok, any changes I propose will be to those files.", ...)."""


def _user_text(message: object) -> str | None:
    """A user message's text, or its first block's (aider marks the last message of a part of the
    request for Anthropic's prompt cache, a list of one text block then): no copy is made."""
    if not (isinstance(message, dict) and message.get("role") == "user"):
        return None
    content = message.get("content")
    if isinstance(content, list) and content and isinstance(content[0], dict):
        content = content[0].get("text")
    return content if isinstance(content, str) else None


def is_context(text: str) -> bool:
    """``text`` is one of aider's own user messages (its context, or the close of its examples)."""
    return text.startswith(CONTEXT) or text.startswith(EXAMPLES_END)


def without_context(messages: list) -> list:
    """``messages`` without aider's example exchange and its context messages, each with aider's
    answer to it; ``messages`` itself when it holds none (checked on the user messages alone)."""
    if not any(text is not None and is_context(text) for text in map(_user_text, messages)):
        return messages
    dropped: set[int] = set()
    for i, text in enumerate(map(_user_text, messages)):
        if text is None or not is_context(text):
            continue
        if text.startswith(EXAMPLES_END):
            # the examples: the exchange between the system prompt and this message
            dropped.update(j for j in range(i) if not (isinstance(messages[j], dict)
                                                       and messages[j].get("role") in ("system", "developer")))
        dropped.add(i)
        answer = messages[i + 1] if i + 1 < len(messages) else None
        if isinstance(answer, dict) and answer.get("role") == "assistant" and isinstance(answer.get("content"), str) \
                and answer["content"].startswith(_REPLY):
            dropped.add(i + 1)
    return [m for i, m in enumerate(messages) if i not in dropped]
