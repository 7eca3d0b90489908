"""Characters a command picks up when it is pasted from a document, a chat or a web page.

Word processors, Slack, Notion and Confluence turn `--` into an en or em dash (`—model-path`),
and some turn `-` into a non-breaking hyphen; web pages indent with no-break spaces, and copied
text can carry zero-width spaces. The shell reads each as a letter (POSIX 2.3 splits words on
blank, space and tab only), so `python -m sglang.launch_server —speculative-algorithm EAGLE3`
fails on the host ("unrecognized arguments") after the steps before it ran, and `nvidia‑smi`
(U+2011) is "command not found" while looking right in the playbook.
Curly quotes are the same habit; habits.py finds them (OPENING_CURLY_QUOTE).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

import yaml

from spec_debug.playbook.habits import OPENING_CURLY_QUOTE, in_shell_comment, outside_shell_quotes

# A dash that opens an option: after a blank or at a line start, before a letter. In a sentence
# (`echo GPU — busy`) a dash stands between spaces and is left alone.
_OPTION_DASH = re.compile(r"(?:(?<=[\s=])|^)([\u2012\u2013\u2014\u2015\u2212]+)(?=[A-Za-z])", re.MULTILINE)
# A hyphen that is not '-': never meant in a command name or an option.
_HYPHEN = re.compile(r"[\u2010\u2011]")
# Spaces the shell does not split words on, and characters that print nothing.
_INVISIBLE = re.compile(r"[\u00a0\u2000-\u200b\u202f\u205f\u3000\u200c\u200d\u2060\ufeff]")


def character_name(c: str) -> str:
    """`U+00A0 NO-BREAK SPACE`: how a message names a look-alike character."""
    return f"U+{ord(c):04X} {unicodedata.name(c, 'character')}"


@dataclass(frozen=True)
class PastedCharacter:
    index: int
    """Where it is in the command."""
    message: str
    hint: str
    end: int
    """Where the look-alike ends (a run of dashes is one)."""
    meant: str
    """The ASCII the author meant: `--`, `-`, a space, or nothing for a zero-width character."""


# A heredoc operator and its delimiter word (POSIX 2.7.4): `<<EOF`, `<<-EOF`, `<<'EOF'`, `<<\\EOF`.
_HEREDOC = re.compile(r"<<(-?)[ \t]*\\?(['\"]?)([\w.-]+)\2")


def checked_part(command: str) -> str:
    """The command with each heredoc's body blanked (same length, so indexes stay): the body is
    text for the command it feeds (a prompt, a config), not shell words, but the commands after
    its delimiter line are. A body with no delimiter line runs to the end."""
    if "<<" not in command:
        return command  # no heredoc: skip reading it character by character
    blanked = command
    for start, end in _heredoc_bodies(command):
        blanked = blanked[:start] + re.sub(r"[^\n]", " ", blanked[start:end]) + blanked[end:]
    return blanked


def _heredoc_bodies(command: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each heredoc body, read as the shell does: a `<<` in quotes, in a comment
    or in arithmetic is text or a shift, and takes no body (blanking one would leave the rest of
    the command unchecked). A body starts at the line after its operator; several on one line
    (`cat <<A <<B`) follow one another. Contexts nest on a stack: quotes; `$(...)`, whose words
    are shell words again even inside double quotes (POSIX 2.6.3); arithmetic, `$((1<<2))` or
    `(( n <<= 1 ))`, where `<<` is a shift (bash(1), ARITHMETIC EVALUATION)."""
    stack: list[str | None] = [None]
    pending: list[re.Match[str]] = []
    i, n = 0, len(command)
    while i < n:
        top, char = stack[-1], command[i]
        if char == "\n" and pending and top not in ("'", '"', "$'"):
            at = i + 1
            for heredoc in pending:
                indent = r"^\t*" if heredoc.group(1) else "^"  # <<- strips leading tabs, the delimiter line's too
                closing = re.compile(indent + re.escape(heredoc.group(3)) + r"[ \t]*$", re.MULTILINE).search(command, at)
                yield at, (closing.start() if closing else n)
                at = closing.end() if closing else n
            pending, i = [], at
            continue
        if top == "'":
            i += 1
            if char == "'":
                stack.pop()
            continue
        if top == "$'":  # ANSI-C quoting: `\'` is a quote in the text, not its end (bash(1), QUOTING)
            i += 2 if char == "\\" else 1
            if char == "'":
                stack.pop()
            continue
        if char == "\\":
            i += 2
            continue
        if top == '"' and char == '"':
            stack.pop()
            i += 1
            continue
        if command.startswith("$((", i):
            stack.append("((")
            i += 3
            continue
        if command.startswith("$(", i):
            stack.append("$(")
            i += 2
            continue
        i += _shell_or_arithmetic(command, i, stack, pending)


def _shell_or_arithmetic(command: str, i: int, stack: list[str | None], pending: list[re.Match[str]]) -> int:
    """Read command[i] in shell words or arithmetic (stack[-1]); how many characters it took."""
    top, char = stack[-1], command[i]
    if top in ("((", "arithmetic ("):
        if top == "((" and command.startswith("))", i):
            stack.pop()
            return 2
        if char == "(":
            stack.append("arithmetic (")  # closed by one ')'
        elif char == ")" and top == "arithmetic (":
            stack.pop()
        return 1
    if top == '"':
        return 1
    if command.startswith("$'", i):
        stack.append("$'")
        return 2
    if char in "'\"":
        stack.append(char)
        return 1
    if char == "#" and (i == 0 or command[i - 1] in " \t\n;&|()"):
        newline = command.find("\n", i)
        return (newline if newline >= 0 else len(command)) - i
    if command.startswith("((", i):
        stack.append("((")
        return 2
    if char == "(":
        stack.append("(")
    elif char == ")" and len(stack) > 1:
        stack.pop()
    elif command.startswith("<<<", i):  # a here-string: one word, no body
        return 3
    elif (heredoc := _HEREDOC.match(command, i)) is not None:
        pending.append(heredoc)
        return heredoc.end() - i
    return 1


def typographic_quote(command: str) -> re.Match[str] | None:
    """The first opening curly quote that opens a word outside quotes and comments."""
    checked = checked_part(command)
    return next((m for m in OPENING_CURLY_QUOTE.finditer(checked)
                 if outside_shell_quotes(checked, m.start()) and not in_shell_comment(checked, m.start())), None)


def pasted_character(command: str) -> PastedCharacter | None:
    """The first pasted look-alike the shell would read as part of a word, outside quotes and
    comments (quoted text and comments are the author's words) and heredoc bodies."""
    checked = checked_part(command)
    found = [(m.start(1) if m.re is _OPTION_DASH else m.start(), m) for pattern in (_OPTION_DASH, _HYPHEN, _INVISIBLE)
             for m in pattern.finditer(checked)]
    for index, match in sorted(found, key=lambda pair: pair[0]):
        if _in_shell_words(checked, index) and not _typography(checked, index, match):
            return _described(checked, index, match)
    return None


def _in_shell_words(command: str, index: int) -> bool:
    """Whether command[index] is outside quotes and comments, reading from the command's start:
    a double-quoted string may span lines (`git log --format="%s\n— x"`), which a scan of one
    line would take for shell words. A comment ends at its line's end (POSIX 2.3, rule 9)."""
    quote: str | None = None
    comment = False
    i = 0
    while i < index:
        char = command[i]
        if comment:
            comment = char != "\n"
        elif char == "\\" and quote != "'":
            i += 2
            continue
        elif quote is None and command.startswith("$'", i):
            quote = "$'"  # ANSI-C quoting, where `\'` does not end it (bash(1), QUOTING)
            i += 2
            continue
        elif quote is None and char in "'\"":
            quote = char
        elif quote == "$'" and char == "'":
            quote = None
        elif char == quote:
            quote = None
        elif quote is None and char == "#" and (i == 0 or command[i - 1] in " \t\n;&|()"):
            comment = True
        i += 1
    return quote is None and not comment


# French typography puts a no-break space before ; : ! ? » and after « (`echo Terminé !`).
_FRENCH_SPACED = re.compile(r"[\u00a0\u202f](?=[;:!?\u00bb])|(?<=\u00ab)[\u00a0\u202f]")


def _typography(command: str, index: int, match: re.Match[str]) -> bool:
    """An invisible character that belongs to the text, not pasted into a command: a zero-width
    joiner or non-joiner between two non-ASCII characters (an emoji ZWJ sequence, Unicode TR #51;
    a Persian or Indic word, The Unicode Standard 23.2), or a French no-break space."""
    if match.re is not _INVISIBLE:
        return False
    if command[index] in "\u200c\u200d":
        return 0 < index < len(command) - 1 and not command[index - 1].isascii() and not command[index + 1].isascii()
    return _FRENCH_SPACED.match(command, index) is not None


def _described(command: str, index: int, match: re.Match[str]) -> PastedCharacter:
    character = command[index]
    name = character_name(character)
    if match.re is _OPTION_DASH:
        dashes = match.group(1)
        word = re.match(r"[A-Za-z][\w.-]*", command[match.end(1):])
        # One dash before a word of one letter is a short option (-m); else an editor made -- into a dash.
        written = ("-" if len(dashes) == 1 and word is not None and len(word.group(0)) == 1 else "--") + (word.group(0) if word else "")
        return PastedCharacter(index, f"has a typographic dash {dashes} ({name}, pasted from a document?): "
                               "the shell passes it as a letter, not as an option's dashes",
                               f"write {written}", match.end(1), written[: len(written) - len(word.group(0) if word else "")])
    if match.re is _HYPHEN:
        return PastedCharacter(index, f"has a non-ASCII hyphen ({name}, pasted from a document?): "
                               "the shell reads it as a letter", "replace it with -", index + 1, "-")
    # A space-like one stood where a space was meant; a zero-width one where nothing was.
    meant = " " if unicodedata.category(character) == "Zs" else ""
    return PastedCharacter(index, f"has an invisible {name} (pasted from a web page or a document?): "
                           "the shell does not split words on it", "replace it with a plain space, or delete it",
                           index + 1, meant)


def invisible_in_key(key: str) -> tuple[str, str] | None:
    """(message, hint) for a mapping key that holds a no-break or zero-width space. YAML reads
    one in an indent as text (YAML 1.2.2, 6.1: only spaces indent), so a pasted `\u00a0\u00a0run:`
    parses as a key of its own, said only as "unknown key '    run'" under a parent that
    looked right."""
    found = _INVISIBLE.search(key)
    if found is None:
        return None
    character = found.group(0)
    name = character_name(character)
    if found.start() == 0 and character.isspace() and key.strip():  # a zero-width one indents nothing: deleted below
        return (f"key {key.strip()!r} is indented with a {name} (pasted from a web page or a document?): YAML reads "
                "it as part of the key, not as indentation", "indent with plain spaces")
    return (f"key {key!r} holds an invisible {name} (pasted from a web page or a document?)",
            f"delete it: write {_INVISIBLE.sub('', key)!r}")


# Letters of other scripts drawn as a Latin one (Unicode's confusables.txt, the ones a keyboard
# layout or a pasted document brings): Cyrillic, Greek and Armenian. A letter not here (и, т,
# 名) is no look-alike: a key written in another language is an unknown key, not a misspelt one.
LATIN_LOOKALIKE = str.maketrans(
    "\u0430\u0441\u0501\u0435\u04bb\u0456\u0458\u04cf\u043e\u0440\u051b\u0455\u0445\u0443\u051d"
    "\u0410\u0412\u0421\u0415\u041d\u0406\u0408\u041a\u041c\u041e\u0420\u0405\u0422\u0425\u0423"
    "\u03bf\u03bd\u03b9\u03ba\u03c1\u0391\u0392\u0395\u0396\u0397\u0399\u039a\u039c\u039d\u039f\u03a1\u03a4\u03a5\u03a7"
    "\u057d\u0585\u0570\u0578\u0566\u0581",
    "acdehijlopqsxyw"
    "ABCEHIJKMOPSTXY"
    "ovikpABEZHIKMNOPTYX"
    "uohnqg",
)


# The curly quotes' plain counterparts, what the shell quotes with.
_PLAIN_QUOTE = {"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'"}


def ascii_meant(command: str) -> tuple[str, list[str]]:
    """The command with each look-alike the loader refuses (a pasted dash, hyphen or space; a curly
    quote pair opening a word) replaced by the ASCII its author meant, and what was replaced: a
    session's command written as a step (distill) must load, and must do what was meant."""
    replaced: list[str] = []
    while (quote := typographic_quote(command)) is not None:
        start = quote.start()
        close = re.search(r"[\u201d\u2019]", command[start + 1:])
        end = start + 1 + close.start()  # OPENING_CURLY_QUOTE only matches with a closing one on the line
        replaced.append(f"{command[start]}...{command[end]} as {_PLAIN_QUOTE[command[start]]}...{_PLAIN_QUOTE[command[end]]}")
        command = (command[:start] + _PLAIN_QUOTE[command[start]] + command[start + 1:end] + _PLAIN_QUOTE[command[end]]
                   + command[end + 1:])
    while (found := pasted_character(command)) is not None:
        character = command[found.index]
        replaced.append(f"{character_name(character)} as " + (repr(found.meant) if found.meant else "nothing"))
        command = command[:found.index] + found.meant + command[found.end:]
    return command, replaced


# Where YAML needs a plain character and a pasted file has a look-alike (YAML 1.2.2: 6.1 indents
# with spaces only, 8.2.1 a block sequence entry is `-` then a space, 7.4 a key ends at `: `),
# and the plain character it stands for.
_STRUCTURE = (
    (re.compile(r"^ *([\u00a0\u2000-\u200b\u202f\u205f\u3000\ufeff])"), "in the indentation", "indent with plain spaces", " "),
    (re.compile(r"^ *([\u2010-\u2015\u2212\u2022])[ \u00a0]"), "where a list item's '-' goes", "write - (a plain hyphen)", "-"),
    (re.compile(r"^ *(?:- )?[A-Za-z_][\w.-]*(\uff1a)"), "where a key's ':' goes", "write : (a plain colon)", ":"),
    (re.compile(r"^ *(?:- )?[A-Za-z_][\w.-]*:([\u00a0\u3000])"), "after a key's ':'", "write a plain space after the colon", " "),
)


_MOST_TRIES = 20


def pasted_in_structure(lines: list[str], last_line: int) -> tuple[int, int, str, str] | None:
    """(line, column, message, hint) of the first look-alike in the file's structure up to
    last_line, the line YAML stopped at: a no-break space in an indent shows up as an error on
    a later line ("mapping values are not allowed here"), which does not say why. A look-alike
    is named only where writing its plain character changes the error, and never in a block
    text: a `• item` or `– item` line of a `why: |` text is the text's own, and the error is
    elsewhere (a tab later on)."""
    error = _yaml_error("\n".join(lines))
    tries = 0
    for number, text in enumerate(lines[:last_line], start=1):
        for pattern, where, hint, plain in _STRUCTURE:
            found = pattern.match(text)
            if found is None:
                continue
            tries += 1
            if tries > _MOST_TRIES:  # each try parses the file again: a long pasted text has many
                return None
            character = found.group(1)
            fixed = lines[: number - 1] + [_plain_line(text, found, plain)] + lines[number:]
            if _in_block_text(lines, number) or _yaml_error("\n".join(fixed)) == error:
                continue
            name = character_name(character)
            return number, found.start(1) + 1, f"a {name} {where} (pasted from a web page or a document?)", hint
    return None


_INDENT = re.compile(r"[ \u00a0\u2000-\u200b\u202f\u205f\u3000\ufeff]*")


def _plain_line(text: str, found: re.Match[str], plain: str) -> str:
    """The line with the look-alike written plain; in an indent, every one of them
    (`\u00a0\u00a0  title:`: one made plain still leaves the indent wrong)."""
    if plain == " " and found.start(1) == len(text) - len(text.lstrip(" ")):
        indent = _INDENT.match(text).group(0)
        return " " * len(indent) + text[len(indent):]
    return text[: found.start(1)] + plain + text[found.end(1):]


# A key whose value is a block scalar: `why: |`, `run: >-`, `- |2` (YAML 1.2.2, 8.1.1).
_BLOCK_HEADER = re.compile(r"^ *(?:- +)*(?:[^#\s][^#]*?:\s+)?[|>][-+0-9]*\s*(?:#.*)?$")


def _in_block_text(lines: list[str], number: int) -> bool:
    """Whether line `number` is text of a block scalar (`why: |` and the lines under it, more
    indented): a no-break space, a bullet or a dash there is the text's own."""
    indent = len(lines[number - 1]) - len(lines[number - 1].lstrip(" "))
    for text in reversed(lines[: number - 1]):
        if not text.strip():
            continue
        if len(text) - len(text.lstrip(" ")) < indent:
            return _BLOCK_HEADER.match(text) is not None
    return False


def _yaml_error(text: str) -> tuple[int, str | None] | None:
    """Where and what YAML's syntax error in text is (None: it parses)."""
    try:
        yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        return (exc.problem_mark.line if exc.problem_mark else -1), exc.problem
    except (yaml.YAMLError, RecursionError):
        return -1, None
    return None
