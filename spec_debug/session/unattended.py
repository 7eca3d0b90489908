"""A session's command as a playbook step that runs with no one at a terminal.

A session is typed at a terminal (or by an agent whose tool has one); a step runs over a pipe,
with no TTY and no one to type or to quit. So the distilled playbook leaves out what only works
interactively (an editor, a bare REPL, a login shell, ``tmux attach``), runs a full-screen
monitor once (``top -b -n 1``), asks ``docker exec`` for no TTY, and
runs a container's command on the host itself rather than through the ssh hop the session
used to reach that host.
"""

from __future__ import annotations

import re
import shlex

from spec_debug.session.shell import segments, split_words, ssh_words
from spec_debug.session.shell_words import shell_scripts
from spec_debug.session.status_echo import STATUS
from spec_debug.session.terminal_wait import command_waits, waits_at_terminal

_EDITORS = frozenset({"vi", "vim", "nvim", "view", "nano", "pico", "emacs", "micro", "joe", "mcedit"})
_FULL_SCREEN = frozenset({"htop", "btop", "bpytop", "nvtop", "glances", "atop", "iftop", "iotop", "mc"})
"""Monitors with no batch mode worth a step (atop and iotop have one: `-b`; left to the user)."""
_WAITING_WHY = {"shell": "an interactive shell", "interpreter": "an interactive interpreter",
                "multiplexer": "attaching to a terminal session"}

_EXEC_VALUE_OPTIONS = frozenset({"-e", "--env", "--env-file", "-u", "--user", "-w", "--workdir", "--detach-keys",
                                 "-c", "--container", "-n", "--namespace", "-f", "--filename", "--pod-running-timeout",
                                 "--context", "--kubeconfig"})
"""Options of ``docker exec`` (docs.docker.com, docker container exec) and ``kubectl exec`` that
take a value: the word after them is no container name."""


def interactive(inner: str, *, host: str | None = None, container: str | None = None) -> str | None:
    """Why ``inner`` (the command that ran on ``host``/in ``container``) only works with someone
    at a terminal, or None. Such a command is left out of a playbook: over a pipe a REPL reads
    an empty stdin and exits having checked nothing, an editor or ``tmux attach`` wait for
    keys, ``ssh gpu01`` with no command opens a login shell."""
    text = inner.strip()
    if host and not text:
        return "an interactive login (ssh with no command)"
    # `ssh -t gpu02 "cd ~/sglang && bash"`: the list ends by opening a shell, a REPL or a tmux
    # session, which waits for keys as one typed alone does (`echo ls | bash` reads its pipe)
    if waiting := waits_at_terminal(text):
        return _WAITING_WHY[waiting] + (" in the container" if waiting == "shell" and container else "")
    commands = _commands(text)
    if commands and command_waits(commands[0]) == "multiplexer":
        return _WAITING_WHY["multiplexer"]  # `tmux attach -t bench; echo done`: it waits first
    for argv in commands:
        prog = argv[0].rsplit("/", 1)[-1]
        if prog in _EDITORS:
            return f"an editor ({prog})"
        if prog == "ssh" and _ssh_destination(argv[1:])[1] == "":
            return "an interactive login (ssh with no command)"  # a shell log's `ssh gpu01`, typed
        if prog in _FULL_SCREEN or (prog == "nvitop" and not {"-1", "--once"} & set(argv)):
            return f"a full-screen monitor ({prog})"
    # a script a shell reads from a heredoc (`sudo bash <<'EOF'` + `vim /etc/x`) runs its own
    # commands: an editor in it waits for keys as one typed does
    for script in shell_scripts(text) if "<<" in text else ():
        if why := interactive(script, container=container):
            return why
    return None


def run_once(text: str) -> str:
    """``top`` as the same check run once: in batch mode for one iteration (procps top(1): -b,
    -n); without a terminal plain ``top`` stops at once with "failed tty get". Any other line
    is returned as it is, but ``watch CMD``, which is ``CMD`` run once."""
    try:
        words = shlex.split(text)
    except ValueError:
        return text
    if not words or any(w in ("|", "||", "&&", ";", "&") for w in words) or "\n" in text:
        return text
    prog = words[0].rsplit("/", 1)[-1]
    if prog == "top" and not any(re.fullmatch(r"-\w*[bn]\w*", w) for w in words[1:]):
        return text.strip() + " -b -n 1"
    if prog == "watch":
        return _watched_once(words[1:]) or text
    return text


# watch(1) (procps-ng) options that take a value; every other option stands alone.
_WATCH_VALUE_OPTIONS = frozenset({"-n", "--interval", "-q", "--equexit"})


def _watched_once(args: list[str]) -> str | None:
    """The command ``watch`` repeats, run once: watch draws with curses, and with no terminal
    (a playbook step over ssh has no TERM) it stops at once ("Error opening terminal:
    unknown"). watch joins its remaining words with spaces and hands them to ``sh -c``, or
    runs them as they are with ``-x``."""
    exec_words, i = False, 0
    while i < len(args) and args[i].startswith("-") and args[i] != "-":
        word = args[i]
        if word == "--":
            i += 1
            break
        if word in ("-x", "--exec"):
            exec_words = True
        i += 2 if word in _WATCH_VALUE_OPTIONS else 1
    rest = args[i:]
    if not rest:
        return None
    return shlex.join(rest) if exec_words else " ".join(rest)


def without_tty(text: str) -> str:
    """``docker exec -it c cmd`` as ``docker exec -i c cmd``: with no terminal on stdin docker
    refuses ``-t`` ("the input device is not a TTY", docker/cli#2512) and kubectl warns
    ("Unable to use a TTY"). The same for podman, nerdctl, kubectl and oc."""
    out, pos = [], 0
    tokens = list(re.finditer(r"\S+", text))
    for k, tok in enumerate(tokens):
        if tok.group(0) != "exec" or not _exec_program(tokens[:k]):
            continue
        j = k + 1
        # kubectl's own options may follow the pod up to `--` (the kubectl exec reference's own
        # example: `kubectl exec mypod -c ruby-container -i -t -- bash -il`); docker's end at the
        # container, whose command's options they are after it
        pod = _exec_program(tokens[:k], "kubectl", "oc")
        while j < len(tokens):
            word = tokens[j].group(0)
            if word == "--" or not word.startswith("-") and not pod:
                break
            if not word.startswith("-"):  # the pod: kubectl's options go on after it
                pod, j = False, j + 1
                continue
            kept = _option_without_t(word)
            if kept != word:
                start, end = tokens[j].span()
                if not kept:  # drop the word and the space before it
                    start = tokens[j - 1].end()
                out.append(text[pos:start] + kept)
                pos = end
            j += 2 if word in _EXEC_VALUE_OPTIONS else 1
    out.append(text[pos:])
    return "".join(out)


def host_command(command: str, host: str) -> str | None:
    """The command ``command`` had ``host`` run, past every ssh hop that reached it:
    ``ssh -p 2222 alice@gpu01 'docker exec sglang nvidia-smi'`` -> ``docker exec sglang
    nvidia-smi``. ssh joins its remaining words with spaces into the one line the remote shell
    runs (ssh(1), DESCRIPTION). None when no ssh of the line reaches ``host`` with a command."""
    for argv in segments(split_words(command)):
        at = next((i for i, w in enumerate(argv) if w.rsplit("/", 1)[-1] == "ssh"), None)
        if at is None:
            continue
        dest, remote = _ssh_destination(argv[at + 1:])
        if dest is None or not remote:
            continue
        if dest.rpartition("@")[2].strip("[]") == host:
            return remote
        hop = host_command(remote, host)  # ssh bastion ssh gpu01 'docker exec ...'
        if hop is not None:
            return hop
    return None


def _ssh_destination(args: list[str]) -> tuple[str | None, str]:
    """(destination, remote command) of ssh's arguments after the program name, read by the
    analyzer's own parser (``shell.ssh_words``): options after the destination belong to ssh
    (``ssh gpu01 -p 2222 nvidia-smi`` runs ``nvidia-smi``, not ``-p 2222 nvidia-smi``)."""
    words = ssh_words(args)
    dest = words.dest
    if dest is not None and dest.startswith("ssh://"):
        dest = re.sub(r":\d+$", "", dest[6:].rstrip("/"))
    return dest, words.remote


def _exec_program(before: list[re.Match], *programs: str) -> bool:
    """Whether the ``exec`` word is the subcommand of docker/podman/nerdctl/kubectl/oc (global
    options may sit between: ``kubectl -n infer exec``), not bash's ``exec`` or a file name;
    with ``programs``, of one of those."""
    for tok in reversed(before):
        word = tok.group(0)
        name = word.rsplit("/", 1)[-1].strip("'\"")
        if name in ("docker", "podman", "nerdctl", "kubectl", "oc"):
            return not programs or name in programs
        if not re.fullmatch(r"[\w./:=-]+", word):  # past `;`, `&&`, a quote: another command
            return False
    return False


def _option_without_t(word: str) -> str:
    if word in ("-t", "--tty") or word.startswith("--tty="):
        return ""
    if re.fullmatch(r"-[A-Za-z]+", word) and "t" in word:
        rest = word.replace("t", "")
        return rest if rest != "-" else ""
    return word


def _commands(text: str) -> list[list[str]]:
    return [argv for argv in segments(split_words(text)) if argv]


# `cmd; echo "EXIT: $?"` in a one-line command: the status echo, its flags, and the words before
# and after the status it prints. No single quote or backquote in those words and no escaped
# status (`\$?`): the echo must be the shell's own command, not text inside a quoted remote one.
_STATUS_ECHO = re.compile(rf";\s*echo\s+((?:-[neE]+\s+)?)([^;&|<>\n`']*?)"
                          rf"(?<!\\)({STATUS})([^;&|<>\n`'$]*?)\s*(?:;|$)")
_BLOCK_WORD = re.compile(r"(?:^|[;&|(\s])(?:do|then|else|done|fi|exit|return)(?:\s|;|$)")


def keeping_status(text: str) -> str:
    """``cmd; echo "EXIT: $?"; tail log`` as ``cmd; rc=$?; echo "EXIT: $rc"; tail log; exit $rc``.

    An agent prints a command's status because its tool reports only the last command's (the
    echo's or the tail's 0). Run as a step, that would make every run of the check pass: the
    step is given the status back (bash(1): ``$?`` and ``PIPESTATUS`` hold the last foreground
    pipeline's) and prints the same lines the session saw. Anything else is returned as it is:
    an echo in a loop or an if (it reports one try), in a quoted remote command, or a line
    that already ends or exits on its own terms."""
    if "\n" in text or "echo" not in text:
        return text
    m = _STATUS_ECHO.search(text)
    if m is None:
        return text
    head, rest = text[:m.start()], text[m.end():].strip(" ;")
    if not head.strip() or _BLOCK_WORD.search(head) or _BLOCK_WORD.search(rest) \
            or _STATUS_ECHO.search(";" + rest) or "$?" in rest or "PIPESTATUS" in rest:
        return text
    try:
        shlex.split(head), shlex.split(rest)  # balanced quotes: the echo is not inside a string
    except ValueError:
        return text
    flags, before, status, after = m.groups()
    then = f"{rest}; " if rest else ""
    return f"{head}; rc={status}; echo {flags}{before}$rc{after}; {then}exit $rc"


def keeping_remote_status(command: str, host: str) -> str:
    """``ssh gpu02 'python x.py; echo $?'`` as ``ssh gpu02 'python x.py; rc=$?; echo $rc; exit $rc'``:
    the status echo is the remote shell's, so :func:`keeping_status` gives it back inside the
    quoted remote command, and ssh exits with the remote command's status (ssh(1), EXIT STATUS);
    as typed, the step exited 0 on a host where the check failed. Only for a line that ends with
    that quoted command as ssh's last word; anything else is returned as it is."""
    text = command.rstrip()
    if "echo" not in text or not text.endswith(("'", '"')):
        return command
    remote = host_command(text, host)
    if not remote:
        return command
    kept = keeping_status(remote)
    if kept == remote:
        return command
    for start in (i for i, ch in enumerate(text) if ch in "'\"" and text[i - 1:i].isspace()):
        if split_words(text[start:]) == [remote]:  # the remote command, one quoted word, ends the line
            if text[start] == '"' and re.search(r"(?<!\\)[$`]", text[start:]):
                return command  # "cd $DIR; x; echo \$?": $DIR is the local shell's; single quotes would move it
            return text[:start] + shlex.quote(kept)
    return command
