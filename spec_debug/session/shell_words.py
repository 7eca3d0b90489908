"""The simple commands of a command line and the files it redirects output to, for the readers
that decide what a command does to a host (:mod:`host_changes`, :mod:`follow`).

Unlike :func:`spec_debug.session.shell.split_words` (the analyzer's fast split, which finds
where a command runs), each word says whether it is an operator, so a quoted ``'>'`` is a word
(``grep '>' x``) and an unquoted one a redirection (spec_debug/shell_split.py, the splitter the
runner's secret_commands.py reads a step's command with too); heredoc bodies are left out first.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from spec_debug.shell_split import heredocs, redirection
from spec_debug.shell_split import shell_words as _shell_words

def _without_heredoc_bodies(text: str) -> str:
    """The command lines without what heredocs feed them: a Python body's `if n > 3:` is no
    redirection and its `watch = 1` no program (a script sent to ssh in one is the command that
    runs there: shell.ssh_heredoc). Several heredocs on one line (`cat <<A <<B`) read their
    bodies one after the other, as bash does."""
    if "<<" not in text:
        return text
    out, pos = [], 0
    for _op, start, _body_end, end in heredocs(text):
        out.append(text[pos:start])  # "" for a second heredoc of the same line
        pos = end
    out.append(text[pos:])
    return "".join(out)


_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh"})


def shell_scripts(command: str) -> list[str]:
    """The heredoc bodies of ``command`` a shell runs as its script: ``bash <<'EOF'``, ``sudo
    bash -s <<'EOF'`` (wrappers are passed as simple_commands passes them), ``cat <<'EOF' |
    sudo sh``. Their commands run as the command's own do."""
    scripts = []
    readers: dict[int, bool] = {}  # a simple command's start -> whether a shell reads its heredocs
    line_start = scanned = begin = -1
    for op, start, body_end, _after in heredocs(command) if "<<" in command else ():
        at_line = command.rfind("\n", 0, op.start()) + 1
        if at_line != line_start:
            line_start = scanned = begin = at_line
        # the simple command the operator belongs to starts after the last separator before it
        # (several operators of one command share it: `cat <<A <<B`); each stretch of the line is
        # scanned once, so a line of 20,000 operators stays linear
        for separator in _SEPARATOR.finditer(command, scanned, op.start()):
            begin = separator.end()
        scanned = op.start()
        if begin not in readers:
            readers[begin] = _shell_reads(command, begin, op)
        if readers[begin]:
            scripts.append(command[start:body_end])
    return scripts


# A separator of simple commands, not the same character in a redirection or a substitution:
# `2>&1`, `&>log`, `>|log`, `$(pwd)` (`sudo bash 2>&1 <<EOF` is a shell reading its script).
_SEPARATOR = re.compile(r"[;|](?<!>\|)|(?<![<>])&(?!>)|(?<!\$)\(")


def _shell_reads(command: str, begin: int, op: re.Match) -> bool:
    """Whether the simple command from ``begin`` to the heredoc operator ``op`` is a shell that
    reads its script from stdin, or a cat whose output is piped to one."""
    # the last command before the operator: `env A=$(pwd) bash <<EOF` also holds `pwd`
    reader = next((a for a in reversed(list(simple_commands(command[begin:op.start()]))) if isinstance(a, list)),
                  None)
    if reader is None:
        return False
    if reader[0].rsplit("/", 1)[-1] == "cat" and (piped := _piped_to(command, op.end())):
        reader = piped  # `cat <<EOF | sudo sh`: the shell down the pipe reads it
    return reader[0].rsplit("/", 1)[-1] in _SHELLS and "-c" not in reader[1:]


def _piped_to(command: str, at: int) -> list[str] | None:
    """The command the rest of the heredoc's line after ``at`` pipes its output to (`| sudo
    sh` gives ["sh"]), or None."""
    nl = command.find("\n", at)
    rest = command[at:nl if nl >= 0 else len(command)]
    bar = rest.find("|")
    if bar < 0 or rest[bar + 1:bar + 2] == "|":
        return None
    return next((a for a in simple_commands(rest[bar + 1:]) if isinstance(a, list)), None)


def ssh_reads_local_file(command: str) -> bool:
    """Whether an ``ssh`` of ``command`` has its standard input from a file where the command
    ran (``ssh gpu01 'bash -s' < check.sh``, ``ssh gpu01 python3 - < probe.py``): what the host
    ran reads that file, whose text the session does not show. ``< /dev/null`` reads nothing."""
    if "<" not in command or "ssh" not in command:
        return False
    words = _shell_words(_without_heredoc_bodies(command))
    in_ssh = False
    for k, (word, is_op) in enumerate(words):
        fd, word = redirection(word) if is_op else ("", word)  # `2>&1`, `0<`: the descriptor is the operator's
        if is_op and word == "<" and fd in ("", "0") and in_ssh and k + 1 < len(words) and not words[k + 1][1]:
            if not words[k + 1][0].startswith("/dev/"):
                return True
        elif is_op and word not in ("<", ">", ">>", ">&", "<&", "&>", "&>>", "<>"):
            in_ssh = False  # ; | && || & ( ): the next command
        elif not is_op and not in_ssh and word.rsplit("/", 1)[-1] == "ssh":
            in_ssh = True
    return False


# Wrappers before the program that runs: sudo -u bob, env A=1, nohup, timeout 60, nice -n 5
_WRAPPERS = {"sudo": {"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"}, "env": {"-u", "-C", "-S"},
             "nohup": set(), "time": set(), "nice": {"-n"}, "ionice": {"-c", "-n", "-p"}, "stdbuf": set(),
             "exec": set(), "command": set(), "timeout": {"-k", "-s", "--kill-after", "--signal"}, "xargs": {"-I", "-n"}}
SEPARATORS = frozenset({";", "&", "&&", "|", "||", "|&", ";;", "\n", "(", ")"})


def _simple_command(words: list[tuple[str, bool]], i: int) -> list[str]:
    """The argv of the simple command starting at ``words[i]``, past assignments and wrappers."""
    argv = []
    # by index: a slice per command copied the rest of the words (a 40,000-line script a shell
    # reads from a heredoc, which changes_host reads, took 10 s)
    target = False
    for j in range(i, len(words)):
        word, is_op = words[j]
        if is_op and word in SEPARATORS:
            break
        if not is_op and not target:
            argv.append(word)
        # a redirection's file is no argument: `python3 <<'PY' 2>&1` runs python3 on its stdin
        # (its argv was ['python3', 'PY', '1'], a script named "1" to the readers)
        target = is_op
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
    return [pipeline for pipeline, _ in pipelines_backgrounded(command)]


def pipelines_backgrounded(command: str) -> list[tuple[list[list[str]], bool]]:
    """:func:`pipelines`, each with whether ``&`` ends it: the shell starts it and goes on to the
    next at once, without waiting for it (bash(1), Lists: "executed asynchronously in a subshell")."""
    out: list[tuple[list[list[str]], bool]] = []
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
                out.append((pipeline, word == "&"))
                pipeline = []
        redirected = word not in SEPARATORS and (">" in word or redirection(word)[1] in ("<", "<<", "<<<"))
    if argv:
        pipeline.append(argv)
    if pipeline:
        out.append((pipeline, False))
    return out


_SETUP_ONLY = frozenset({"set", "setopt", "unsetopt", "shopt", "cd", "pushd", "export", "source", ".", "ulimit",
                         "umask"})
"""Builtins that set the shell up for what follows them on the line and print nothing."""


def status_pipeline(command: str) -> list[list[str]] | None:
    """The pipeline whose status is ``command``'s, where it is the one that matters: the only one,
    or the last after shell setup typed before it on the line (``set -o pipefail; python3 load.py
    2>&1 | tail -n 5``, ``cd /w && ./run.sh | tee log``: bash(1), Lists, the status of a list is
    its last command's). None where another program ran before it."""
    lines = pipelines(command)
    if not lines:
        return None
    for line in lines[:-1]:
        if len(line) != 1 or line[0][0] not in _SETUP_ONLY:
            return None
    return lines[-1]


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


def and_list(command: str) -> list[list[str]] | None:
    """The argv of each simple command of ``command`` (past assignments and wrappers) where all
    are joined by ``&&``, so each ran only if the one before it succeeded and the list's status
    is the first failure's (bash(1), Lists); None for one command, or where ``;``, ``||``, a pipe,
    a newline or ``&`` joins any."""
    if "&&" not in command:
        return None
    words = _shell_words(_without_heredoc_bodies(command))
    out: list[list[str]] = []
    start = True
    for i, (word, is_op) in enumerate(words):
        if is_op:
            if word == "&&":
                start = True
            elif word in SEPARATORS:
                return None
            continue
        if start:
            start = False
            out.append(_simple_command(words, i))
    return out if len(out) > 1 else None


C_SHELLS = frozenset({"bash", "sh", "dash", "zsh", "ksh"})
"""Shells whose ``-c SCRIPT`` exits with the script's last command's status (bash(1), ``-c``):
the programs :func:`shell_c_script`'s callers look through."""


def shell_c_script(command: str) -> str | None:
    """The script of the shell the last simple command of ``command`` runs with ``-c`` (``bash
    -lc SCRIPT``, ``sh -c SCRIPT``), else None: that shell's status is its script's last
    command's (bash(1), ``-c``)."""
    argvs = [argv for argv in simple_commands(command) if isinstance(argv, list) and argv]
    argv = argvs[-1] if argvs else []
    i = 1
    while i < len(argv) and argv[i].startswith("-") and len(argv[i]) > 1:
        if not argv[i].startswith("--") and "c" in argv[i][1:]:
            return argv[i + 1] if i + 1 < len(argv) else None
        i += 1
    return None


def pipefail_after(command: str, on: bool) -> bool:
    """Whether ``pipefail`` is on after ``command`` ran in a shell where it was ``on``: ``set -o
    pipefail`` (or ``set -euo pipefail``) turns it on, ``set +o pipefail`` off (bash(1), ``set
    -o``): a pipeline's status is then its last failing command's, not its last command's. zsh's
    own ``setopt pipefail`` / ``unsetopt pipefail`` do the same (zshoptions(1), PIPE_FAIL), its
    option names read without case or underscores, a ``no`` before one turning it the other way
    (``setopt PIPE_FAIL``, ``setopt no_pipe_fail``)."""
    for argv in simple_commands(command):
        if isinstance(argv, str) or not argv:
            continue
        if argv[0] in _ZSH_OPTION_SETTERS:
            for word in argv[1:]:
                name = word.lower().replace("_", "")
                if name in ("pipefail", "nopipefail"):
                    on = (argv[0] == "setopt") is (name == "pipefail")
            continue
        if argv[0] != "set":
            continue
        for flag, value in zip(argv[1:], argv[2:]):
            if value == "pipefail" and flag[:1] in "-+" and flag.endswith("o"):
                on = flag[0] == "-"
    return on


_ZSH_OPTION_SETTERS = frozenset({"setopt", "unsetopt"})
