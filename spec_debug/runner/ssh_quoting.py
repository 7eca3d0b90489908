"""ssh_config values split into words as ssh(1) splits them: quotes, backslashes and trailing
comments (openssh-portable: misc.c, argv_split)."""

from __future__ import annotations

import re


# Keywords whose value ssh(1) keeps as the raw rest of the line, comment and all (openssh-portable:
# readconf.c, parse_command): the shell that runs the command reads a `#` as its own comment.
_RAW_LINE_KEYWORDS = frozenset({"proxycommand", "knownhostscommand", "localcommand", "remotecommand"})


def argv_split(text: str, *, terminate_on_comment: bool = False) -> list[str]:
    """The words of a config value as ssh(1) reads them (openssh-portable: misc.c, argv_split):
    split at blanks outside quotes, `"` and `'` quote (and are dropped), and a backslash keeps
    the quote, backslash or (outside quotes) blank after it. ValueError on an unclosed quote
    (ssh(1): "invalid quotes"). `terminate_on_comment`: a word that starts with `#` ends the
    words, as where readconf.c splits a whole line."""
    words: list[str] = []
    index, length = 0, len(text)
    while index < length:
        if text[index] in " \t":
            index += 1
            continue
        if terminate_on_comment and text[index] == "#":
            break
        word: list[str] = []
        quote = ""
        while index < length:
            char = text[index]
            following = text[index + 1] if index + 1 < length else ""
            if char == "\\" and (following in ("'", '"', "\\") or (not quote and following == " ")):
                word.append(following)
                index += 2
                continue
            if not quote and char in " \t":
                break
            if not quote and char in "\"'":
                quote = char
            elif quote and char == quote:
                quote = ""
            else:
                word.append(char)
            index += 1
        if quote:
            raise ValueError(f"unclosed {quote} in {text!r}")
        words.append("".join(word))
    return words


def _argv_quoted(words: list[str]) -> str:
    """Words that argv_split gives back as they are: each in single quotes, its `\\` and `'`
    escaped. Never wholly in double quotes, which paramiko strips from a value before we see it."""
    return " ".join("'" + word.replace("\\", "\\\\").replace("'", "\\'") + "'" for word in words)


def without_trailing_comment(line: str) -> str:
    """`Port 2222  # sshd on 2222` -> `Port 2222`, as ssh(1) reads a config line since OpenSSH
    8.7: a `#` that starts an unquoted word ends the line (openssh-portable: misc.c,
    argv_split with terminate_on_comment, called by readconf.c, process_config_line_depth).

    paramiko keeps the comment in the value: `Port 2222 # ...` stopped the run as "not a
    number", `HostName 10.0.0.1 # rack 3` sent us to a name that does not resolve and
    `User ml # service account` logged in as a user that does not exist. A `#` inside a word
    (`HostName h#1`) or in quotes is kept, as are the commands of _RAW_LINE_KEYWORDS.
    """
    stripped = line.lstrip()
    if "#" not in line or not stripped or stripped.startswith("#"):
        return line
    keyword = re.split(r"[\s=]", stripped, maxsplit=1)[0].lower()
    if keyword in _RAW_LINE_KEYWORDS:
        return line
    quote = ""
    previous = ""
    for index, char in enumerate(line):
        if quote:
            if char == quote:
                quote = ""
        elif char in "\"'" and previous != "\\":
            quote = char
        elif char == "#" and previous in (" ", "\t"):
            return line[:index].rstrip()
        previous = char
    return line
