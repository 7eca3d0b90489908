"""Where a shell command runs: ssh/scp/rsync hosts, docker/kubectl containers, and what
kind of diagnostic it is.

ssh options are parsed as OpenSSH does (``ssh(1)``: the options that take an argument are
``-B -b -c -D -E -e -F -I -i -J -L -l -m -O -o -P -p -Q -R -S -W -w``); the first non-option
word is ``[user@]host`` or ``ssh://[user@]host[:port]`` and the rest is the remote command,
which is parsed again (a ``docker exec`` or a second ``ssh`` inside it).
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache

from spec_debug.session.shell_words import heredocs, status_pipeline
from spec_debug.shell_split import quote_state

SSH_VALUE_FLAGS = frozenset("BbcDEeFIiJLlmOoPpQRSWw")
"""The ssh(1) options that take a value (getopt string in openssh-portable ssh.c)."""
_SCP_ARG_OPTS = frozenset("cDFiJlOoPSX")
_DOCKER_ARG_OPTS = frozenset({"-e", "--env", "-u", "--user", "-w", "--workdir", "--env-file", "--detach-keys"})
_KUBECTL_ARG_OPTS = frozenset({"-n", "--namespace", "-c", "--container", "--context", "-f", "--filename",
                               "--kubeconfig", "--pod-running-timeout"})
_WRAPPERS = frozenset({"sshpass", "sudo", "nohup", "env", "time", "exec", "stdbuf", "nice", "ionice", "command"})
_SSHPASS_VALUE_OPTS = ("-p", "-f", "-d", "-P")
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_CONTROL = frozenset({"&&", "||", ";", "|", "&", "|&", ";;", "(", ")", "\n"})
_OPTION_SPLIT = re.compile(r"\s*=\s*|\s+")
_REMOTE_PATH = re.compile(r"^(?:([^@/:\s]+)@)?(\[[0-9a-fA-F:]+\]|[A-Za-z0-9_.-]+):(?!//)")


@dataclass(frozen=True, slots=True)
class Target:
    host: str | None = None
    """Remote host of the command (None: it ran where the session ran)."""
    user: str | None = None
    port: int | None = None
    jump: str | None = None
    container: str | None = None
    """``docker:<name>`` or ``pod:<name>`` when the command runs inside one."""
    inner: str = ""
    """The command that finally runs (the remote command of an ssh, the command of an exec)."""
    unnamed: bool = False
    """It went on to a host the command line names only by a variable it gave no one value (``for
    h in gpu1 gpu2; do ssh $h nvidia-smi; done``, ``ssh $GPU`` with GPU set elsewhere): ``host``
    is None, yet it did not run where the session ran."""


_WORD = re.compile(r"""\s*(?:(&&|\|\||;;|\|&|[;&|()<>\n])|((?:[^\s'"\\;&|()<>]+|'[^']*'|"(?:[^"\\]|\\.)*"|\\.)+))""", re.S)
_QUOTED = re.compile(r"""'([^']*)'|"((?:[^"\\]|\\.)*)"|\\(.)""", re.S)
_DQ_ESCAPE = re.compile(r'\\([\\"$`])')
# What makes a command line more than words split at whitespace: quoting, a backslash, a
# control operator or a redirection, a newline (a control operator too).
_SHELL_SYNTAX = re.compile(r"""[\n'"\\;&|()<>]""").search


def _unquote(word: str) -> str:
    if "'" not in word and '"' not in word and "\\" not in word:
        return word
    # One quoted string and nothing else ('tail -n 50 x.log', the remote command of most ssh
    # lines): _QUOTED's first match starts at 0 and ends at the next quote, the last character,
    # and a double-quoted string without a backslash has no escape to undo. Its inside, without
    # the substitution's callback (about half of a cold split of an ssh line).
    end = len(word) - 1
    if end > 0 and (word[0] == "'" or (word[0] == '"' and "\\" not in word)) and word.find(word[0], 1) == end:
        return word[1:end]
    def one(m: re.Match) -> str:
        if m.group(1) is not None:
            return m.group(1)
        if m.group(2) is not None:
            return _DQ_ESCAPE.sub(r"\1", m.group(2))
        return m.group(3)
    return _QUOTED.sub(one, word)


def split_words(command: str, word: re.Pattern = _WORD) -> list[str]:
    """Shell words with control operators as separate words (POSIX quoting, like
    ``shlex.shlex(punctuation_chars=True)`` but one regex pass); tolerant of bad quoting."""
    syntax = _SHELL_SYNTAX(command)
    if syntax is None:
        # Plain words (most remote commands: "ls -la /data/x"): _WORD then matches each run of
        # non-space characters, and \s is str.split's whitespace. 2.1 -> 0.4 us for 45 chars.
        return command.split()
    quote = syntax.start()
    if command[quote] == "'" and (quote == 0 or command[quote - 1].isspace()) \
            and command.find("'", quote + 1) == len(command) - 1:
        # Plain words then one single-quoted word that ends the line (most ssh lines: "ssh -p 22
        # root@gpu01 'ls -la /data/x'"): the first character of shell syntax is that quote, so the
        # words before it are plain (as above; no newline among them, which _WORD_LINES would
        # read as an operator), and the quoted word starts after a space (\s is str.isspace) and
        # ends the line, so no character glues onto it. _WORD takes its quotes in one '[^']*'
        # and _unquote keeps their inside as it is. ~37,000 -> ~6,000 instructions (callgrind)
        # for an ssh line of 70 characters.
        words = command[:quote].split()
        words.append(command[quote + 1:-1])
        return words
    # A scanner's match() matches where the last match ended and gives None where no word
    # starts: the loop of _WORD.match(command, pos) without its Python-level position
    # bookkeeping. Every match is a word (group 2) or an operator (group 1), never empty.
    words, pos = [], 0
    for m in iter(word.scanner(command).match, None):
        pos = m.end()
        if m.lastindex == 1:
            words.append(m[1])
        else:
            words.append(_unquote(m[2]))
    rest = command[pos:].strip()
    if rest:  # an unterminated quote: keep the rest as plain words
        words.extend(w.strip("'\"") for w in rest.split())
    return words


def segments(words: list[str]) -> list[list[str]]:
    out, cur = [], []
    for k, word in enumerate(words):
        if word == "&" and _redirects(words, k):
            continue  # 2>&1, >&2, &>/dev/null: no list's end
        if word in _CONTROL or (word and not word.strip("&|;()")):  # only those characters: an operator
            if cur:
                out.append(cur)
            cur = []
        else:
            cur.append(word)
    if cur:
        out.append(cur)
    return out


def _redirects(words: list[str], k: int) -> bool:
    """Whether the ``&`` at ``words[k]`` belongs to a redirection, which split_words cuts into
    ``>`` and ``&`` (bash(1), REDIRECTION: ``>&word`` duplicates a descriptor, ``2>&1``; ``&>word``
    and ``&>>word`` send both outputs to a file): no background operator ending a command there.
    Read as one, ``grep -n x server.log 2>&1`` ran a program ``1`` last, so grep's status 1
    ("nothing found") was a failure. (``cmd & >file`` with its spaces, a background job then an
    empty redirection, is read the same way: no one types it.)"""
    return (k > 0 and words[k - 1] in ("<", ">")) or (k + 1 < len(words) and words[k + 1] == ">")


# Reserved words that can open a command list (bash(1), SHELL GRAMMAR): the command after
# them is the one that runs, as in the wait loop ``while ! ssh gpu01 curl -sf
# localhost:30000/health; do sleep 5; done``.
_RESERVED = frozenset({"if", "then", "else", "elif", "do", "while", "until", "!", "{"})


def _unwrap(argv: list[str]) -> list[str]:
    """Drop ``VAR=x`` prefixes, reserved words and wrappers (sudo -u x, timeout 30, env ...)."""
    i = 0
    while i < len(argv):
        word = argv[i]
        name = word.rsplit("/", 1)[-1]
        if "=" in word and not word.startswith("-") and _ASSIGNMENT.match(word):
            i += 1
        elif word in _RESERVED:
            i += 1
        elif name in _WRAPPERS:
            i += 1
            while i < len(argv) and argv[i].startswith("-"):
                # sudo -u/-g/-C, nice -n, sshpass -p/-f/-d/-P (sshpass(1)): an argument follows
                takes = _SSHPASS_VALUE_OPTS if name == "sshpass" else ("-u", "-g", "-n", "-C")
                i += 2 if argv[i] in takes else 1
        elif name == "timeout":
            i += 1
            while i < len(argv) and argv[i].startswith("-"):
                i += 2 if argv[i] in ("-s", "-k", "--signal", "--kill-after") else 1
            i += 1  # the duration
        else:
            break
    return argv[i:]


@lru_cache(maxsize=4096)
def _segments_of(command: str) -> tuple[tuple[str, ...], ...]:
    """``segments(split_words(command))``, cached: a remote command is split once to find
    where it runs (:func:`parse_target` of the ssh line) and again to name its kind
    (:func:`categorize`); the shell split is the costly part of both. A command of several
    lines (an agent's Bash call ``cd /opt/sglang`` then ``grep -n 'accept len' server.log``) is
    a list of them, each line a command, as ``;`` makes it (bash(1), Lists: "a sequence of one
    or more newlines may appear in a list instead of a semicolon"); its comment lines are none.
    (split_words drops newlines as whitespace: the two lines were one command, ``cd``'s.)"""
    if "\n" not in command:
        return tuple(map(tuple, segments(split_words(command))))
    return tuple(tuple(argv) for argv in segments(split_words(_one_text(command), _WORD_LINES))
                 if not argv[0].startswith("#"))


# _WORD, but a newline outside quotes is an operator (the word separator before it is spaces
# and tabs only)
_WORD_LINES = re.compile(_WORD.pattern.replace(r"\s*", r"[^\S\n]*", 1), re.S)


def _one_text(command: str) -> str:
    """``command`` with its line continuations joined (bash removes a backslash-newline before
    it reads words) and each heredoc body made one line: its lines are what the command reads,
    not commands (its words stay where they were, with the command that reads them)."""
    if "\\\n" in command:
        command = command.replace("\\\n", "")
    if "<<" not in command:
        return command
    out, pos, ended = [], 0, False
    for _op, start, _body_end, end in heredocs(command):
        head = max(pos, start - 1)  # the newline that ends the `<<` line (a second heredoc's: none)
        # the newline after a body ends the command, unless another body of its line follows
        out.append(("\n" if ended and head > pos else " " if ended else "") + command[pos:head])
        body = command[head:end]
        out.append(body.replace("\n", " "))  # the body and its terminator line as one line
        pos, ended = end, body.endswith("\n")
    out.append(("\n" if ended else "") + command[pos:])
    return "".join(out)


@lru_cache(maxsize=4096)
def parse_target(command: str, _depth: int = 0) -> Target:
    """The innermost host/container a command reaches (cached: sessions repeat commands)."""
    if "<<" in command:  # one substring test keeps the common case as cheap as before
        heredoc = _ssh_heredoc(command, _depth)
        if heredoc is not None:
            return heredoc
    variables: dict[str, str | None] = {}
    for argv in _segments_of(command):
        if "=" in argv[0] or argv[0] in ("for", "export", "declare", "local", "readonly", "unset"):
            _note_variables(argv, variables)
        argv = _unwrap(list(argv))
        if not argv:
            continue
        prog = argv[0].rsplit("/", 1)[-1]
        if prog not in _REACHING:
            continue  # (most commands: ls, tail, grep ... reach nowhere; the last branch below)
        if prog == "ssh":
            target = _ssh(argv[1:], _depth)
        elif prog == "scp":
            target = _scp(argv[1:])
        elif prog == "rsync":
            target = _rsync(argv[1:])
        elif prog in ("docker", "podman", "nerdctl") and len(argv) > 2 and argv[1] == "exec":
            target = _docker(argv[2:], _depth)
            if target is not None and variables:
                target = _daemon_host(target, prog, variables)
        elif prog in ("docker", "podman", "nerdctl") and len(argv) > 3 and argv[1][:1] == "-" and "exec" in argv[2:]:
            target = _docker_elsewhere(argv[1:], _depth)
            if target is not None and target.host is None and variables and not _names_daemon(argv):
                target = _daemon_host(target, prog, variables)
        elif prog in ("docker", "podman", "nerdctl") and len(argv) > 1 and \
                (argv[1] in _ON_DAEMON or (argv[1][:1] == "-" and (not _ON_DAEMON.isdisjoint(argv[2:])
                                                                    or "compose" in argv[2:]))):
            target = _run_elsewhere(prog, argv[1:], variables)
        elif (prog in ("docker", "podman") and len(argv) > 2 and argv[1] == "compose") or \
                (prog in ("docker-compose", "podman-compose") and len(argv) > 1):
            target = _compose_exec(argv[2:] if argv[1] == "compose" else argv[1:], _depth)
            if target is not None and variables:  # compose reaches the daemon DOCKER_HOST names too
                target = _daemon_host(target, prog.partition("-")[0], variables)
            elif target is None and variables:  # `DOCKER_HOST=ssh://gpu07 docker compose up -d`
                target = _compose_elsewhere(prog, argv, variables)
        elif prog == "tsh" and len(argv) > 2 and argv[1] in ("ssh", "scp"):
            target = _tsh_ssh(argv[2:], _depth) if argv[1] == "ssh" else _scp(argv[2:])
        elif prog in ("kubectl", "oc") and "exec" in argv[1:]:
            target = _kubectl_exec(argv[1:], _depth)
        elif prog == "oc" and "rsh" in argv[1:]:
            target = _kubectl_exec(argv[1:], _depth, "rsh")
        elif prog in _SHELLS and len(argv) > 2:
            target = _shell_c(argv[1:], _depth)
        elif prog == "autossh":
            target = _ssh(_drop_options(argv[1:], {"-M"}), _depth)
        elif prog == "gcloud" and "ssh" in argv[1:6]:
            target = _gcloud_ssh(argv[argv.index("ssh") + 1:], _depth)
        elif prog == "srun":
            target = _srun(argv[1:], _depth)
        elif prog == "salloc":
            target = _salloc(argv[1:], _depth)
        elif prog == "pdsh":
            target = _pdsh(argv[1:], _depth)
        elif prog == "aws" and "start-session" in argv[1:12]:
            target = _ssm_session(argv[1:], _depth)
        elif prog == "mosh":
            target = _mosh(argv[1:], _depth)
        elif prog == "az" and len(argv) > 2 and argv[1] == "ssh" and argv[2] in ("vm", "arc"):
            target = _az_ssh(argv[3:], _depth)
        elif prog in ("su", "runuser") and len(argv) > 1:
            target = _su(argv[1:], _depth)
        elif prog == "watch" and len(argv) > 1:
            target = _watch(argv[1:], _depth)
        else:
            continue
        if target is not None:
            if target.host is not None and "$" in target.host:
                user = target.user or _user_in(target.host, variables)
                host = _expand(target.host, variables)
                target = replace(target, host=host, user=user, unnamed=host is None)
            if target.container is not None and "$" in target.container:
                target = _named_container(target, variables)
            return target
    return Target(None, None, None, None, None, command)  # positional: see _ssh


# Every program a branch of parse_target's names (each branch tests ``prog`` against one of
# these first): any other program of a command list reaches nowhere, and the scan goes on to the
# next command. One set lookup instead of some 25 comparisons for each such command.
_REACHING = frozenset({"ssh", "scp", "rsync", "docker", "podman", "nerdctl", "docker-compose", "podman-compose",
                       "tsh", "kubectl", "oc", "bash", "sh", "zsh", "dash", "autossh", "gcloud", "srun", "salloc",
                       "pdsh", "aws", "mosh", "az", "su", "runuser", "watch"})


# `ssh HOST << 'EOF'` + script + `EOF`: the remote shell reads its script from the heredoc, the
# way agents send a multi-line check. Split into words, the redirection read as the remote
# command (`< < EOF nvidia-smi EOF`). The terminator of ``<<-`` may be indented by tabs (bash(1),
# Here Documents). What follows the terminator runs where the session ran, as the commands
# after any ssh of a command line do.
# The rest of the first line ("tail") is the local side's: ``ssh gpu01 bash <<'EOF' 2>&1 | tail -n 20``
# redirects and filters what comes back; ``cat <<'EOF' | ssh gpu01 bash`` pipes the script to ssh.
# The word ends where a word character cannot follow (``<<EOFX`` is not ``<<EOF`` with "X" after
# it), and ``<<<`` is a here-string, not a heredoc; ``<<\EOF`` is the word quoted. A heredoc
# the input ends inside (a transcript cut short, or a terminator never written) is read to the
# end, as bash does ("here-document delimited by end-of-file", bash(1) Here Documents) and
# runs it.
_SSH_HEREDOC = re.compile(r"\A(?P<head>[^\n]*?)[ \t]*(?<!<)<<(?!<)(?P<dash>-)?[ \t]*(?P<bs>\\)?(?P<q>['\"]?)(?P<word>[A-Za-z0-9_.-]+)"
                          r"(?P=q)(?![A-Za-z0-9_.-])(?P<tail>[^\n]*)\n(?P<body>.*?)"
                          r"(?:\n(?P<tabs>(?(dash)\t*))(?P=word)(?:\n.*)?)?\Z", re.DOTALL)
# ``cat <<'EOF' | ssh gpu01 bash``: cat only passes the heredoc on (envsubst too, with the
# variables bash already expands in an unquoted heredoc: GNU gettext envsubst(1))
_CAT_HEAD = re.compile(r"(?:.*[;&|][ \t]*)?(?:cat|envsubst)(?:[ \t]+-)?")
_PIPED_TAIL = re.compile(r"[ \t]*\|(?!\|)(?P<rest>[^|]*)$")
# a shell that runs what it reads on stdin: the script can run as it is
_STDIN_SHELL = re.compile(r"(?:(?:/usr)?/bin/)?(?:ba|z|da)?sh(?:\s+-s)?")


def ssh_heredoc(command: str) -> Target | None:
    """Where a command that feeds ``ssh`` its script in a heredoc runs, with the script as the
    remote command: the heredoc's body (``ssh h << 'EOF'``, ``ssh h 'bash -s' <<EOF``), or the
    remote command with its heredoc (``ssh h python3 - <<'PY'``); None for any other command,
    and for a script a local program writes from the heredoc (``python3 - <<'EOF' | ssh h
    bash``: the script is what it prints, which the session does not show)."""
    if "<<" not in command:
        return None
    found = _heredoc_target(command, 0)
    return found[0] if found is not None and found[1] else None


def script_made_locally(command: str) -> bool:
    """Whether ``command`` pipes to ssh a script a local program writes from its heredoc
    (``python3 - <<'EOF' | ssh h bash``): the host ran what it printed, which no step can run."""
    found = _heredoc_target(command, 0) if "<<" in command else None
    return found is not None and not found[1]


def _ssh_heredoc(command: str, depth: int) -> Target | None:
    found = _heredoc_target(command, depth)
    return found[0] if found is not None else None


def _heredoc_target(command: str, depth: int) -> tuple[Target, bool] | None:
    """The target of a command whose heredoc goes to ssh, and whether its remote command is the
    script the session wrote (False: a local program writes it from the heredoc)."""
    # a heredoc's body starts on the next line: with none, each `<<` of the line would have the
    # pattern scan the rest of it for one (10,000 `x <<EOF` on one line took 13 s)
    m = _SSH_HEREDOC.match(_quoted_shifts_masked(command)) if "\n" in command else None
    if m is None:
        return None
    head, tail = command[:m.end("head")], command[m.start("tail"):m.end("tail")]
    if m.group("tabs") is None and _shift_not_heredoc(head, m.group("word")):
        return None  # no terminator: `ssh h 'echo $((1<<20))'` and a second line is no heredoc
    piped = _PIPED_TAIL.match(tail)
    cat_piped = bool(piped) and bool(_CAT_HEAD.fullmatch(head))
    if cat_piped:
        head = piped.group("rest").strip()  # the script goes down the pipe: where it runs is there
    target = parse_target(head, depth)
    if not _reaches_away(target):
        if piped and not cat_piped:
            # `python3 - <<'EOF' | ssh gpu01 bash`: the local program reads the heredoc and prints
            # the script; what runs on the host is ssh's remote command (was "bash print": the
            # body's words read as the remote command's)
            far = parse_target(piped.group("rest").strip(), depth)
            return (far, False) if _reaches_away(far) else None
        return None  # a heredoc for a local program (`cat <<EOF > x`)
    # A container's shell reads it the same way (`docker exec -i sglang bash <<'EOF'`,
    # `kubectl exec -i vllm-0 -- bash <<'EOF'`): split into words it read as "bash '<' '<' EOF
    # nvidia-smi EOF", which the timeline showed and the categories read.
    segs = _segments_of(head)
    if len(segs) > 1:
        last = " ".join(map(_requote, segs[-1]))
        if "$" not in last and not _reaches_away(parse_target(last, depth)):
            return None  # `ssh gpu01 uptime; cat <<EOF > notes.txt`: the heredoc is the local cat's
    remote = target.inner.strip()
    if not remote or _STDIN_SHELL.fullmatch(remote):
        body = m.group("body")
        # <<- strips the leading tabs of every line it feeds (bash(1), Here Documents)
        return replace(target, inner=re.sub(r"(?m)^\t+", "", body) if m.group("dash") else body), True
    # `<<\EOF` quotes the word as `<<'EOF'` does: the body is fed as written (bash(1))
    q, word, dash = m.group("q") or ("'" if m.group("bs") else ""), m.group("word"), m.group("dash") or ""
    tabs = m.group("tabs") or ""
    return replace(target, inner=f"{remote} <<{dash}{q}{word}{q}\n{m.group('body')}\n{tabs}{word}"), True


def _quoted_shifts_masked(command: str) -> str:
    """``command`` with each ``<`` its first line holds inside quotes masked: a ``<<`` there is
    text the remote shell reads, not ssh's heredoc (``ssh h "python3 - <<'EOF'`` + script +
    ``EOF"``). Read as ssh's, the remote command became the script with ``EOF"`` and a second
    ``EOF`` after it, a step that ran `python3` on a broken script. The length is kept, so the
    match's positions are the command's."""
    end = command.find("\n")
    line = command[:end]
    if "'" not in line and '"' not in line:
        return command
    out, quote, escaped = [], None, False
    for i, ch in enumerate(line):
        out.append("\x01" if quote and ch == "<" else ch)
        quote, escaped = quote_state(line, i, i + 1, quote, escaped)
    return "".join(out) + command[end:]


def _shift_not_heredoc(head: str, word: str) -> bool:
    """Whether a ``<<`` with no terminator line is arithmetic's shift: inside ``((``, or a number
    after it (``1<<20``); a heredoc's word is a name (EOF, PY)."""
    return word.isdigit() or head.count("((") > head.count("))")


def _reaches_away(target: Target) -> bool:
    return target.host is not None or target.container is not None


_VARIABLE = re.compile(r"\$(?:\{(\w+)\}|(\w+))")


def target_with(command: str, variables: dict[str, str | None]) -> Target:
    """:func:`parse_target` of ``command`` run in a shell that earlier commands gave
    ``variables`` (a terminal log: ``export GPU_HOST=10.1.2.3``, then ``ssh $GPU_HOST
    nvidia-smi`` reaches 10.1.2.3, bash(1) PARAMETERS); the command's own target otherwise."""
    target = parse_target(command)
    if target.host is None and target.container is None and variables and "$" in command:
        named = {a or b for a, b in _VARIABLE.findall(command)}  # the ones it uses, not the whole shell's
        given = "; ".join(f"{name}={shlex.quote(value)}" for name, value in variables.items()
                          if value and name in named)
        if given:
            found = parse_target(f"{given}; {command}")
            if found.host is not None or found.container is not None:
                return found
    return target


def note_variables(command: str, variables: dict[str, str | None]) -> None:
    """The variables ``command`` sets for the commands after it in the same shell (see
    :func:`_note_variables`), noted in ``variables``. ``GPU=gpu09 ./run.sh`` sets GPU for
    run.sh alone (bash(1), SIMPLE COMMAND EXPANSION): not for the commands after it."""
    for argv in _segments_of(command):
        if argv[0] in ("for", "export", "declare", "local", "readonly", "unset") \
                or ("=" in argv[0] and all(_ASSIGNMENT.match(word) for word in argv)):
            _note_variables(argv, variables)
    while len(variables) > 256:  # a long script's log: the oldest go first
        del variables[next(iter(variables))]


def _note_variables(argv: tuple[str, ...], variables: dict[str, str | None]) -> None:
    """``H=gpu01`` and ``export H=gpu01`` set a variable for the commands after them; ``for h
    in gpu01 gpu02`` sets it to several hosts in turn (None: no one host); ``unset H`` removes it
    (bash(1), SHELL BUILTIN COMMANDS, unset: "each name refers to a shell variable" unless -f),
    so ``unset DOCKER_HOST`` sends the next ``docker ps`` to the local daemon again."""
    if argv[0] == "unset":
        if "-f" not in argv:
            for word in argv[1:]:
                if not word.startswith("-"):
                    variables.pop(word, None)
        return
    if argv[0] == "for":
        if len(argv) >= 3 and argv[2] == "in":
            variables[argv[1]] = argv[3] if len(argv) == 4 else None
        return
    if (argv[0] == "export" and "-n" in argv) or (argv[0] == "declare" and "+x" in argv):
        # `export -n DOCKER_HOST`, `declare +x DOCKER_HOST`: no longer exported (bash(1), SHELL
        # BUILTIN COMMANDS, export: "-n ... the export property is removed from each name"). The
        # shell still expands it, but docker no longer sees it: its next `docker ps` is the
        # local daemon's again, as after `unset` (was still gpu07's)
        for word in argv[1:]:
            name, _, value = word.partition("=")
            if not word.startswith(("-", "+")) and name in _CHILD_ONLY:
                kept = value or variables.pop(name, None)
                variables.pop(name, None)
                if kept:  # kept for an `export DOCKER_HOST` that exports it again
                    variables[name + _NOT_EXPORTED] = kept
        return
    for word in argv[1:] if argv[0] in ("export", "declare", "local", "readonly") else argv:
        if _ASSIGNMENT.match(word):
            name, _, value = word.partition("=")
            variables[name] = value
            variables.pop(name + _NOT_EXPORTED, None)
        elif argv[0] == "export" and word in _CHILD_ONLY and word + _NOT_EXPORTED in variables:
            variables[word] = variables.pop(word + _NOT_EXPORTED)  # `export DOCKER_HOST` again
        elif not word.startswith("-"):
            return


def _named_container(target: Target, variables: dict[str, str | None]) -> Target:
    """A container named by a variable the line set (``C=sglang; docker exec $C nvidia-smi``,
    as scripts write it) is that container; one it did not set keeps its text: where the command
    ran is still a container."""
    kind, _, name = target.container.partition(":")
    named = _expand(name, variables)
    return replace(target, container=f"{kind}:{named}") if named else target


def _expand(host: str, variables: dict[str, str | None]) -> str | None:
    """A destination written with a variable (``ssh root@$GPU``) is the value the same command
    line gave it; one it did not give, or gave several values (a loop over hosts), names no
    host rather than the text ``$GPU``."""
    unknown = False

    def value(m: re.Match) -> str:
        nonlocal unknown
        found = variables.get(m.group(1) or m.group(2))
        if not found or "$" in found:
            unknown = True
            return ""
        return found.rpartition("@")[2]

    expanded = _VARIABLE.sub(value, host)
    return None if unknown or not expanded or "$" in expanded else expanded


def _user_in(host: str, variables: dict[str, str | None]) -> str | None:
    """The user a destination variable carries (``GPU=root@10.1.2.3``, then ``ssh $GPU``): ssh
    splits the expanded word at its last "@" as it would the typed one (was the host only)."""
    m = _VARIABLE.fullmatch(host)
    found = variables.get(m.group(1) or m.group(2)) if m else None
    if not found or "$" in found or "@" not in found:
        return None
    return found.rpartition("@")[0] or None


def _split_dest(dest: str) -> tuple[str | None, str, int | None]:
    port = None
    if dest.startswith("ssh://"):
        dest = dest[6:].rstrip("/")
        if re.search(r":(\d+)$", dest) and not dest.endswith("]"):
            dest, _, p = dest.rpartition(":")
            port = int(p)
    user, _, host = dest.rpartition("@")
    return (user or None), host.strip("[]"), port


@dataclass(frozen=True, slots=True)
class SshWords:
    """What one ssh's words say: its destination as typed, the remote command, and the options
    that change where it lands."""
    dest: str | None
    remote: str
    user: str | None = None
    port: int | None = None
    jump: str | None = None
    hostname: str | None = None
    port_word: str | None = None
    """The first -p or -o Port value as typed (`port` holds it only where it is digits): ssh(1)
    says "Bad port '0'" for 0, 65536 or abc (openssh-portable: misc.c, a2port)."""
    local_only: bool = False
    """-G or -O: ssh connects to no host. ssh(1): -G "print its configuration ... and exit";
    -O ctl_cmd talks to the local multiplexing master's socket (openssh-portable ssh.c, mux.c:
    muxclient), whose errors ("Control socket connect(...): No such file or directory") are
    this machine's."""


def _jump_host(value: str) -> str | None:
    """The jump host of ``-J``/``ProxyJump``; "none" turns a configured one off (ssh_config(5),
    ProxyJump: "Setting this option to none disables it"), as ``ssh -o ProxyJump=none gpu01``
    does to reach a host directly: no host of that name."""
    value = value.strip()
    return None if not value or value.lower() == "none" else value


def _dest_settings(dest: str, user: str | None, port: int | None) -> tuple[str | None, int | None]:
    """The user and port once the destination is read: its user@ and ssh:// port count only
    where no option set them before it (``ssh -l alice bob@gpu01`` logs in as alice)."""
    dest_user, _, dest_port = _split_dest(dest)
    return user or dest_user, port or dest_port


def ssh_words(args: list[str]) -> SshWords:
    """ssh's words after the program name. OpenSSH reads options on both sides of the
    destination (``ssh gpu01 -p 2222 cmd``: ``ssh.c`` runs getopt again after taking the host;
    ``ssh -G gpu01 -p 2222`` prints ``port 2222``) until ``--`` or the command's first word.
    A setting given twice keeps its FIRST value, as ssh does for every source of it (ssh_config(5):
    "the first obtained value will be used"; ssh.c sets -p/-l only while unset, and the
    destination's user@ only when no -l or -o User came before it): ``ssh -o Port=2222 -o
    Port=3333 gpu01`` connects to port 2222 (``ssh -G`` prints it), ``-o ProxyJump=none`` first
    leaves no jump host for a later one to set."""
    return SshWords(*_ssh_fields(args))


def _ssh_fields(args: list[str]) -> tuple:
    """:func:`ssh_words`' fields, in SshWords' order: a frozen dataclass costs half of the
    scan to build, and :func:`_ssh` (every ssh line of a session) reads only the fields."""
    user = port = jump = hostname = port_word = None
    jump_set = local_only = False
    dest = None
    i = 0
    while i < len(args):
        word = args[i]
        if word == "--":
            i += 1
            if dest is None and i < len(args):
                dest = args[i]
                user, port = _dest_settings(dest, user, port)
                i += 1
            break
        if not word.startswith("-") or word == "-":
            if dest is not None:
                break
            dest = word
            user, port = _dest_settings(dest, user, port)
            i += 1
            continue
        at = _value_flag_at(word)
        if at is not None:
            flag, attached = word[at], word[at + 1:]
            value = attached or (args[i + 1] if i + 1 < len(args) else "")
            i += 1 if attached else 2
            if flag == "O" or (at > 1 and "G" in word[1:at]):
                local_only = True
            if flag == "p":
                port_word = value if port_word is None else port_word
            if flag == "p" and value.isdigit():
                port = port or int(value)
            elif flag == "l":
                user = user or value
            elif flag == "J" and not jump_set:
                jump, jump_set = _jump_host(value), True
            elif flag == "o":
                # ssh_config(5): "Keyword Argument" or "Keyword=Argument".
                key, val = (_OPTION_SPLIT.split(value.strip(), 1) + [""])[:2]
                key = key.lower()
                if key == "port":
                    port_word = val.strip() if port_word is None else port_word
                if key == "port" and val.strip().isdigit():
                    port = port or int(val)
                elif key == "user":
                    user = user or val.strip()
                elif key == "proxyjump" and not jump_set:
                    jump, jump_set = _jump_host(val), True
                elif key == "hostname" and val.strip():
                    # ssh -o HostName=10.1.2.3 gpu01 connects to 10.1.2.3
                    hostname = hostname or val.strip()
        else:
            if "G" in word:
                local_only = True
            i += 1
    return dest, " ".join(_before_redirection(args[i:])), user, port, jump, hostname, port_word, local_only


def _before_redirection(words: list[str]) -> list[str]:
    """The remote command's words: an output redirection left unquoted is the local shell's
    (bash(1), REDIRECTION: performed before the command runs), so ``ssh gpu01 nvidia-smi
    2>/dev/null`` runs ``nvidia-smi`` there and ``ssh gpu01 'cmd' > out.txt 2>&1`` writes out.txt
    here. Read as remote words they made ``nvidia-smi 2 > /dev/null`` (split_words cuts ``2>`` in
    two), a command that distill then wrote into a playbook. The digit before ``>`` is taken as
    its file descriptor: the common ``2>``, not a rare ``seq 2 > x``. An input redirection stays
    (``bash -s < check.sh``: it says the script is a local file, test_hardening9_distill)."""
    for k, word in enumerate(words):
        if word == ">":
            if k and len(words[k - 1]) == 1 and words[k - 1] in "012":
                k -= 1
            return words[:k]
    return words


def _ssh(args: list[str], depth: int) -> Target | None:
    dest, remote, user, port, jump, hostname, _, local_only = _ssh_fields(args)
    if dest is None or local_only:
        return None
    host = _split_dest(dest)[1]
    if hostname is not None:
        host = hostname.strip("[]")
    if remote and depth < 4:
        inner = parse_target(remote, depth + 1)
        if inner.host is not None:  # ssh bastion ssh gpu: the last hop is the target
            return Target(inner.host, inner.user, inner.port, host, inner.container, inner.inner)
        return Target(host, user, port, jump, inner.container, inner.inner)
    # positional, in Target's field order (host, user, port, jump, container, inner): a
    # keyword call of a frozen dataclass costs a third more, once per ssh line
    return Target(host, user, port, jump, None, remote)


def _scp(args: list[str]) -> Target | None:
    # scp hands its -o and -J to ssh in the order given and its last -P as "-p N" after them
    # (scp -S with a program printing its argv, OpenSSH 9.2: "-o Port=2 -J a ... -p 4"); ssh
    # keeps the first value of each: an -o Port beats any -P, and -P is the last one.
    option_port = cli_port = jump = hostname = option_user = None
    jump_set = False
    operands = []
    i = 0
    while i < len(args):
        word = args[i]
        if word.startswith("-") and len(word) > 1:
            flag = word[1]
            if flag in _SCP_ARG_OPTS:
                value = word[2:] or (args[i + 1] if i + 1 < len(args) else "")
                if flag == "P" and value.isdigit():
                    cli_port = int(value)
                elif flag == "J" and not jump_set:
                    jump, jump_set = _jump_host(value), True
                elif flag == "o":
                    key, val = (_OPTION_SPLIT.split(value.strip(), 1) + [""])[:2]
                    if key.lower() == "proxyjump" and not jump_set:
                        jump, jump_set = _jump_host(val), True
                    elif key.lower() == "port" and val.strip().isdigit():
                        option_port = option_port or int(val)
                    elif key.lower() == "hostname" and val.strip():
                        hostname = hostname or val.strip()
                    elif key.lower() == "user" and val.strip():
                        option_user = option_user or val.strip()
                i += 1 if word[2:] else 2
                continue
            i += 1
            continue
        operands.append(word)
        i += 1
    target = _remote_operand(operands, option_port or cli_port, jump, "scp")
    if target is not None and hostname is not None:
        target = replace(target, host=hostname.strip("[]"))
    if target is not None and option_user is not None:
        # scp hands the operand's user@ to ssh as "-l alice" after the -o options (scp -S with
        # a program printing its argv, OpenSSH 9.2: "-o User=bob ... -l alice -s -- gpu02"),
        # and ssh keeps the first: -o User beats alice@ (`ssh -G -o User=bob -l alice` prints bob)
        target = replace(target, user=option_user)
    return target


def _rsync(args: list[str]) -> Target | None:
    operands: list[str] = []
    rsh = None
    i = 0
    while i < len(args):
        word = args[i]
        if word in ("-e", "--rsh"):
            rsh = args[i + 1] if i + 1 < len(args) else ""
            i += 2
            continue
        if word.startswith("--rsh="):
            rsh = word[len("--rsh="):]
        elif word.startswith("-e") and len(word) > 2 and not word.startswith("--"):
            rsh = word[2:]  # -e'ssh -p 2222'
        elif not word.startswith("-"):
            operands.append(word)
        i += 1
    # The remote shell's own options: rsync -e "ssh -p 2222 -J bastion -l ubuntu" host:path
    # goes where that ssh would go (rsync(1), --rsh).
    via = _rsh_options(rsh) if rsh else None
    port = via.port if via else None
    jump = via.jump if via else None
    for op in operands:
        if op.startswith("rsync://"):
            user, host, p = _split_dest(op[8:].split("/", 1)[0])
            return Target(host=host, user=user, port=p or port, inner="rsync " + " ".join(args))
    target = _remote_operand(operands, port, jump, "rsync")
    if target is not None and via is not None:
        # rsync runs the -e words, then "-l USER" for the path's user@, then the host
        # (RsyncProject/rsync main.c, do_cmd: `if (user && !(daemon_connection && dash_l_set))
        # { args[argc++] = "-l"; args[argc++] = user; }` after the -e tokens), and ssh keeps the
        # first -l (`ssh -G -l bob -l alice gpu02` prints "user bob"): -e 'ssh -l bob' beats alice@
        target = replace(target, user=via.user or target.user,
                         host=via.host if via.host != _RSH_PLACEHOLDER else target.host)
    return target


_RSH_PLACEHOLDER = "\x00rsync-destination"


def _rsh_options(rsh: str) -> Target | None:
    """What ``ssh OPTIONS`` in rsync's -e says about the connection (port, jump, user, an
    ``-o HostName``), read by the ssh parser against a stand-in destination."""
    words = split_words(rsh)
    if not words or not words[0].rsplit("/", 1)[-1].startswith("ssh"):
        return None
    return _ssh(words[1:] + [_RSH_PLACEHOLDER], 0)


def _remote_operand(operands: list[str], port, jump, prog: str) -> Target | None:
    for op in operands:
        m = _REMOTE_PATH.match(op)
        if m and not op.startswith(("/", "./", "../", "~")) \
                and not (prog == "scp" and m.group(1) is None and len(m.group(2)) == 1 and m.group(2).isalpha()):
            # (`scp C:\Users\me\model.bin gpu02:/w/` from PowerShell: Windows' scp reads "x:..."
            # as a drive, a local file; PowerShell/openssh-portable misc.c, colon(): "Account for
            # Windows file names in the form x: or /x:". Was the host "C".)
            return Target(host=m.group(2).strip("[]"), user=m.group(1), port=port, jump=jump,
                          inner=f"{prog} " + " ".join(operands))
    return None


def _docker(args: list[str], depth: int) -> Target | None:
    i = 0
    while i < len(args) and args[i].startswith("-"):
        i += 2 if args[i] in _DOCKER_ARG_OPTS else 1
    if i >= len(args):
        return None
    # exec passes its words as argv, no shell in between: quoted again, they read as one
    # command line ("bash -c 'nvidia-smi && tail log'", not two commands).
    return Target(container=f"docker:{args[i]}", inner=_exec_command(args[i + 1:]))


# The docker CLI's own options, before its subcommand, that take a value (docker/cli
# cli/flags/options.go, InstallFlags: --config, -c/--context, -H/--host, -l/--log-level, the TLS
# files); podman's --connection/-c, --url, --identity (containers/podman cmd/podman/root.go).
_DOCKER_GLOBAL_ARG_OPTS = frozenset({"--config", "-c", "--context", "-H", "--host", "-l", "--log-level", "--tlscacert",
                                     "--tlscert", "--tlskey", "--connection", "--url", "--identity"})


def _docker_elsewhere(args: list[str], depth: int) -> Target | None:
    """``docker -H ssh://ubuntu@gpu07 exec sglang CMD``, ``docker --context gpu07 exec …``: the
    container of the exec after the CLI's own options (was no container, no host: the command
    read as run where the session ran). A daemon reached by ssh (``-H``/``--host``/``--url``
    ``ssh://[user@]host[:port]``) is the host the container runs on; a context names none."""
    i, daemon = 0, None
    while i < len(args) and args[i].startswith("-"):
        flag, _, value = args[i].partition("=")
        if flag in _DOCKER_GLOBAL_ARG_OPTS and not value:
            value = args[i + 1] if i + 1 < len(args) else ""
            i += 1
        if flag in ("-H", "--host", "--url") and value.startswith(("ssh://", "tcp://")):
            daemon = value
        i += 1
    if i < len(args) and args[i] == "compose":  # `docker -H ssh://gpu07 compose exec sglang CMD`
        target = _compose_exec(args[i + 1:], depth)
    elif i < len(args) and args[i] == "exec":
        target = _docker(args[i + 1:], depth)
    else:
        return None
    login = daemon_login(daemon) if target is not None and daemon is not None else None
    return target if login is None else replace(target, user=login[0], host=login[1], port=login[2])


def _run_elsewhere(prog: str, args: list[str], variables: dict[str, str | None]) -> Target | None:
    """``docker -H ssh://root@gpu08 run --rm IMAGE python bench.py``, ``DOCKER_HOST=ssh://gpu09 docker
    run …``: the daemon that runs the new container is on gpu08, so the command ran there, as
    ``ssh gpu08 docker run …`` would (was the machine the session ran on). The CLI resolves its
    daemon alike for every subcommand (docker/cli cli/command/cli.go, resolveContextName: the
    flags, then ``DOCKER_HOST``), as :func:`_docker_elsewhere` reads it for an exec; so do the
    daemon's other container commands (``docker -H ssh://gpu08 logs sglang``: gpu08's container
    log, :data:`_ON_DAEMON`). None for a local or unnamed daemon (a context: docker_contexts)."""
    i, daemon, named = 0, None, False
    while i < len(args) and args[i].startswith("-"):
        flag, _, value = args[i].partition("=")
        if flag in _DOCKER_GLOBAL_ARG_OPTS and not value:
            value = args[i + 1] if i + 1 < len(args) else ""
            i += 1
        if flag in ("-H", "--host", "--url", "-c", "--context", "--connection"):
            named = True
            if flag in ("-H", "--host", "--url"):
                daemon = value
        i += 1
    if not on_daemon(args, i):
        return None
    if not named:
        daemon = variables.get(_DAEMON_VARIABLES.get(prog, "")) if variables else None
    login = daemon_login(daemon) if daemon else None
    if login is None:
        return None
    return Target(host=login[1], user=login[0], port=login[2], inner=shlex.join([prog] + args[i:]))


def _compose_elsewhere(prog: str, argv: list[str], variables: dict[str, str | None]) -> Target | None:
    """``DOCKER_HOST=ssh://gpu07 docker compose up -d`` (or ``docker-compose``, the v1 program,
    which reads the variable alike): the daemon that runs the project's containers is gpu07's, so
    the command ran there, as ``docker -H ssh://gpu07 compose up -d`` (:func:`_run_elsewhere`)."""
    if not _compose_on_daemon(argv, 2 if argv[1] == "compose" else 1):
        return None
    daemon = variables.get(_DAEMON_VARIABLES.get(prog.partition("-")[0], ""))
    login = daemon_login(daemon) if daemon else None
    if login is None:
        return None
    return Target(host=login[1], user=login[0], port=login[2], inner=shlex.join(argv))


def on_daemon(words: list[str], i: int) -> bool:
    """Whether ``words[i]``, the subcommand after a docker/podman CLI's own options, does its work
    on the daemon (:data:`_ON_DAEMON`): ``logs``, ``ps``, ``container ls``; not ``cp``, ``container
    cp``, ``version``."""
    if i < len(words) and words[i] == "compose":
        return _compose_on_daemon(words, i + 1)
    return i < len(words) and words[i] in _ON_DAEMON and \
        (words[i] not in _MANAGEMENT or (i + 1 < len(words) and words[i + 1] not in _LOCAL_FILES))


def _compose_on_daemon(words: list[str], i: int) -> bool:
    """Whether the compose subcommand after compose's own options, from ``words[i]`` on, does its
    work on the daemon (:data:`_COMPOSE_ON_DAEMON`): ``up``, ``ps``, ``logs``; not ``config``."""
    while i < len(words) and words[i].startswith("-"):
        i += 2 if words[i] in _COMPOSE_ARG_OPTS else 1
    return i < len(words) and words[i] in _COMPOSE_ON_DAEMON


_COMPOSE_ON_DAEMON = frozenset({"up", "down", "ps", "logs", "restart", "start", "stop", "kill", "top", "stats",
                                "pull", "push", "rm", "create", "pause", "unpause", "run", "events", "images",
                                "port", "ls", "wait", "attach", "scale"})
"""Compose's subcommands whose work (and output) is the daemon's: its containers started,
stopped, listed, their logs and processes (docker/compose cmd/compose: up.go, ps.go, logs.go,
...); compose reaches the daemon the docker CLI's options and ``DOCKER_HOST`` name, as any docker
command (docker/compose cmd/compose/compose.go builds its client with the CLI's own). Not
``config``, ``convert``, ``version`` (this machine's files, the client), ``cp``, ``build`` or
``export`` (a local build context, local files: as the one-word forms, :data:`_LOCAL_FILES`),
``watch`` (it syncs this machine's files)."""


_MANAGEMENT = frozenset({"container", "image", "system", "volume", "network"})
"""The CLI's management commands (``docker container ls``, ``docker image ls``, ``docker system
df``): the daemon's objects, as their one-word forms (docker/cli cli/command/commands)."""
_LOCAL_FILES = frozenset({"cp", "export", "import", "load", "save", "build"})
"""Their subcommands that read or write this machine's files (a copy, a tar, a build context)."""
_ON_DAEMON = frozenset({"run", "logs", "restart", "start", "stop", "kill", "top", "stats", "inspect",
                        "ps", "images", "pull", "push", "rm", "rmi", "create", "pause", "unpause", "wait",
                        "attach", "port", "diff", "update", "rename", "commit", "tag", "history", "info",
                        "events"}) | _MANAGEMENT
"""Subcommands whose work (and output) is the daemon's: a new container, a container's log,
state or processes (docker/cli cli/command/container: run, logs, restart, start, stop, kill, top,
stats, inspect, ...); the daemon's list of its containers and images (``ps``: list.go asks the
daemon's API, ``images``), an image it pulls into its own store, its ``info`` (the GPU host's
runtimes, disk). Not ``cp`` (it copies to or from this machine's files), ``build``, ``save``,
``load`` (a local context or tar), ``login`` (this machine's credentials) or ``version`` (the
client's, then the daemon's)."""


_LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1", "0.0.0.0", ""})


def daemon_login(daemon: str) -> tuple[str | None, str, int | None] | None:
    """(user, host, ssh port) of a daemon address that names another machine: ``ssh://[user@]host
    [:port]``, or ``tcp://host:2376`` (a daemon listening on TCP: docs.docker.com, engine/security/
    protect-access, ``DOCKER_HOST=tcp://$HOST:2376``), whose port is the daemon's, no login's; None
    for a local socket or a loopback address."""
    if daemon.startswith("ssh://"):
        user, host, port = _split_dest("ssh://" + daemon[6:].split("/", 1)[0])  # (a socket path may follow)
        return (user, host, port) if host not in _LOOPBACK else None
    if not daemon.startswith("tcp://"):
        return None
    host = daemon[6:].split("/", 1)[0]
    host = host[1:host.find("]")] if host.startswith("[") and "]" in host else host.partition(":")[0]
    return (None, host, None) if host not in _LOOPBACK else None


_CHILD_ONLY = frozenset({"DOCKER_HOST", "CONTAINER_HOST", "DOCKER_CONTEXT"})
"""Variables read from the environment of the program a command starts (docker's, podman's), never
expanded on a command line: an un-exported one names no daemon."""
_NOT_EXPORTED = " (not exported)"
"""The key suffix under which :func:`_note_variables` keeps the value of one of :data:`_CHILD_ONLY`
that ``export -n`` took out of the environment."""
_DAEMON_VARIABLES = {"docker": "DOCKER_HOST", "podman": "CONTAINER_HOST"}
"""The variable that names the daemon a CLI reaches when no option does: ``DOCKER_HOST=ssh://me@gpu07
docker ps`` (docs.docker.com, engine/security/protect-access, "Use SSH to protect the Docker daemon
socket"), podman's ``CONTAINER_HOST=ssh://root@gpu07:22/run/podman/podman.sock`` (containers/podman
docs/source/markdown/podman-remote.1.md, ENVIRONMENT)."""


def _names_daemon(argv: list[str]) -> bool:
    """The CLI's own options name its daemon or context (``-H``, ``--context``, podman's
    ``--connection``/``--url``), which win over the variable (docker/cli ``cli/command/cli.go``,
    ``resolveContextName``: the flags first, then ``DOCKER_HOST``)."""
    for word in argv[1:argv.index("exec")]:
        flag = word.partition("=")[0]
        if flag in ("-H", "--host", "-c", "--context", "--url", "--connection"):
            return True
    return False


def _daemon_host(target: Target, prog: str, variables: dict[str, str | None]) -> Target:
    """``target``, a container, on the host of the daemon the line's (or an earlier line's:
    :func:`with_daemon_host`) ``DOCKER_HOST=ssh://user@gpu07`` names; as before where it names
    none or a local socket."""
    daemon = variables.get(_DAEMON_VARIABLES.get(prog, ""))
    login = daemon_login(daemon) if daemon and target.container is not None else None
    return target if login is None else replace(target, user=login[0], host=login[1], port=login[2])


def with_daemon_host(command: str, target: Target, variables: dict[str, str | None]) -> Target:
    """:func:`parse_target`'s ``target`` of a ``docker exec`` typed in a shell where an earlier
    command exported ``DOCKER_HOST=ssh://user@gpu07`` (a terminal log): on gpu07, where the daemon
    and its containers run (was the container on no host, read as the session's own machine); so
    is a ``docker run``, ``logs``, ``ps`` (:func:`on_daemon`) typed there, which reads the variable
    as the exec does (docker/cli cli/command/cli.go, resolveContextName)."""
    if target.host is not None or (target.container is not None and not target.container.startswith("docker:")):
        return target
    for name in _DAEMON_VARIABLES.values():
        value = variables.get(name)
        if value and value.startswith(("ssh://", "tcp://")):
            found = parse_target(f"export {name}={shlex.quote(value)}; {command}")
            if found.host is not None:
                return found
    return target


# Compose's own options come before its subcommand (docker/compose ``cmd/compose/compose.go``:
# ``-f/--file``, ``-p/--project-name``, ``--env-file``, ``--profile``, ``--project-directory``,
# ``--ansi``, ``--parallel``); ``docker-compose`` is the v1 program, still on many GPU hosts.
_COMPOSE_ARG_OPTS = frozenset({"-f", "--file", "-p", "--project-name", "--env-file", "--profile",
                               "--project-directory", "--ansi", "--parallel", "--progress"})
COMPOSE_ARG_OPTS = _COMPOSE_ARG_OPTS
"""(for formats.shell_logins, which reads ``docker compose [-f FILE] run`` as a shell opened)"""
_COMPOSE_EXEC_ARG_OPTS = _DOCKER_ARG_OPTS | {"--index"}


def _compose_exec(args: list[str], depth: int) -> Target | None:
    """``docker compose [-f FILE …] exec [-T] [--index N] SERVICE CMD…``: the service's
    container."""
    i = 0
    while i < len(args) and args[i].startswith("-"):
        i += 2 if args[i] in _COMPOSE_ARG_OPTS else 1
    if i >= len(args) or args[i] != "exec":
        return None
    rest, i = args[i + 1:], 0
    while i < len(rest) and rest[i].startswith("-"):
        i += 2 if rest[i] in _COMPOSE_EXEC_ARG_OPTS else 1
    if i >= len(rest):
        return None
    return Target(container=f"docker:{rest[i]}", inner=_exec_command(rest[i + 1:]))


# Teleport's ``tsh ssh [flags] [user@]host [command…]`` (gravitational/teleport
# ``tool/tsh/common/tsh.go``, the ``ssh`` command's flags): the flags that take a value.
_TSH_ARG_OPTS = frozenset({"-p", "--port", "-l", "--login", "-L", "--forward", "-R", "--remote-forward",
                           "-D", "--dynamic-forward", "-o", "--option", "-J", "--jumphost", "--cluster",
                           "--proxy", "--user", "--request-reason"})


def _tsh_ssh(args: list[str], depth: int) -> Target | None:
    i = 0
    port = None
    user = None
    while i < len(args) and args[i].startswith("-") and args[i] != "--":
        flag = args[i].split("=", 1)[0]
        value = args[i].split("=", 1)[1] if "=" in args[i] else (args[i + 1] if i + 1 < len(args) else "")
        if flag in ("-p", "--port") and value.isdigit():
            port = int(value)
        elif flag in ("-l", "--login"):
            user = value
        i += 2 if args[i] in _TSH_ARG_OPTS else 1
    if i < len(args) and args[i] == "--":
        i += 1
    if i >= len(args):
        return None
    login, _, host = args[i].rpartition("@")
    if not host:
        return None
    remote = " ".join(args[i + 1:])
    inner = parse_target(remote, depth + 1) if remote and depth < 4 else Target(inner=remote)
    return Target(host=host, user=login or user, port=port, container=inner.container,
                  inner=inner.inner if inner.container else remote)


# A shell running a script: Codex CLI runs each command as ``bash -lc "<script>"``
# (openai/codex, the shell tool), and remote commands are often wrapped the same way.
_SHELLS = frozenset({"bash", "sh", "zsh", "dash"})


def _shell_c(args: list[str], depth: int) -> Target | None:
    i = 0
    has_c = False
    while i < len(args) and args[i].startswith("-") and len(args[i]) > 1:
        if not args[i].startswith("--") and "c" in args[i][1:]:
            has_c = True
        i += 2 if args[i] in ("-o", "+o", "-O", "+O") else 1
    if not has_c or i >= len(args) or depth >= 4:
        return None
    inner = parse_target(args[i], depth + 1)
    if inner.host is None and inner.container is None:
        return None
    return inner


def _drop_options(args: list[str], with_value: set[str]) -> list[str]:
    out, i = [], 0
    while i < len(args):
        if args[i] in with_value:
            i += 2
            continue
        out.append(args[i])
        i += 1
    return out


def _kubectl_exec(args: list[str], depth: int, verb: str = "exec") -> Target | None:
    """``kubectl [global flags] exec ...``: the global flags (``-n ns``, ``--context c``) may
    come before the verb, so the verb is the first word that is no flag or flag value.
    OpenShift's ``oc rsh [-c container] POD [COMMAND ...]`` (verb ``rsh``) runs its command in the
    pod as ``oc exec`` does, with no ``--`` before it (the OpenShift CLI reference, oc rsh)."""
    i = 0
    while i < len(args) and args[i].startswith("-"):
        i += 2 if args[i] in _KUBECTL_ARG_OPTS else 1
    if i >= len(args) or args[i] != verb:
        return None
    return _kubectl(args[i + 1:], depth)


# gcloud compute ssh [USER@]INSTANCE [--zone Z] [--command CMD] [-- SSH_ARGS] (gcloud
# reference, ``gcloud compute ssh`` and ``gcloud compute tpus tpu-vm ssh``): flags that
# take a value when written apart from it.
_GCLOUD_ARG_OPTS = frozenset({"--zone", "--project", "--command", "--ssh-flag", "--ssh-key-file", "--worker",
                              "--container", "--internal-ip-address", "--account", "--configuration",
                              "--strict-host-key-checking", "--ssh-key-expire-after"})


def _value_flag_at(word: str) -> int | None:
    """Where ssh's first option that takes a value is in an option word, None where none is. A
    cluster of flags (-tt, -vA) may end with one, as getopt reads it: `-vp2222` is port 2222 and
    `-vl bob` user bob (ssh -G prints both); that flag takes the rest of the word, or the next."""
    for j in range(1, len(word)):  # a plain loop: next() over a generator costs twice as much
        if word[j] in SSH_VALUE_FLAGS:
            return j
    return None


def _command_after_ssh_options(rest: list[str]) -> str | None:
    """The remote command in the words a cloud CLI hands ssh after its "--": ssh's options
    first (-L 30000:localhost:30000 takes a value, `-vL 8080:localhost:8080` too), then the
    command (None: none, an interactive login)."""
    j = 0
    while j < len(rest) and rest[j].startswith("-") and len(rest[j]) > 1:
        at = _value_flag_at(rest[j])
        j += 2 if at is not None and at == len(rest[j]) - 1 else 1
    return " ".join(rest[j:]) or None


def _gcloud_ssh(args: list[str], depth: int) -> Target | None:
    dest = command = None
    i = 0
    while i < len(args):
        word = args[i]
        if word == "--":
            command = command or _command_after_ssh_options(args[i + 1:])
            break
        if word.startswith("--"):
            name, eq, value = word.partition("=")
            if not eq and name in _GCLOUD_ARG_OPTS:
                value = args[i + 1] if i + 1 < len(args) else ""
                i += 1
            if name == "--command":
                command = value
        elif dest is None:
            dest = word
        i += 1
    if dest is None:
        return None
    user, _, host = dest.rpartition("@")
    inner = parse_target(command, depth + 1) if command and depth < 4 else Target(inner=command or "")
    return Target(host=host, user=user or None, container=inner.container, inner=inner.inner)


# srun(1) options that take a value when written apart from it; ``-w``/``--nodelist`` name
# the node the command runs on.
_SRUN_ARG_OPTS = frozenset({"-A", "-c", "-C", "-D", "-e", "-G", "-i", "-J", "-L", "-m", "-n", "-N", "-o", "-p",
                            "-q", "-t", "-w", "-x", "--account", "--partition", "--nodes", "--ntasks",
                            "--cpus-per-task", "--gres", "--gpus", "--time", "--mem", "--job-name",
                            "--nodelist", "--exclude", "--qos", "--reservation", "--container-image",
                            "--container-mounts", "--container-name", "--export", "--chdir", "--constraint"})


def _slurm_options(args: list[str]) -> tuple[str | None, int]:
    """The nodelist srun's or salloc's options name (None: none), and where its command starts."""
    node = None
    i = 0
    while i < len(args) and args[i].startswith("-"):
        word = args[i]
        name, eq, value = word.partition("=")
        if not eq and word[:2] == "-w" and len(word) > 2:
            value = word[2:]
        elif not eq and name in _SRUN_ARG_OPTS:
            value = args[i + 1] if i + 1 < len(args) else ""
            i += 1
        if name in ("--nodelist", "-w") or word[:2] == "-w":
            node = value
        i += 1
    return node, i


def slurm_step(argv: list[str]) -> list[str]:
    """The command of ``srun [options] command...`` (``argv`` from srun on), srun's own options
    left out: ``srun --pty python3 load.py`` runs ``python3 load.py``."""
    return argv[1 + _slurm_options(argv[1:])[1]:]


def _salloc(args: list[str], depth: int) -> Target | None:
    """salloc(1) runs its command where it was typed, once it holds the allocation; an srun in
    that command starts its step on the allocation's nodes (slurm.schedmd.com/salloc.html): the
    nodes salloc named unless the step names its own. Its options are srun's (the same names)."""
    node, i = _slurm_options(args)
    if i < len(args) and args[i].rsplit("/", 1)[-1] == "srun":
        return _srun(([f"--nodelist={node}"] if node is not None else []) + args[i + 1:], depth)
    inner = _exec_command(args[i:])
    nested = parse_target(inner, depth + 1) if inner and depth < 4 else Target(inner=inner)
    return nested if nested.host is not None else None  # a local command; an ssh in it still says where


def _srun(args: list[str], depth: int) -> Target | None:
    node, i = _slurm_options(args)
    # srun execs its words as argv, no shell in between (as docker exec does): quoted again
    # they read as the command line meant ("python3 -c 'import torch; ...'", not "python3 -c
    # import torch; ...", which a distilled step ran as two broken commands)
    inner = _exec_command(args[i:])
    nested = parse_target(inner, depth + 1) if inner and depth < 4 else Target(inner=inner)
    if node is not None:
        node = one_node(node)
    if node is None:
        # no node named: where Slurm puts it is unknown, but an ssh inside still says where
        return nested if nested.host is not None else None
    return Target(host=node, container=nested.container, inner=nested.inner)


def srun_in_allocation(command: str, nodelist: str) -> Target | None:
    """Where ``srun CMD`` typed in the shell an interactive ``salloc`` opened runs: srun starts
    its step on the allocation's nodes (slurm.schedmd.com/salloc.html; the shell holds
    ``SLURM_JOB_NODELIST``), ``nodelist`` here, unless it names its own; None for another command
    or an allocation of several nodes."""
    argv = split_words(command)
    if not argv or argv[0].rsplit("/", 1)[-1] != "srun" or _slurm_options(argv[1:])[0] is not None:
        return None
    target = _srun([f"--nodelist={nodelist}"] + argv[1:], 0)
    return target if target is not None and target.host is not None else None


_ALLOCATED_NODES = re.compile(r"^salloc: Nodes (\S+) are ready for job\s*$", re.M)


def allocated_nodes(output: str) -> str | None:
    """The nodes an interactive ``salloc`` says it holds, ``salloc: Nodes gpu-node-12 are ready
    for job`` (slurm src/salloc/salloc.c, "Nodes %s are ready for job"), else None."""
    found = _ALLOCATED_NODES.findall(output) if "are ready for job" in output else None
    return found[-1] if found else None


def one_node(nodelist: str) -> str | None:
    """The one node a Slurm ``--nodelist`` names, None for several or a file of them. Slurm
    reads a comma-separated list, a range (``gpu[01-04,07]``) or, with a "/" in it, a file
    (slurm.schedmd.com/srun.html, --nodelist): ``gpu[01-02]`` ran on two nodes and is no host
    name (a distilled playbook said ``--host gpu[01-02]``); ``gpu[07]`` is gpu07."""
    if "/" in nodelist:
        return None
    m = re.fullmatch(r"([^\[\],]*)\[(\d+)\]([^\[\],]*)", nodelist)
    if m:
        return m.group(1) + m.group(2) + m.group(3)
    return None if "," in nodelist or "[" in nodelist or not nodelist else nodelist


# pdsh(1) options that take a value (written apart from it or joined to it: "-w gpu09", "-wgpu09").
_PDSH_ARG_OPTS = frozenset({"-w", "-x", "-l", "-t", "-u", "-f", "-R", "-M", "-g", "-X", "-F", "-P", "-j", "-e"})


def _pdsh(args: list[str], depth: int) -> Target | None:
    """``pdsh [options] -w TARGETS command...`` (pdsh(1)): the command line runs on each host
    ``-w`` names, through rcmd (ssh by default), its words joined for the remote shell as ssh's
    are. One host named (``[user@]host``, a one-host range) is where it ran; a list, a range or
    a file of hosts (``^FILE``) is no one host."""
    hosts = user = None
    i = 0
    while i < len(args) and args[i].startswith("-"):
        option, value = args[i][:2], args[i][2:]
        if option in _PDSH_ARG_OPTS and not value:
            value = args[i + 1] if i + 1 < len(args) else ""
            i += 1
        if option == "-w":
            hosts = value
        elif option == "-l":
            user = value
        i += 1
    host = one_node(hosts) if hosts and not hosts.startswith(("^", "-")) else None
    if host is None:
        return None
    if "@" in host:
        user, host = host.rsplit("@", 1)
    remote = " ".join(args[i:])
    nested = parse_target(remote, depth + 1) if remote and depth < 4 else Target(inner=remote)
    if nested.host is not None:  # pdsh gpu09 ssh gpu10: the last hop is the target
        return nested
    return Target(host=host, user=user, container=nested.container, inner=nested.inner)


# aws ssm start-session --target INSTANCE [--document-name DOC] [--parameters P] (AWS CLI
# reference, ssm start-session; the Session Manager plugin opens a shell on the managed
# instance, no sshd in between). AWS-StartInteractiveCommand and AWS-StartNonInteractiveCommand
# run the "command" parameter there, given in the CLI's shorthand (command="nvidia-smi",
# command=["nvidia-smi"]) or as JSON ({"command":["nvidia-smi"]}); a port forwarding document
# runs nothing. The global options may come before "ssm".
_AWS_ARG_OPTS = frozenset({"--target", "--document-name", "--parameters", "--reason", "--region", "--profile",
                           "--output", "--endpoint-url", "--query", "--color", "--ca-bundle", "--cli-read-timeout",
                           "--cli-connect-timeout", "--cli-binary-format"})
_SSM_SHORTHAND = re.compile(r"""command=\[?\s*(?P<q>["']?)(?P<command>.*?)(?P=q)\s*\]?\s*$""", re.S)


def _ssm_session(args: list[str], depth: int) -> Target | None:
    options: dict[str, str] = {}
    verbs, i = [], 0
    while i < len(args):
        name, eq, value = args[i].partition("=")
        if name in _AWS_ARG_OPTS:
            if not eq:
                value = args[i + 1] if i + 1 < len(args) else ""
                i += 1
            options[name] = value
        elif not args[i].startswith("-"):
            verbs.append(args[i])
        i += 1
    instance = options.get("--target")
    if verbs[:2] != ["ssm", "start-session"] or not instance:
        return None
    command = _ssm_command(options.get("--parameters", ""))
    inner = parse_target(command, depth + 1) if command and depth < 4 else Target(inner=command)
    return Target(host=instance, container=inner.container, inner=inner.inner)


def _ssm_command(parameters: str) -> str:
    """The "command" of start-session's --parameters, in JSON or the CLI's shorthand; "" for none."""
    parameters = parameters.strip()
    if parameters.startswith("{"):
        try:
            command = json.loads(parameters).get("command", "")
        except (ValueError, RecursionError, AttributeError):
            return ""
        return " ".join(command) if isinstance(command, list) else str(command)
    m = _SSM_SHORTHAND.match(parameters)
    if m is None:
        return ""
    # the shorthand's quoted value takes \" (or \') and \\ as escapes (aws-cli awscli/shorthand.py
    # _consume_quoted): command=["bash -c \"nvidia-smi -L\""] runs bash -c "nvidia-smi -L"
    command, q = m.group("command"), m.group("q")
    return command.replace("\\" + q, q).replace("\\\\", "\\") if q else command


# mosh's options that take a value, as their own word or after "=" (mobile-shell/mosh
# scripts/mosh.pl, GetOptions: client=s server=s predict=s port=s family=s p=s ssh=s bind-server=s
# experimental-remote-ip=s): ``mosh --server /opt/bin/mosh-server gpu02`` names no host
# "/opt/bin/mosh-server".
_MOSH_ARG_OPTS = frozenset({"--client", "--server", "--predict", "--port", "-p", "--family", "--ssh",
                            "--bind-server", "--experimental-remote-ip"})


def _mosh(args: list[str], depth: int) -> Target | None:
    """``mosh [options] [user@]host [--] [command]`` (mosh(1)); ``-p`` is the UDP port of
    mosh-server, not the ssh port, so it is not reported. ``--ssh='ssh -p 2222 -J bastion'``
    (split into words by mosh.pl: shellwords) is the ssh mosh starts mosh-server with: its port,
    jump host and user are the connection's."""
    i = 0
    rsh = None
    while i < len(args) and args[i].startswith("-") and args[i] != "--":
        name, eq, value = args[i].partition("=")
        if name in _MOSH_ARG_OPTS and not eq:
            value = args[i + 1] if i + 1 < len(args) else ""
            i += 1
        if name == "--ssh":
            rsh = value
        i += 1
    if i < len(args) and args[i] == "--":
        i += 1
    if i >= len(args):
        return None
    user, _, host = args[i].rpartition("@")
    rest = args[i + 1:]
    if rest[:1] == ["--"]:
        rest = rest[1:]
    # mosh shell-quotes the command's words for mosh-server, which execs them as argv (mobile-shell/
    # mosh scripts/mosh.pl: shell_quote( @server )): unlike ssh's, they stay words
    inner = _exec_command(rest) if rest else ""
    nested = parse_target(inner, depth + 1) if inner and depth < 4 else Target(inner=inner)
    via = _rsh_options(rsh) if rsh else None
    if via is None:
        return Target(host=host, user=user or None, container=nested.container, inner=nested.inner)
    # mosh puts the --ssh words before "user@host" (mosh.pl: @ssh first): ssh keeps the first
    # user set, an -l there (as ssh_words reads it)
    return Target(host=host, user=via.user or user or None, port=via.port, jump=via.jump,
                  container=nested.container, inner=nested.inner)


# ``az ssh vm`` / ``az ssh arc`` (Azure CLI ssh extension, azure-cli-extensions src/ssh
# azext_ssh/_params.py): the flags that take a value. The VM is named by --ip, or by --name
# (resolved by Azure); --local-user is the login; the words after "--" go to ssh.
_AZ_SSH_ARG_OPTS = frozenset({"--ip", "--name", "-n", "--vm-name", "--resource-group", "-g", "--local-user",
                              "--port", "--private-key-file", "-i", "--public-key-file", "-p", "--certificate-file",
                              "--cert-file", "-c", "--ssh-client-folder", "--ssh-proxy-folder", "--resource-type",
                              "--resource-id", "--keys-destination-folder", "--keys-dest-folder", "--subscription",
                              "--ssh-args", "--ssh-config-file"})


def _az_ssh(args: list[str], depth: int) -> Target | None:
    values: dict[str, str] = {}
    command = None
    i = 0
    while i < len(args):
        word = args[i]
        if word == "--":
            command = _command_after_ssh_options(args[i + 1:])
            break
        name, eq, value = word.partition("=")
        if not eq and name in _AZ_SSH_ARG_OPTS:
            value = args[i + 1] if i + 1 < len(args) else ""
            i += 1
        values[name] = value
        i += 1
    host = values.get("--ip") or values.get("--name") or values.get("-n") or values.get("--vm-name")
    if not host:
        return None
    port = values.get("--port", "")
    inner = parse_target(command, depth + 1) if command and depth < 4 else Target(inner=command or "")
    return Target(host=host, user=values.get("--local-user") or None, port=int(port) if port.isdigit() else None,
                  container=inner.container, inner=inner.inner)


# su(1) and runuser(1) (util-linux): options that take a value when written apart from it.
_SU_ARG_OPTS = frozenset({"-c", "--command", "-s", "--shell", "-g", "--group", "-G", "--supp-group", "-u", "-w",
                          "--whitelist-environment", "--session-command"})


def _su(args: list[str], depth: int) -> Target | None:
    """``su - deploy -c 'ssh gpu01 ...'`` and ``runuser -u deploy -- ssh gpu01 ...``: the
    command of ``-c``, or the words after ``--``, run as another user; where they run is
    where that command goes."""
    command = None
    i = 0
    while i < len(args) and depth < 4:
        word = args[i]
        if word == "--":
            command = " ".join(_requote(w) for w in args[i + 1:])
            break
        name, eq, value = word.partition("=")
        if name in ("-c", "--command", "--session-command"):
            command = value if eq else (args[i + 1] if i + 1 < len(args) else "")
        elif word.startswith("-c") and len(word) > 2 and not word.startswith("--"):
            command = word[2:]
        i += 2 if (not eq and word in _SU_ARG_OPTS) else 1
    if not command:
        return None
    inner = parse_target(command, depth + 1)
    return inner if inner.host is not None or inner.container is not None else None


def _watch(args: list[str], depth: int) -> Target | None:
    """``watch -n 5 ssh gpu01 nvidia-smi`` (procps watch(1)): the words after the options are
    joined and run by ``sh -c``, so they are one command line."""
    i = 0
    while i < len(args) and args[i].startswith("-") and args[i] != "--":
        i += 2 if args[i] in ("-n", "--interval", "-q", "--equexit") else 1
    if i < len(args) and args[i] == "--":
        i += 1
    if i >= len(args) or depth >= 4:
        return None
    inner = parse_target(" ".join(args[i:]), depth + 1)
    return inner if inner.host is not None or inner.container is not None else None


def _exec_command(argv: list[str]) -> str:
    """The command a ``docker exec``/``kubectl exec`` runs: the script of ``bash -c SCRIPT``
    (how a pipeline is run in a container), else its words as one command line."""
    if len(argv) >= 3 and argv[0].rsplit("/", 1)[-1] in _SHELLS and argv[1].startswith("-") \
            and not argv[1].startswith("--") and "c" in argv[1]:
        return argv[2]
    if ">" in argv or "<" in argv:
        # `docker exec sglang nvidia-smi > out.txt 2>&1`: the redirections are the local shell's,
        # as an ssh's are (:func:`_before_redirection`): the container runs `nvidia-smi` (was
        # "nvidia-smi '>' out.txt", a `>` quoted into an argument that distill wrote into a step);
        # an input one stays as it was typed (`docker exec -i c bash < check.sh`: a local script)
        argv = _before_redirection(argv)
        if argv[-1:] == ["&"]:  # `&>`: split_words cut it in two
            argv = argv[:-1]
        return " ".join(word if word == "<" else _requote(word) for word in argv)
    return " ".join(map(_requote, argv))


# What a shell would not read back as the same one word: a blank or newline splits it, quotes,
# a backslash, operators and $ or ` are syntax, a glob (* ? [) matches file names where it is run
# (``find / -name '*.log'`` must not become ``-name *.log``), a leading # starts a comment.
_NEEDS_QUOTES = re.compile(r"""[\s'"\\;&|()<>$`*?\[]|\A#""").search


def _requote(word: str) -> str:
    """A word again as the shell would read it back as that one word (quoted when it must be)."""
    return word if word and not _NEEDS_QUOTES(word) else "'" + word.replace("'", "'\\''") + "'"


def _kubectl(args: list[str], depth: int) -> Target | None:
    pod = None
    i = 0
    while i < len(args):
        word = args[i]
        if word == "--":
            i += 1
            break
        if word.startswith("-"):
            i += 2 if word in _KUBECTL_ARG_OPTS else 1
            continue
        if pod is None:
            pod = word
            i += 1
            continue
        break
    if pod is None:
        return None
    return Target(container=f"pod:{pod.split('/', 1)[-1]}", inner=_exec_command(args[i:]))


# -- what kind of diagnostic a command is ---------------------------------------------

CATEGORY_TITLES = {
    "launch_server": "Launching the server",
    "benchmark": "Benchmarking",
    "run_test": "Running tests",
    "read_source": "Reading source code",
    "inspect_config": "Inspecting configs and checkpoints",
    "logs": "Reading logs",
    "gpu_status": "Checking the GPUs",
    "process": "Inspecting processes",
    "stop_process": "Stopping processes",
    "edit": "Editing code",
    "transfer": "Copying files",
    "health": "Probing the server",
    "python": "Running Python",
    "other": "Running commands",
}
# replace and write_file: Gemini CLI's Edit and WriteFile (google-gemini/gemini-cli
# docs/tools/file-system.md), named as Claude Code's Edit and Write are; edit, write, multiedit
# and patch: OpenCode's (sst/opencode packages/opencode/src/tool/*.ts) and Crush's edit, write and
# multiedit (charmbracelet/crush internal/llm/tools/); edit: Qwen Code's; WriteFile and
# StrReplaceFile: Kimi CLI's (MoonshotAI/kimi-cli src/kimi_cli/tools/file/); Create: Factory
# Droid's Write (its Read and Edit are Claude Code's names)
_EDIT_TOOLS = frozenset({"Edit", "Write", "MultiEdit", "NotebookEdit", "apply_patch", "str_replace_based_edit_tool",
                         "replace", "write_file", "edit", "write", "multiedit", "patch", "WriteFile", "StrReplaceFile",
                         "Create"})
# read_file: Gemini CLI's ReadFile (same docs), Cline's; read_many_files (its path the first
# source file of ``paths`` or ``include``, formats.common.tool_path), search_file_content, glob and
# list_directory: Gemini CLI's ReadManyFiles, SearchText, FindFiles and ReadFolder; grep_search:
# SearchText as the CLI names it now (gemini-cli packages/core/src/tools/definitions/
# base-declarations.ts GREP_TOOL_NAME) and Qwen Code does; read, grep, glob and list: OpenCode's;
# view, grep, glob and ls: Crush's; ReadFile: Kimi CLI's; grep_files and list_dir: Codex's, beside
# its read_file (openai/codex codex-rs/core/src/tools/spec.rs create_grep_files_tool, create_list_dir_tool);
# LS{path}: Claude Code's folder listing of 2025, and Droid's
_READ_TOOLS = frozenset({"Read", "Grep", "Glob", "View", "read_file", "read_many_files", "search_file_content",
                         "glob", "list_directory", "grep_search", "read", "grep", "list", "view", "ls",
                         "ReadFile", "grep_files", "list_dir", "LS"})
# Tools that read a web page, whose path is the URL (formats.common.fetched_url): Claude Code's
# WebFetch, Gemini CLI's and the Anthropic API's web_fetch, an OpenAI chat tool named fetch or
# browser, Codex's hosted web_search when it opens a page (action open_page / find_in_page)
FETCH_TOOLS = frozenset({"WebFetch", "web_fetch", "fetch", "browser", "web_search"})


def is_fetch_tool(name: str | None) -> bool:
    """One of FETCH_TOOLS, or an MCP server's tool of that name: the reference fetch server
    (modelcontextprotocol/servers src/fetch, tool ``fetch{url}``) is ``mcp__fetch__fetch`` in Claude Code."""
    if not name:
        return False
    return name in FETCH_TOOLS or (name.startswith("mcp__") and name.rsplit("__", 1)[-1] in FETCH_TOOLS)


# Tools that search the web, whose result is others' pages: Claude Code's WebSearch, Gemini CLI's
# google_web_search (google-gemini/gemini-cli packages/core/src/tools/tool-names.ts
# WEB_SEARCH_TOOL_NAME), or an MCP server's tool so named
SEARCH_TOOLS = frozenset({"WebSearch", "google_web_search", "web_search"})


def reads_the_web(name: str | None, url: str | None = None) -> bool:
    """A fetch (:func:`is_fetch_tool`) or web search tool: what it returns is pages others wrote,
    unless the URL is the session's own machines' (``http://localhost:30000/generate``, a
    private address, a bare host name such as ``gpu01:30000``): that answer is its server's."""
    if not name or not (is_fetch_tool(name) or name in SEARCH_TOOLS
                        or (name.startswith("mcp__") and (name.rsplit("__", 1)[-1] in SEARCH_TOOLS
                                                         or _mcp_reads_pages(name)))):
        return False
    return not (url and _LOCAL_URL.match(url))  # (the URL looked at for a web tool's call alone)


# MCP servers that answer with others' pages whatever their tool: Context7 (upstash/context7, library
# docs), DeepWiki (read_wiki_contents, ask_question), Exa (exa-labs/exa-mcp-server), Tavily
# (tavily-ai/tavily-mcp), Brave Search, Perplexity, Firecrawl (mendableai/firecrawl-mcp-server)
_PAGE_SERVERS = frozenset({"context7", "deepwiki", "exa", "tavily", "brave", "brave-search", "perplexity",
                           "firecrawl", "firecrawl-mcp", "arxiv", "stackoverflow"})
# Words of a tool's name that say it reads docs, a wiki, a forge's issues or pull requests, or
# searches the web (github/github-mcp-server's get_issue, search_issues, get_pull_request;
# a docs server's search_docs, get-library-docs)
_PAGE_WORDS = frozenset({"docs", "doc", "documentation", "wiki", "issue", "issues", "pull", "pulls",
                         "discussion", "discussions", "web", "websearch", "library"})
# Words of a tool's name that say it runs something (an SSH or shell server's execute_command,
# run_command, ssh_exec): its errors are the command's, the session's own
_RUN_WORDS = frozenset({"ssh", "shell", "exec", "execute", "command", "cmd", "run", "bash", "terminal",
                        "process", "kubectl", "docker", "job", "jobs", "logs", "log", "workflow"})
_NAME_WORDS = re.compile(r"[a-z0-9]+")


def _mcp_reads_pages(name: str) -> bool:
    """``mcp__<server>__<tool>`` is a docs or web-search server's tool (:data:`_PAGE_SERVERS`), or
    its words name docs, a wiki, issues or the web (:data:`_PAGE_WORDS`), and none names running
    something (:data:`_RUN_WORDS`: an SSH server's execute_command reports the command's errors)."""
    server, _, tool = name[5:].partition("__")
    words = set(_NAME_WORDS.findall(f"{server} {tool}".lower()))
    if words & _RUN_WORDS:
        return False
    return server.lower() in _PAGE_SERVERS or bool(words & _PAGE_WORDS)


_LOCAL_URL = re.compile(r"(?:https?://)?(?:localhost|127\.|0\.0\.0\.0|\[::1\]|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\."
                        r"|[^/.:\s]+(?::\d+)?(?:/|$))", re.I)


_READERS = frozenset({"grep", "rg", "cat", "sed", "head", "tail", "less", "more", "awk", "nl", "bat", "ag", "find", "ls"})


_LAUNCH = re.compile(r"sglang\.launch_server|sglang serve|vllm serve|vllm\.entrypoints|launch_server")
# `vllm bench serve|throughput|latency` (vLLM's CLI since the benchmarks moved into the package,
# vllm/benchmarks/), every `python -m sglang.bench_*` (bench_serving, bench_one_batch_server,
# bench_offline_throughput), and vLLM's examples that print the acceptance length of a
# speculative run (examples/offline_inference/spec_decode.py, eagle.py before it).
_BENCH = re.compile(r"bench_serving|bench_one_batch|benchmark_serving|\bbench\w*\.py|\bvllm\s+bench\s+\w"
                    r"|sglang\.bench_\w|offline_inference/(?:spec_decode|eagle)\.py")
_EDIT = re.compile(r"\bsed\s+-i|\bpatch\b|apply_patch|cat\s+>\s*\S+|tee\s+\S+\.py|\bperl\s+-pi")
# pytest's own temporary folders (/tmp/pytest-of-USER/pytest-N/, pytest docs: tmp_path) name no
# test run: a heredoc script that cds there reads a config.
_TEST = re.compile(r"\bpytest\b(?!-of-|-\d+/)|test_\w+\.py|\w+_test\.py")
_GPU = re.compile(r"nvidia-smi|nvtop|rocm-smi|gpustat")
# A probe of the inference server: its health, metrics and model endpoints (SGLang
# python/sglang/srt/entrypoints/http_server.py: /health, /health_generate, /get_server_info,
# /get_model_info, /metrics, /generate; vLLM vllm/entrypoints/openai/api_server.py: /health,
# /metrics, /version, /v1/models, /v1/chat/completions), named anywhere in the line (a client
# script given the server's /v1/ or /health URL too; the other names only after a host or a
# port: ``cat /proc/version`` reads a file). curl or wget to any other URL is no probe of the
# server: ``curl -O https://huggingface.co/.../model.safetensors`` is a download.
_HEALTH = re.compile(r"/v1/|/health|(?:://[^\s/'\"]+|:\d+)/(?:get_server_info|get_model_info|metrics|version"
                     r"|generate)(?=$|[\s'\"?#&;|)/])")
# The server's root polled until it answers (``while ! curl -s localhost:30000; do sleep 5; done``):
# a URL that is a host and a port and nothing more
_SERVER_ROOT = re.compile(r"\b(?:curl|wget)\b[^|;&]*?[\w.\]-]:\d+/?(?=$|[\s'\";&|)])")
# curl -o FILE / -O / --output / --remote-name[-all] (curl(1)), or wget, whose default is to save
_DOWNLOAD = re.compile(r"\bwget\b|\bcurl\b.*\s(?:-[a-zA-Z]*[oO]|--output\b|--remote-name)")
_SOURCE = re.compile(r"\.py\b|site-packages")
_SOURCE_URL = re.compile(r"\.(?:py|cu|cuh|cpp|h)(?:[?#]|$)", re.I)
_LOG = re.compile(r"\.log\b|/logs?/")
_CONFIG = re.compile(r"config\.json|\.safetensors|\.json\b")
_TRANSFER = re.compile(r"^\s*(?:scp|rsync)\b")


def is_read_tool(name: str | None) -> bool:
    """A file tool that reads or searches files (_READ_TOOLS): Read, Grep, read_file..."""
    return name in _READ_TOOLS


_NOTES_SUFFIXES = (".md", ".markdown", ".rst", ".adoc", ".org")


def is_notes_path(path: str) -> bool:
    """A path a file tool reads as a prose document: Markdown, reStructuredText, AsciiDoc or Org
    (NOTES.md, SUMMARY.md, a README), written by a person or an earlier session, no log."""
    return path.lower().endswith(_NOTES_SUFFIXES)


_PAGERS = frozenset({"cat", "less", "more", "head", "tail", "bat", "batcat"})
_TEXT_FILTERS = frozenset({"head", "tail", "grep", "less", "more"})


def shows_notes(command: str) -> bool:
    """A command that only shows prose documents, as a file tool's read of them does (is_notes_path):
    ``cat NOTES.md``, ``head -n 40 docs/incident.rst | grep tok``. Not one that also shows a log
    (``cat NOTES.md server.log``) nor one that runs anything else (``cat NOTES.md && ./bench.sh``)."""
    lowered = command.lower()
    if not any(suffix in lowered for suffix in _NOTES_SUFFIXES):  # cheap: most commands name none
        return False
    line = status_pipeline(command)
    if not line or line[0][0] not in _PAGERS or any(argv[0] not in _TEXT_FILTERS for argv in line[1:]):
        return False
    files = [w for w in line[0][1:] if not w.startswith(("-", "+")) and not w.isdigit()]  # head -n 40
    return bool(files) and all(is_notes_path(f) for f in files)


def is_source_path(path: str) -> bool:
    """A path a file tool reads as source code: a .py file, or anything under site-packages."""
    return path.endswith(".py") or "site-packages" in path


def categorize(command: str | None, tool_name: str | None = None, path: str | None = None) -> str:
    """Coarse kind of a diagnostic step; a change of kind after an error is a pivot."""
    if command is None:
        if tool_name in _EDIT_TOOLS:
            return "edit"
        if tool_name in _READ_TOOLS:
            return "read_source" if is_source_path(path or "") else "inspect_config"
        if path and _SOURCE_URL.search(path) and is_fetch_tool(tool_name):
            return "read_source"  # a source file on GitHub, raw or shown (blob/), or any .py page
        return "other"
    return _categorize_command(command)


@lru_cache(maxsize=4096)
def _categorize_command(command: str) -> str:
    target = parse_target(command)
    inner = target.inner or command
    if target.host and _TRANSFER.match(inner):
        return "transfer"
    low = inner.lower()
    # Each alternation below is tried at every offset (~2 us on a 45-character command); a
    # literal that every branch of it contains rules it out first (~0.05 us an ``in``).
    if ("serve" in low or "entrypoints" in low) and _LAUNCH.search(low) and _launches(inner):
        return "launch_server"
    if ("bench" in low or "offline_inference/" in low) and _BENCH.search(low):
        return "benchmark"
    if ("sed" in low or "patch" in low or "cat" in low or "tee" in low or "perl" in low) and _EDIT.search(low):
        return "edit"
    if "test" in low and _TEST.search(low) and _runs_tests(inner):
        return "run_test"
    if ("smi" in low or "nvtop" in low or "gpustat" in low) and _GPU.search(low):
        return "gpu_status"
    if ("/v1/" in low or "/health" in low or "/get_" in low or "/metrics" in low or "/version" in low
            or "/generate" in low) and _HEALTH.search(low):
        return "health"
    if "curl" in low or "wget" in low:
        if _SERVER_ROOT.search(low):
            return "health"
        if _DOWNLOAD.search(inner):
            return "transfer"
    # The main command's words without their paths, of which most commands need only the
    # first: the others are named only where one of the tests below reads them.
    argv = _main_argv(inner)
    first = argv[0].rsplit("/", 1)[-1] if argv else ""
    words = None
    if first in _SHELLS and len(argv) > 2:
        words = _base_names(argv)
        if words[1].startswith("-") and "c" in words[1] and not words[1].startswith("--"):
            script = _main_script(inner)
            if " " in script.strip() and script != inner:
                return _categorize_command(script)  # sudo -u svc bash -c 'tail -n 50 x.log'
            # ssh joins its words with spaces, so "ssh h bash -c 'tail -n 50 x.log'" runs a script
            # of one word ("tail"); the words after it still say what was meant
            words = words[2:]
            first = words[0] if words else ""
    if first in _READERS:
        # each pattern's literal first (\.py or site-packages; \.log or /log): an ``in`` costs a
        # tenth of the alternation's scan
        if (".py" in low or "site-packages" in low) and _SOURCE.search(low):
            return "read_source"
        if (".log" in low or "/log" in low) and _LOG.search(low):
            return "logs"
        return "inspect_config"
    if first in ("jq", "python", "python3") and _CONFIG.search(low):
        return "inspect_config"
    if first in ("journalctl", "dmesg") or (first in ("docker", "podman", "kubectl", "oc") and "logs" in (
            words if words is not None else _base_names(argv))[1:4]):
        return "logs"
    if first in ("ps", "pgrep", "top", "htop"):
        return "process"
    # A kill is no look at the processes: a phase of them, or a change of approach to one, is
    # the agent stopping something (a stuck server, a process holding the GPU)
    if first in ("pkill", "kill", "killall") or (first == "fuser" and any(_FUSER_KILL.match(w) for w in (
            words if words is not None else _base_names(argv))[1:])):
        return "stop_process"
    if first.startswith("python"):
        return "python"
    return "other"


_FUSER_KILL = re.compile(r"-[a-zA-Z]*k|--kill$")
"""fuser's -k (alone or among its letters, ``-vk``, ``-kn``): it kills the processes it finds."""


# Programs that only name a file: `cat tests/test_export.py`, `git add tests/test_export.py`,
# `ls /tmp/test_drafter.py` read, stage or list a test; they run none.
_NAMES_FILES = _READERS | frozenset({"git", "cp", "mv", "rm", "scp", "rsync", "chmod", "stat", "file", "wc", "diff",
                                     "vim", "vi", "nano", "code", "touch", "echo", "tar", "sha256sum", "md5sum"})


def _runs_tests(command: str) -> bool:
    """Some command of the line runs a test (pytest, or a program given a test file), not one
    that only reads, stages or lists the file."""
    return any(argv[0].rsplit("/", 1)[-1] not in _NAMES_FILES and _TEST.search(" ".join(argv).lower())
               for argv in _programs(command))


# Steps that only set the scene for the command after them: "cd /sgl && grep -rn ...",
# "source ~/venv/bin/activate && python -m sglang.bench_serving ...".
_SETUP = frozenset({"cd", "pushd", "source", ".", "export", "set", "ulimit", "umask", "conda", "module"})


def _programs(command: str) -> Iterator[list[str]]:
    """Each command of the line without its wrappers (sudo, env, ...); empty ones left out."""
    for argv in _segments_of(command) if command.strip() else ():
        argv = _unwrap(list(argv))
        if argv:
            yield argv


def program_names(command: str) -> list[str]:
    """The programs a line runs, in order, without their wrappers (sudo, env, ...) or paths."""
    return [argv[0].rsplit("/", 1)[-1] for argv in _programs(command)]


def _main_argv(command: str) -> list[str]:
    """The first command of a line that is not setup nor a wait before another (``sleep 120;
    grep ...``), without its wrappers (sudo, env, ...)."""
    first = None
    for argv in _programs(command):
        name = argv[0].rsplit("/", 1)[-1]
        if name in _SETUP:
            continue
        if name != "sleep":
            return argv
        first = first or argv  # `sleep 120; grep 'Decode batch' server.log`: the wait, then the command
    return first or []


_LOOKERS = _READERS | frozenset({"ps", "pgrep", "pkill", "kill", "killall", "pidof", "echo", "which", "file", "stat"})
"""Programs that name a launch command without running it: a process lookup (``ps aux | grep
sglang.launch_server``, ``pkill -f launch_server``) or a read of the launch script."""


def _launches(command: str) -> bool:
    """Some command of the line that runs the server names it: was any mention, so a check that
    the server is up (``ps aux | grep sglang.launch_server``) was a launch, which distill leaves
    out of a playbook (it changes things) and whose model the benchmarks after it were taken for."""
    return any(argv[0].rsplit("/", 1)[-1] not in _LOOKERS and _LAUNCH.search(" ".join(argv).lower())
               and not _HELP_WORDS.intersection(argv) for argv in _programs(command))


_HELP_WORDS = frozenset({"--help", "-h", "--help=all"})
"""A launch line that asks for the usage (``python -m sglang.launch_server --help``, ``vllm serve
--help``): argparse prints it and exits, no server starts (was a launch: the postmortem said the
agent "moved from launching the server" after reading the flags)."""


def launch_words(command: str) -> str | None:
    """The words of the commands of a line that run a server (their ``VAR=x`` prefixes kept),
    without the files their output is redirected to; None where none runs one. ``nohup python -m
    sglang.launch_server ... > /tmp/nospec.log 2>&1 & echo $!`` launches with the flags before
    ``>``: the log's name and the ``echo $!`` after ``&`` say nothing of how the server runs."""
    found = []
    for argv in _segments_of(command) if command.strip() else ():
        bare = _unwrap(list(argv))
        if not bare or bare[0].rsplit("/", 1)[-1] in _LOOKERS or not _LAUNCH.search(" ".join(bare).lower()):
            continue
        words, skip = [], False
        for k, word in enumerate(argv):
            if skip:
                skip = False
            elif word == ">":
                # split_words cuts ">>" into two ">" and "2>" into "2" and ">": the file is after the last
                skip = k + 1 == len(argv) or argv[k + 1] != ">"
            elif not (len(word) == 1 and word in "012" and k + 1 < len(argv) and argv[k + 1] == ">"):
                words.append(word)
        found.append(" ".join(words))
    return " ; ".join(found) if found else None


# Programs that run a script named among their arguments (``python -u eval.py``, ``torchrun
# --nproc-per-node 8 train.py``, ``accelerate launch``, ``uv run``, ``sbatch job.slurm``), and the
# file names such a script has.
_RUNS_SCRIPT = re.compile(r"python[\d.]*|pypy3?|bash|sh|zsh|dash|torchrun|deepspeed|accelerate|uv|node|perl|sbatch")
_SCRIPT_NAME = re.compile(r"[\w./+~-]*[\w+-]\.(?:py|sh|bash|slurm|sbatch|pl|js)")


def script_run(command: str) -> str:
    """The file name of the script a line runs: ``./run_eval.sh --n 100`` runs run_eval.sh,
    ``cd /data && python scripts/bench.py`` and ``torchrun --nproc 2 train.py`` bench.py and
    train.py; "" where it runs a program by name (``nvidia-smi``, ``python -m ...``, ``bash -c``)."""
    argv = _main_argv(command)
    if not argv:
        return ""
    name = argv[0].rsplit("/", 1)[-1]
    if not _RUNS_SCRIPT.fullmatch(name):
        return name if "/" in argv[0] and name else ""  # ./run_eval.sh, ~/bin/serve
    for word in argv[1:]:
        if word in ("-c", "-m", "-e", "--wrap"):
            return ""  # code or a module given inline, no file
        if _SCRIPT_NAME.fullmatch(word):
            return word.rsplit("/", 1)[-1]
    return ""


def sole_program(command: str) -> str:
    """The program of a line that runs one (setup such as ``cd`` and ``source`` aside, wrappers
    such as ``sudo`` unwrapped): the line's exit status is that program's. "" for a pipeline or
    a list of several (``curl ... | jq .`` exits with jq's status)."""
    programs = [prog for argv in _programs(command) if (prog := argv[0].rsplit("/", 1)[-1]) not in _SETUP]
    return programs[0] if len(programs) == 1 else ""


def only_setup(command: str) -> bool:
    """The line runs setup alone (:data:`_SETUP`: ``cd /root/sglang``, ``source venv/bin/activate
    && cd src``): no program of its own."""
    found = False
    for argv in _programs(command):
        if argv[0].rsplit("/", 1)[-1] not in _SETUP:
            return False
        found = True
    return found


_PYTHON_REPL = re.compile(r"(?:python(?:\d(?:\.\d+)?)?|ipython\d?)")
"""Programs that open an interactive Python prompt when given no script (``python3``,
``python3.12``, ``ipython``)."""


def opens_repl(command: str) -> bool:
    """The line runs one Python interpreter at its prompt: ``python3`` with no script, module or
    code (``-q``, ``-u`` and the like aside), or with ``-i``, which gives the prompt after the
    script ran (python(1), ``-i``). A traceback in its output is a statement's, typed at the
    prompt, not the interpreter's end."""
    argvs = [argv for argv in _programs(command) if argv[0].rsplit("/", 1)[-1] not in _SETUP]
    if len(argvs) != 1 or not _PYTHON_REPL.fullmatch(argvs[0][0].rsplit("/", 1)[-1]):
        return False
    args = argvs[0][1:]
    return "-i" in args or all(a.startswith("-") and a not in ("-c", "-m", "-") for a in args)


def _base_names(argv: list[str]) -> list[str]:
    """Each word without its path (``/usr/bin/docker`` is ``docker``)."""
    return [w.rsplit("/", 1)[-1] for w in argv]


def _main_script(command: str) -> str:
    """The script of ``bash -c SCRIPT`` when that is the main command."""
    argv = _main_argv(command)
    return argv[2] if len(argv) > 2 else ""


@lru_cache(maxsize=4096)
def reads_source_only(command: str) -> bool:
    """Every command of the line prints files (cat, sed -n, grep, ...) and they are source
    files, no log: its output is code, whatever error names it holds."""
    low = command.lower()
    if not _SOURCE.search(low) or _LOG.search(low):
        return False
    argvs = _segments_of(command) if command.strip() else ()
    for argv in argvs:
        argv = _unwrap(list(argv))
        if argv and argv[0].rsplit("/", 1)[-1] not in _READERS and argv[0].rsplit("/", 1)[-1] not in _SETUP:
            return False
    return bool(argvs)


# Programs whose exit status 1 means "nothing found" or "not equal", not a failure: grep(1)
# ("1 if no lines were selected, 2 if an error occurred"), rg, pgrep(1), diff(1), cmp, test;
# which(1) ("1 if one or more specified commands is nonexistent or not executable", debianutils
# which.1) and pidof(1) ("1 At least one program was not found", procps-ng pidof.1): `which nvcc`
# on a host without the CUDA toolkit answered, and was the postmortem's "First error".
_SELECTORS = frozenset({"grep", "egrep", "fgrep", "zgrep", "rg", "ag", "pgrep", "diff", "cmp", "test", "[", "[[",
                        "which", "pidof"})


def selects_lines(command: str) -> bool:
    """The exit status of ``command`` is a selector's (the last command of its pipeline or
    list is grep, rg, pgrep, diff or test), so 1 means "nothing matched"."""
    return last_program(command) in _SELECTORS


@lru_cache(maxsize=4096)
def last_program(command: str) -> str:
    """The program of the last command of ``command``'s pipeline or list, whose exit status is
    the line's ("" where there is none)."""
    argvs = _segments_of(command) if command.strip() else ()
    if not argvs:
        return ""
    argv = _unwrap(list(argvs[-1]))
    return argv[0].rsplit("/", 1)[-1] if argv else ""


_GOES_ON = frozenset({";", "\n", "||"})
"""Operators after which the list goes on whatever the command before them did: its status is
then a later command's (bash(1), Lists: "commands separated by a ; are executed sequentially ...
The return status is the exit status of the last command executed"; ``a || b`` runs b when a
failed). fish's ``; and b`` runs b only after a success, so it goes on no further."""


@lru_cache(maxsize=1024)
def ran_on_after(command: str, program: str) -> bool:
    """Whether ``command``'s list went on past a command that ran ``program`` and no later
    command ran it: a shell's "command not found" for ``program`` (exit 127) is then not the
    line's status (``nvidia-smi -L; echo gpus`` ends with echo's 0)."""
    if not program or last_program(command) == program:
        return False
    words = split_words(_one_text(command), _WORD_LINES) if "\n" in command else split_words(command)
    current: list[str] = []
    for k, word in enumerate(words):
        if word not in _CONTROL or (word == "&" and _redirects(words, k)):
            current.append(word)
            continue
        argv = _unwrap(current)
        if word in _GOES_ON and argv and argv[0].rsplit("/", 1)[-1] == program \
                and k + 1 < len(words) and words[k + 1] not in ("and", "or"):
            return True
        current = []
    return False


_NUM = re.compile(r"\d+")


@lru_cache(maxsize=4096)
def template(command: str) -> str:
    """The command with numbers masked, for loop detection (a poor man's Drain template;
    He et al., ICWS 2017)."""
    # Each run of whitespace made one space, the ends stripped: " ".join(split()) is
    # re.sub(r"\s+", " ", ...).strip() (\s of a str pattern, str.split() and str.strip() all
    # take the characters str.isspace() names) without a second regex pass.
    return " ".join(_NUM.sub("N", command).split())[:300]
