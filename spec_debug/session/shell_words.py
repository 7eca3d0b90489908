"""The simple commands of a command line and the files it redirects output to, for the readers
that decide what a command does to a host (:mod:`host_changes`, :mod:`follow`).

Unlike :func:`spec_debug.session.shell.split_words` (the analyzer's fast split, which finds
where a command runs), each word says whether it is an operator, so a quoted ``'>'`` is a word
(``grep '>' x``) and an unquoted one a redirection; heredoc bodies are left out first.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_HEREDOC_BODY = re.compile(r"<<-?[ \t]*(['\"]?)([A-Za-z0-9_.-]+)\1([^\n]*\n)(.*?)^[ \t]*\2[ \t]*$", re.DOTALL | re.MULTILINE)


def _without_heredoc_bodies(text: str) -> str:
    """The command lines without what heredocs feed them: a Python body's `if n > 3:` is no
    redirection and its `watch = 1` no program (a script sent to ssh in one is the command that
    runs there: shell.ssh_heredoc)."""
    return _HEREDOC_BODY.sub(lambda m: f"<<{m.group(1)}{m.group(2)}{m.group(1)}{m.group(3)}", text) if "<<" in text else text


def _shell_words(text: str) -> list[tuple[str, bool]]:
    """``text`` as shell words and operators (is_op), quotes removed from words: a quoted
    ``'>'`` is a word (grep '>' x), an unquoted one a redirection."""
    out: list[tuple[str, bool]] = []
    word: list[str] = []
    has_word = False
    quote = None
    escaped = after_space = False
    for ch in text:
        if escaped:
            word.append(ch)
            escaped = False
        elif quote:
            if ch == quote:
                quote = None
            elif ch == "\\" and quote == '"':
                escaped = True
            else:
                word.append(ch)
        elif ch == "\\":
            escaped, has_word = True, True
        elif ch in "'\"":
            quote, has_word = ch, True
        elif ch in " \t\r" or ch in ";&|<>()\n":
            if has_word or word:
                out.append(("".join(word), False))
                word, has_word = [], False
            if ch in ";&|<>()\n":
                if out and out[-1][1] and ch not in "()\n" and out[-1][0][-1:] in ";&|<>" and not after_space:
                    out[-1] = (out[-1][0] + ch, True)
                else:
                    out.append((ch, True))
            after_space = ch in " \t\r"  # `> >` is two operators, `>>` one
            continue
        else:
            word.append(ch)
        after_space = False
    if has_word or word:
        out.append(("".join(word), False))
    return out


# Wrappers before the program that runs: sudo -u bob, env A=1, nohup, timeout 60, nice -n 5
_WRAPPERS = {"sudo": {"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"}, "env": {"-u", "-C", "-S"},
             "nohup": set(), "time": set(), "nice": {"-n"}, "ionice": {"-c", "-n", "-p"}, "stdbuf": set(),
             "exec": set(), "command": set(), "timeout": {"-k", "-s", "--kill-after", "--signal"}, "xargs": {"-I", "-n"}}
SEPARATORS = frozenset({";", "&", "&&", "|", "||", "|&", ";;", "\n", "(", ")"})


def _simple_command(words: list[tuple[str, bool]], i: int) -> list[str]:
    """The argv of the simple command starting at ``words[i]``, past assignments and wrappers."""
    argv = []
    for word, is_op in words[i:]:
        if is_op and word in SEPARATORS:
            break
        if not is_op:
            argv.append(word)
    while argv:
        head = argv[0].rsplit("/", 1)[-1]
        if re.fullmatch(r"[A-Za-z_]\w*=.*", argv[0]):
            argv = argv[1:]
        elif head in _WRAPPERS:
            takes, argv = _WRAPPERS[head], argv[1:]
            while argv and (argv[0].startswith("-") or re.fullmatch(r"[A-Za-z_]\w*=.*", argv[0])):
                argv = argv[2:] if argv[0] in takes else argv[1:]
            if head == "timeout" and argv:
                argv = argv[1:]  # the duration
        else:
            break
    return argv


def pipelines(command: str) -> list[list[list[str]]]:
    """The pipelines of ``command`` in the order they run, each the words of its simple
    commands (wrappers and assignments kept: ``sudo timeout 60 nvidia-smi dmon`` is one simple
    command of five words). Redirection targets are left out."""
    out: list[list[list[str]]] = []
    pipeline: list[list[str]] = []
    argv: list[str] = []
    redirected = False
    for word, is_op in _shell_words(_without_heredoc_bodies(command)):
        if not is_op:
            if not redirected:
                argv.append(word)
            redirected = False
            continue
        if word in ("|", "|&") or word in SEPARATORS:
            if argv:
                pipeline.append(argv)
            argv = []
            if word not in ("|", "|&") and pipeline:
                out.append(pipeline)
                pipeline = []
        redirected = word not in SEPARATORS and ">" in word or word in ("<", "<<", "<<<")
    if argv:
        pipeline.append(argv)
    if pipeline:
        out.append(pipeline)
    return out


def simple_commands(command: str, *, writes: bool = False) -> Iterator[list[str] | str]:
    """The argv of each simple command of ``command`` in order, past assignments and wrappers;
    with ``writes``, the file of each output redirection too (``> x``, ``>> x``; not ``>&2``),
    as a plain string where it stands."""
    words = _shell_words(_without_heredoc_bodies(command))
    start = True
    for i, (word, is_op) in enumerate(words):
        if is_op:
            if word in SEPARATORS:
                start = True
            elif writes and ">" in word and not word.endswith("&") and i + 1 < len(words) and not words[i + 1][1]:
                yield words[i + 1][0]
            continue
        if not start:
            continue
        start = False
        argv = _simple_command(words, i)
        if argv:
            yield argv
