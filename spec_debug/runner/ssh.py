"""The SSH transport: run steps on a remote host over one reused paramiko connection.

Each command runs under a small sh wrapper that prints the remote shell's pid first and then
runs the step in that same process (eval in a bash login shell, else exec bash/sh). A login
shell that is not POSIX (fish, csh) gets `exec /bin/sh -s` and the wrapper on stdin instead. sshd starts every session's command in a
new session and process group (openssh-portable: session.c, do_exec_no_pty calls setsid), so
that pid is also the process group id. A timeout or Ctrl-C then kills the whole remote tree
over a second channel (`kill -TERM -PGID`, descendants found in /proc, then KILL), because
closing a channel does not stop the remote process.
"""

from __future__ import annotations

import itertools
import math
import shlex
import signal
import threading
import time
from contextlib import contextmanager, nullcontext
from dataclasses import replace
from pathlib import Path
from typing import Callable, Iterable, Iterator, Literal, TypeVar

import paramiko

from spec_debug.errors import AuthenticationError, HostKeyError, SpecDebugError, TransportError, UsageError
from spec_debug.runner.host_path import WITH_STANDARD_PATH
from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh_connect import (
    Connection,
    ConnectOptions,
    abandonable,
    abandoned_after,
    close_channel,
    connect,
    dropped_hop,
    open_channel_unless,
    opening_connection,
    wait_readable,
)
from spec_debug.runner.ssh_agent_forward import forward_agent
from spec_debug.runner.ssh_background import BackgroundChannels
from spec_debug.runner.ssh_config import SSHTarget, environment_to_send
from spec_debug.runner.ssh_errors import ConnectionLostError, CopyInterrupted, RemoteFileError, RemoteShellError, _one_line
from spec_debug.runner.ssh_password_login import TYPED_PASSWORD
from spec_debug.runner.ssh_proxy_command import failed_proxy
from spec_debug.runner.ssh_sftp import RemoteFiles
from spec_debug.runner.ssh_transport import answered_within, request_answer_s
from spec_debug.runner.transport import CommandOutcome, LeftRunning, Transport, literal_pattern

_T = TypeVar("_T")
_READ_SIZE = 65536
_PID_MARKER = b"\x1fspec-debug-pid="
# The login shell's pid, printed (on stderr, where an rc file's `exec 2>&1` does not send it to
# stdout) by a login shell that is not bash before the new bash reads its startup files
# ($BASH_ENV): the step can be killed while those still run (a `module load` on a slow NFS),
# though what they print, before _PID_MARKER, is dropped (wrap_command).
_EARLY_PID_MARKER = b"\x1fspec-debug-pid0="
# The wrapper's first line on stderr: what came before it there is the login's, not the step's
# (sshd's "Could not chdir to home directory" notice, an rc file's warnings).
_STDERR_MARKER = b"\x1fspec-debug-stderr="
# Output printed by the login shell's rc files may come before the marker; past this much it is
# passed on to the step's output while the marker is still looked for (_PidHeader.write).
_PID_MARKER_SEARCH_LIMIT = 64 * 1024
# As in the local transport: after the exit status arrives, a background grandchild may keep
# the channel open; drain for this long, then stop reading.
_DRAIN_AFTER_EXIT_S = 1.0
_KILL_GRACE_S = 1.0
# How long an interrupted step whose pid line had not come waits for its signalled session to
# end (_signal_session) before it is recorded as maybe left running: sshd answers at once.
_SIGNALLED_END_S = 0.5
# The longest step timeout the wrapper's $SECONDS check is written for (wrap_command): 31 years.
_LATE_CHECK_MAX_S = 1e9
# How long a timed-out step's channel is still read once its tree is killed (as local.py,
# _DYING_WORDS_S): what it printed as it died.
_DYING_WORDS_S = 1.0
# The kill script's own waits (the TERM grace, then the reap after KILL: _REAP_AFTER_KILL_S)
# and its walks of /proc on a busy host fit in this.
_KILL_CHANNEL_TIMEOUT_S = 15.0
# How long the kill's channel may wait for the server's answer while the link is still busy
# delivering the timed-out step's output (a slow link: the answer queues behind it).
_KILL_CHANNEL_PATIENCE_S = 120.0
_CHANNEL_RETRY_S = 10.0
# How long a channel that ended without an exit status waits for its connection to be seen down.
_DEATH_NOTICE_S = 0.3
# The kill channel waits only briefly: a refusal then means the step itself fills the server's sessions.
_KILL_CHANNEL_RETRY_S = 0.5
# How long a refused channel is retried before an earlier step's kept background channel is
# closed to make room: long enough for sshd to free the slot of a channel we just closed.
_FREED_SLOT_GRACE_S = 0.5
# How long an interrupted step's kill may spend opening a second connection (MaxSessions 1).
_KILL_CONNECT_AFTER_INTERRUPT_S = 2.0
# How long a step cut by its connection dropping waits for a new connection to the host, to
# stop the command it left running (_stop_left_behind): a few seconds, never the whole
# ConnectTimeout of a host that went down.
_STOP_LEFT_BEHIND_CONNECT_S = 5.0
# How long a step must have printed nothing before its lost connection through jump hosts that
# stayed up is said to be a quiet tunnel closed (_through_a_quiet_tunnel): a drop in mid-output
# is something else.
_QUIET_TUNNEL_S = 2.0

# After the KILL, how long the kill script waits for the tree to be gone before it names what
# is left: a process waiting in the kernel (state D: nvidia-smi on a GPU after an Xid error, df
# on a dead NFS mount) outlives SIGKILL. As long as the local runner waits (local.py,
# _REAP_AFTER_KILL_S): a CUDA process may take seconds to exit while its GPU memory is freed.
_REAP_AFTER_KILL_S = 5.0
# Marks the kill script's lines that name a survivor (a login shell's rc files may print too).
_SURVIVOR_MARKER = "\x1fspec-debug-survivor"

# POSIX sh: exit 0 while a process of the step's group or session ({pid}: sshd makes the
# wrapper a session leader) is alive, 1 once none is. A host without /proc (BSD, macOS) cannot
# tell: it answers "alive", so the step's channel is let go as a background writer's, as it was
# before this check existed, instead of read for held-back output that may never end.
# Each live one's fds 1 and 2 that are a pipe or a socket (the channel's, as sshd gives a
# command: session.c, do_exec_no_pty) are named on a line of their own (_HOLDS_MARKER): which
# of the step's streams a process left in the background still holds (`server >/dev/null &`
# holds stderr alone). Not a pipe that a live one of the step reads as its fd 0 (`-ef`: the same
# inode, which both ends of a pipe share): in `server 2>&1 | tee log >/dev/null &` the server
# writes into tee, and only tee's stderr is the channel's.
_TREE_ALIVE_SCRIPT = r"""
[ -r /proc/self/stat ] || exit 0
alive=1
procs=
for stat in /proc/[0-9]*/stat; do
  read -r line < "$stat" 2>/dev/null || continue
  set -- ${{line##*") "}}
  if [ "$1" != Z ] && {{ [ "$3" = {pid} ] || [ "$4" = {pid} ]; }}; then
    alive=0
    procs="$procs ${{stat%/stat}}"
  fi
done
for p in $procs; do
  for n in 1 2; do
    {{ [ -p "$p/fd/$n" ] || [ -S "$p/fd/$n" ]; }} || continue
    inner=
    for q in $procs; do
      [ "$p/fd/$n" -ef "$q/fd/0" ] 2>/dev/null && {{ inner=1; break; }}
    done
    [ -n "$inner" ] || printf '\037spec-debug-holds %s\n' "$n"
  done
done
exit $alive
"""
_HOLDS_MARKER = "\x1fspec-debug-holds "
# How long the check that the step's processes are gone waits for its answer.
_TREE_CHECK_TIMEOUT_S = 5.0
# How long the kill's exec request waits for sshd to start the kill script (within the
# script's own _KILL_CHANNEL_TIMEOUT_S): an sshd that opened the channel and froze never does.
_KILL_EXEC_ANSWER_S = 10.0
# What a step whose processes all exited can still deliver once its exit status came: what
# sshd read from the pipes and has not sent yet (up to the channel window it was granted,
# openssh-portable channels.c, channel_pre_open), plus both pipes (64 KiB each, up to 1 MiB
# with F_SETPIPE_SZ). Past that, a process the check missed (one that called setsid) writes.
_UNSENT_PIPES_BYTES = 2 * 1024 * 1024
# How long past _DRAIN_AFTER_EXIT_S that output is read: sshd sends what it held as fast as
# the link goes once the key exchange ends (the 600 KB of the rekey test came within 0.4 s).
# A writer the check cannot see (one that called setsid, or runs as another user through sudo)
# that prints a line every few tenths of a second never lets the byte bound run out: without
# this the step (`setsid server &` with its log on the step's stdout) ran to its timeout and
# was killed as hung, or, with no timeout, never ended; it ended in 1 s before the check.
_HELD_OUTPUT_S = 3.0
# How long held-back output may pause (nothing arriving) before the rest is taken for a
# background writer's. sshd sends it once the key exchange ends, and a key exchange stalled on
# a loaded controller or host paused it for more than a second: the step's last lines were
# dropped and the step reported a background writer (test_hardening21_ssh_output_after_exit,
# with every key exchange 1.5 s slow: 96 KiB of 606 KB kept). Within the _HELD_OUTPUT_S bound:
# a writer the check cannot see still ends the step by then (a quiet one, which ended it about
# a second after the check, now ends it up to this much later).
_HELD_OUTPUT_PAUSE_S = 3.0

# POSIX sh: TERM the process group and every descendant (found through /proc, since a child
# that called setsid leaves the group), wait up to the grace period, then KILL what is left,
# wait again, and print each process still alive: pid, /proc state letter, command line.
# One whose parent exited is no descendant (reparented to init): `(setsid server &)`, a child
# forked as the tree was killed. It still holds the write end of the step's output, which the
# wrapper's fds 1 and 2 name (read before the kill): escaped() finds it there (GNU find's
# -lname; elsewhere nothing more is found, as before). sshd holds the read end: never matched.
_KILL_SCRIPT = r"""
root={pid}
outs=$(readlink /proc/$root/fd/1 /proc/$root/fd/2 2>/dev/null)
escaped() {{
  set --
  for link in $outs; do
    case "$link" in pipe:*|socket:*) ;; *) continue;; esac
    [ $# = 0 ] || set -- "$@" -o
    set -- "$@" -lname "$(printf '%s' "$link" | sed 's/[][]/\\&/g')"
  done
  [ $# = 0 ] && return 0
  find /proc/[0-9]*/fd -maxdepth 1 \( "$@" \) 2>/dev/null | while IFS=/ read -r _ _ p _ fd; do
    [ "$p" = "$root" ] && continue
    while read -r key value; do
      [ "$key" = flags: ] || continue
      case $(( 0$value & 3 )) in 1|2) echo "$p";; esac
      break
    done < /proc/$p/fdinfo/$fd 2>/dev/null
  done
}}
tree() {{
  all=" $root "; grew=1
  while [ "$grew" = 1 ]; do
    grew=0
    for stat in /proc/[0-9]*/stat; do
      pid=${{stat#/proc/}}; pid=${{pid%/stat}}
      case "$all" in *" $pid "*) continue;; esac
      read -r line < "$stat" 2>/dev/null || continue
      set -- ${{line##*") "}}
      if [ "$3" = "$root" ]; then all="$all$pid "; grew=1; continue; fi
      case "$all" in *" $2 "*) all="$all$pid "; grew=1;; esac
    done
  done
  for p in $(escaped); do case "$all" in *" $p "*) ;; *) all="$all$p ";; esac; done
  echo $all
}}
pids=$(tree)
kill -TERM -$root 2>/dev/null
for p in $pids; do
  read -r line < /proc/$p/stat 2>/dev/null || continue
  set -- ${{line##*") "}}
  # Once each: a second SIGTERM cut short the stack dump of faulthandler.register(SIGTERM, chain=True).
  [ "$3" = "$root" ] || kill -TERM $p 2>/dev/null
done
i=0
while [ $i -lt {rounds} ]; do
  alive=
  for p in $pids; do
    read -r line < /proc/$p/stat 2>/dev/null || continue
    set -- ${{line##*") "}}
    [ "$1" != Z ] && alive=1  # a zombie whose parent died waits for init, it is dead
  done
  [ -z "$alive" ] && break
  sleep 0.1; i=$((i+1))
done
# Gone or not, what the tree forked as it died (a TERM trap's child, its parent now exited) is
# looked for once more.
pids="$pids $(tree)"
kill -KILL -$root $pids 2>/dev/null
i=0
while :; do
  alive=
  for p in $pids; do
    read -r line < /proc/$p/stat 2>/dev/null || continue
    set -- ${{line##*") "}}
    [ "$1" != Z ] && alive="$alive $p"
  done
  [ -z "$alive" ] && exit 0
  [ $i -ge {reap_rounds} ] && break
  sleep 0.1; i=$((i+1))
done
for p in $alive; do
  read -r line < /proc/$p/stat 2>/dev/null || continue
  set -- ${{line##*") "}}
  cmd=
  command -v tr >/dev/null 2>&1 && cmd=$(tr '\0' ' ' < /proc/$p/cmdline 2>/dev/null)
  [ -n "$cmd" ] || {{ cmd=${{line#*\(}}; cmd=${{cmd%\)*}}; }}
  printf '\037spec-debug-survivor %s %s %s\n' "$p" "$1" "$cmd"
done
exit 0
"""


# The connection's first command: where commands start, then $HOME, a line each.
_FIRST_COMMAND = "pwd; printf '%s\\n' \"$HOME\""

INLINE_COMMAND_LIMIT = 64 * 1024
"""Longest command sent inside the exec request. sshd runs it as one argument of the login
shell (`$SHELL -c ...`), and Linux refuses an argument over 128 KiB (MAX_ARG_STRLEN): a
longer script ("Argument list too long" on the host) is sent on the channel's stdin instead."""


VIA_SH = "exec /bin/sh -s"
"""The exec request for an account whose login shell is not POSIX (fish, csh, nushell): each of
them runs this line as written, and the wrapper then comes on stdin, where /bin/sh reads it."""


def wrap_command(
    command: str | None, env: dict[str, str] | None = None, *, too_long: bool | None = None, via_sh: bool = False,
    timeout_s: float | None = None,
) -> str:
    """The exec request sent to sshd: print our pid, set env, run the step's command in bash.

    bash like the local transport (sh where a host has no bash). When the login shell already
    is bash, the command is `eval`ed in it rather than `exec`ed in a new bash: a second bash
    start costs about 1 ms per step, a third of the whole round trip on loopback. stdin is
    /dev/null so a step that reads stdin ends instead of hanging.
    """
    exports = _exports(env)
    # command None: the script comes on stdin, read whole before it runs (the "x" keeps its
    # trailing newlines, which $(...) would strip); the script itself still gets /dev/null.
    # `cat` in a subshell with the standard places on PATH (host_path): where an rc file clobbered
    # PATH, `cat` was not found, the script read as empty, and a step too long for the exec
    # request passed with exit 0 having run nothing.
    assign = (f'__spec_debug_cmd=$({WITH_STANDARD_PATH}cat; printf x); __spec_debug_cmd=${{__spec_debug_cmd%x}}; ' if command is None
              else f"__spec_debug_cmd={shlex.quote(command)}; ")
    # Without bash as the login shell the script runs in a new shell: as -c's argument, or,
    # when it is too long to be an argument (`too_long`; always when it came on stdin), through
    # a pipe on fd 3 that the new shell reads whole, closes and evals (as a bash login shell
    # evals it). Not from a temp file, as it was: on a full /tmp (GPU hosts fill it with
    # compile caches and core dumps) printf wrote part of the script and the new shell ran
    # that part, as if it were the step; a read-only /tmp ran nothing. The pipe needs no disk,
    # and nothing is left behind when a timeout kills the step.
    too_long = command is None if too_long is None else too_long
    # Through VIA_SH, a new bash must not read ~/.bashrc: Debian's bash reads it for a command
    # run by sshd (SSH_CLIENT set) while SHLVL is below 2 (bash: shell.c, run_startup_files),
    # and bash's `exec` lowers SHLVL first. A ~/.bashrc that ends with `exec /bin/sh` (or dash,
    # ksh: shells that keep no SHLVL) turns the login bash into sh reading the wrapper from
    # stdin, which works; the new bash then read ~/.bashrc again, became sh reading /dev/null,
    # and every step passed having run nothing. At least 2, not 1: zsh's `exec` lowers SHLVL
    # as bash's does, and a ~/.bashrc ending in `exec zsh` left the wrapper a zsh at SHLVL 1,
    # whose exec'd bash came up at 1 and read ~/.bashrc again (exec zsh reading /dev/null: the
    # host was refused as one whose login shell runs no command). fish and tcsh raise it too.
    level = '[ "${SHLVL:-0}" -gt 1 ] 2>/dev/null || export SHLVL=2; ' if via_sh else ""
    # The markers come from the shell that runs the step, once its startup files ran: a new
    # bash reads $BASH_ENV first (bash(1), INVOCATION: every non-interactive bash), and under a
    # zsh, fish or tcsh login what that printed ("module: cuda loaded") came after markers the
    # login shell had printed, in the step's stdout and stderr; a bash login reads it before
    # the wrapper, and it is dropped. The new shell gets the wrapper's pid as $1 (its own
    # where it was exec'ed; under the pipe it is the wrapper's child) and the step as $2,
    # still unquoted in ps (left_running_check); `shift 2` leaves the step no arguments, as
    # `bash -c STEP` did.
    in_new = ('printf "\\037spec-debug-pid=%s\\n" "$1"; printf "\\037spec-debug-stderr=\\n" >&2 || :; ')
    # The braces: zsh (MULTIOS, on by default) reads a command's `</dev/null` beside a pipe
    # into it as both, one after the other, and fd 3 got neither: under a zsh login a step
    # too long for an argument ran nothing and passed.
    run_new = (f"printf %s \"$__spec_debug_cmd\" | {{ \"$s\" -c '{in_new}shift; __spec_debug_cmd=$({WITH_STANDARD_PATH}cat <&3; printf x); exec 3<&-; "
               "eval \"${__spec_debug_cmd%x}\"' \"$s\" \"$$\" 3<&0 </dev/null; }; " if too_long
               else f"exec \"$s\" -c '{in_new}__spec_debug_cmd=$2; shift 2; eval \"$__spec_debug_cmd\"' "
                    '"$s" "$$" "$__spec_debug_cmd" </dev/null; ')
    # A bash login that spent more than the step's timeout in its rc files ($BASH_ENV, ~/.bashrc
    # on a stalled NFS) does not start the step: we gave up on it already (our deadline counts
    # from before the shell started), and where sshd refuses to signal the session (a root
    # login before OpenSSH 9.8: _signal_session) it started the step once the rc files ended.
    # $SECONDS is whole seconds since the shell started, off by less than one (bash(1)): past
    # ceil(timeout) it is surely late. A timeout past bash's integers (`timeout: 1e20`, "never") is none: `[`
    # said "integer expression expected", and the step exited 124 without running. Written as
    # `-gt ... && exit`: an rc file that unsets SECONDS (or sets it to text) makes the test an
    # error, which must not stop the step (`-le ... || exit` stopped every step then).
    late = ("" if timeout_s is None or not timeout_s < _LATE_CHECK_MAX_S
            else f'[ "$SECONDS" -gt {math.ceil(timeout_s)} ] 2>/dev/null && exit 124; ')
    # `s=/bin/sh`, not `sh`: a zsh login whose ~/.zshenv clobbered PATH (`export PATH=/opt/conda/bin`)
    # found neither bash nor sh by name, and the host was refused as one whose login shell did
    # not run the command ("command not found: sh"), though `ssh HOST /bin/echo hi` works there.
    # `|| :`: where an rc file closed fd 2 (`exec 2>&-`) the stderr marker cannot be written,
    # and under its `set -e` the failed printf ended the wrapper before the step ran.
    return (
        f"{level}{exports}{assign}"
        'if [ -n "${BASH_VERSION:-}" ]; then '
        "printf '\\037spec-debug-pid=%s\\n' \"$$\"; printf '\\037spec-debug-stderr=\\n' >&2 || :; "
        f'{late}{_QUIET_LOGIN_EXIT_TRAP}eval "$__spec_debug_cmd" </dev/null; '
        "else printf '\\037spec-debug-pid0=%s\\n' \"$$\" >&2 || :; s=/bin/sh; command -v bash >/dev/null 2>&1 && s=bash; "
        f"{run_new}fi"
    )


# An EXIT trap the login's rc files set (`trap 'echo bye' EXIT` in a ~/.bashrc with no
# interactive guard) ran as the login bash that evals the step exited, and printed into the
# step's stdout and stderr, after its output. What the rc files print before the step is the
# login's and dropped (_PID_MARKER, _STDERR_MARKER); their trap is set again to run as written
# with its output dropped as well: it still runs (an agent it kills, a history it saves), and a
# trap the step sets for itself replaces it and prints as before (bash(1), SHELL BUILTIN
# COMMANDS, trap: `trap -p` prints `trap -- 'BODY' EXIT`, in a form the shell reads back).
# Through eval, which starts with the $? the trap got (`rc=$?; cleanup; exit $rc` keeps the
# step's exit code) and takes an empty or comment-only body (`{ }` is a syntax error). No
# positional parameter is touched: the step sees none, as in `bash -c STEP`.
_QUIET_LOGIN_EXIT_TRAP = (
    '__spec_debug_t=$(trap -p EXIT); if [ -n "$__spec_debug_t" ]; then __spec_debug_t=${__spec_debug_t#trap -- }; '
    'eval "__spec_debug_t=${__spec_debug_t% EXIT}"; trap -- \'eval "$__spec_debug_t" >/dev/null 2>&1\' EXIT; fi; '
)


def _exports(env: dict[str, str] | None) -> str:
    """`export NAME='value'; ` for each variable, names checked (they are not quoted)."""
    exports = ""
    for name, value in (env or {}).items():
        if not name or not name.replace("_", "a").isalnum() or name[0].isdigit():
            raise UsageError(f"invalid environment variable name {name!r}")
        exports += f"export {name}={shlex.quote(value)}; "
    return exports


def left_running_check(command: str, *, in_args: bool) -> str:
    """One line to paste on the host that lists, with their pids and ages, the processes whose
    command line holds the step's first line (its first 80 characters).

    What the shell still in its rc files shows in ps is the exec request, where the step is
    shlex-quoted (wrap_command): a first line `python3 -c 'import torch'` is there as
    `python3 -c '"'"'import torch'"'"'`, and a search for the line as written found nothing
    (its running python shows `python3 -c import torch`, quotes gone). ps prints a tab or any
    other control character of the args as "?" (procps-ng: escape.c), so the search stops
    before the first character that is not printable ASCII, and -ww keeps ps from cutting the
    args at $COLUMNS (procps-ng ps(1)), where an exported COLUMNS cut them before the line
    (the step sits some 150 characters into the exec request). The pattern is a basic regular
    expression with its first character in brackets: grep's own command line, which holds the
    pattern, does not match it, where `grep -F TEXT` listed itself, a process that looked
    like the step's."""
    first = next((line.strip() for line in command.splitlines() if line.strip()), command.strip())
    shown = "".join(itertools.takewhile(lambda c: " " <= c <= "~", first))[:80] or first[:80]
    # As written, too: a bash the wrapper starts with the step as an argument (a login
    # shell that is not bash, wrap_command) shows the line unquoted.
    forms = dict.fromkeys([shown.replace("'", "'\"'\"'"), shown] if in_args else [shown])
    return "ps -ww -eo pid,etime,args | grep" + "".join(f" -e {shlex.quote(literal_pattern(form))}" for form in forms)


def request_tty_warning(target: SSHTarget) -> str | None:
    """What `RequestTTY force` (or `yes`) in the ssh config leaves out: ssh(1) runs `ssh HOST
    CMD` on a terminal with force, and with yes when its own stdin is one (openssh-portable
    ssh.c, main: tty_flag is cleared where stdin is not a tty unless REQUEST_TTY_FORCE).
    Steps run without one, their stdout and stderr apart: a tool that colours or pages output
    on a terminal, or line-buffers it, shows the user something else by hand than the record
    holds. Said in the host's record rather than honoured (a pty merges the two streams and
    writes CRLF line ends into every capture)."""
    if target.request_tty is None:
        return None
    does = "runs every command on a terminal" if target.request_tty == "force" else "run from a terminal runs commands on one"
    return (f"{target.label}: your ssh config or ssh arguments ask for a terminal (RequestTTY {target.request_tty}), so "
            f"ssh(1) {does}; spec-debug runs "
            "steps without one (stdout and stderr apart, no colour codes): a tool that acts otherwise on a terminal "
            "prints something else by hand than in this run")


class SSHTransport(Transport):
    """One SSH connection to one host, reused for every step, SFTP included."""

    def __init__(
        self,
        connection: Connection,
        *,
        host: str,
        max_sessions: int = 10,
        reconnect: Callable[[], Connection] | None = None,
        reconnect_unasked: Callable[[], Connection] | None = None,
    ) -> None:
        self.host = host
        self._connection = connection
        # Opens a second connection to the same host: the way to kill a step's tree when the
        # server allows one session per connection (MaxSessions 1) and the step holds it.
        self._reconnect = reconnect
        # The same, asking nobody anything (_AsksAgain where the login would): for the kill.
        self._reconnect_unasked = reconnect_unasked
        self._sessions = threading.BoundedSemaphore(max_sessions)
        self._home: str | None = None
        self._cwd: str | None = None
        self._login_s = 0.0
        """How long the host's login shell took to run a no-op command (check_login_shell)."""
        self._files = self._remote_files(connection)
        self._background = BackgroundChannels()
        # Whether sshd ever granted us a session channel: a refusal before the first one is
        # a server that allows no sessions (MaxSessions 0, a Match block), not a busy one.
        self._granted_a_session = False
        self._shell_checked = False
        # The login shell is not POSIX (fish, csh): commands go through VIA_SH.
        self._via_sh = False
        # Set by interrupt() (Ctrl-C, from the main thread): running commands stop and are
        # killed on the host, and no new command starts.
        self._interrupted = threading.Event()

    @classmethod
    def connect(
        cls,
        destination: str,
        options: ConnectOptions | None = None,
        *,
        name: str | None = None,
        port: int | None = None,
        user: str | None = None,
        identity_file: str | None = None,
        ssh_options: dict[str, str] | None = None,
        password: str | None = None,
        password_source: str | None = None,
    ) -> "SSHTransport":
        """Open the connection now, so an unreachable host fails here with a TransportError."""
        options = options or ConnectOptions()
        # The password typed at the prompt, kept in memory for the run's later connections to
        # the host (a kill over a second connection, a reconnect after sshd closed an idle one):
        # each asked again mid-run, and a user who had walked away held the kill at the prompt
        # until sshd's LoginGraceTime, as ssh(1) without ControlMaster would. Never recorded.
        typed: list[str] = []

        def reconnect() -> Connection:
            connection = connect(destination, options, port=port, user=user, identity_file=identity_file, ssh_options=ssh_options,
                                 password=password, password_source=password_source, name=name,
                                 typed_password=typed[-1] if typed else None)
            said = getattr(connection.transport, TYPED_PASSWORD, None)
            if said is not None:
                typed[:] = [said]
            return connection

        def reconnect_unasked() -> Connection:
            # A kill's connection (best effort) at a host that asks a one-time code: a code
            # cannot be reused, and the prompt, in the middle of the run, held the kill until
            # sshd's LoginGraceTime (120 s) when nobody was at the terminal. What the run holds
            # still logs in (the agent, keys, a password typed earlier); any question fails it.
            asked: list[str] = []

            def nobody_answers(question: str) -> str | None:
                asked.append(question)
                return None

            try:
                # None is "no answer" to every asker (ssh_password_login, ssh_key_files, ssh_terminal), as a
                # prompt given up is: the login ends at once.
                return connect(destination, replace(options, prompt=nobody_answers),  # type: ignore[arg-type]
                               port=port, user=user,
                               identity_file=identity_file, ssh_options=ssh_options, password=password,
                               password_source=password_source, name=name, typed_password=typed[-1] if typed else None)
            except (SpecDebugError, paramiko.SSHException, EOFError, OSError):
                if asked:
                    raise _AsksAgain(f"{name or destination}: the host asks for a one-time code (or a password) again") from None
                raise

        with opening_connection():
            transport = cls(reconnect(), host=name or destination, max_sessions=options.max_sessions, reconnect=reconnect,
                            reconnect_unasked=reconnect_unasked)
            try:
                with abandonable(transport.interrupt):  # a login shell that hangs, on Ctrl-C
                    transport.check_login_shell()
            except BaseException:
                transport.close()
                raise
        return transport

    def _remote_files(self, connection: Connection) -> RemoteFiles:
        files = RemoteFiles(
            self.host, connection.transport, self._session_slot, self._open_file_session,
            start_timeout_s=connection.target.connect_timeout_s, kill=self._kill_copy,
        )
        files.home, files.cwd, files.login_s = self._home, self._cwd, self._login_s
        return files

    def _reopen_if_closed_while_idle(self) -> None:
        """Open the connection again when the server closed it while no command ran.

        sshd's UnusedConnectionTimeout (OpenSSH 9.2+, sshd_config(5)) closes a connection that
        has had no open channel for that long: between two steps of `run --step` while the
        user reads, or before a fetch after a long pause. The host is fine; reporting it
        "lost" (rebooted?) would fail it. A server that stopped answering, or a jump host
        that went down, is not retried: _lost names those. If the host cannot be reached
        again, the step fails as lost, with the reason.
        """
        connection = self._connection
        if connection.transport.is_active() or self._reconnect is None or self._interrupted.is_set():
            return
        if getattr(connection.transport, "not_responding", None) is not None or dropped_hop(connection.via, within_s=0) is not None:
            return
        try:
            fresh = self._reconnect()
        except SpecDebugError as exc:
            lost = self._lost("before the step could start")
            # A host key that changed since the run's first login (the host reinstalled, or its
            # address moved to another machine: a VIP failover) or credentials that no longer
            # work: their own hint says the fix (the known_hosts file and line to edit), where
            # the lost connection's ("the host rebooted, sshd restarted...") sent people to the host.
            hint = exc.hint if isinstance(exc, (HostKeyError, AuthenticationError)) and exc.hint else lost.hint
            raise ConnectionLostError(f"{lost.message}; reconnecting failed: {exc.message.splitlines()[0]}", hint=hint) from None
        self._use_connection(fresh)

    def _use_connection(self, fresh: Connection) -> None:
        """Go on over `fresh`, closing the connection used so far and what it held open."""
        old = self._connection
        self._background.close()
        self._files.close()
        self._connection = fresh
        self._files = self._remote_files(fresh)
        old.close()

    def _on_a_fresh_connection_if_refused(self, refused: "_SessionRefused") -> None:
        """Go on over a new connection to the host when sshd refuses a session on this one
        although none of ours is open (_open_session has closed our idle SFTP channel and kept
        background channels first), or raise `refused`.

        A session whose command never ends still counts against MaxSessions: a copy given up at
        the fetch step's deadline while the host's SFTP server waits in open() on a FIFO or a
        file on a hung NFS mount (closing its channel does not end it: sshd_config(5),
        ChannelTimeout; a subsystem cannot be killed). With `MaxSessions 1` every later step
        of the host failed ("refused a new session channel"). MaxSessions counts the sessions
        of one connection (sshd_config(5)): a new connection has them all."""
        if self._reconnect is None or self._interrupted.is_set():
            raise refused
        try:
            fresh = self._reconnect()
        except SpecDebugError as exc:
            # A host key that changed or credentials that stopped working: their hint (the
            # known_hosts line to remove) is the fix; "raise MaxSessions" was not.
            if isinstance(exc, (HostKeyError, AuthenticationError)) and exc.hint:
                raise _SessionRefused(f"{refused.message}; reconnecting failed: {exc.message.splitlines()[0]}", hint=exc.hint) from None
            # Any other failure is said too: a host whose sshd stopped listening (`systemctl stop
            # ssh` keeps open sessions) or is at MaxStartups said only "refused a new session".
            raise _SessionRefused(
                f"{refused.message}; reconnecting failed: {exc.message.splitlines()[0]}",
                hint=f"{refused.hint}; the new connection tried in its place failed: check that the host's sshd still takes "
                "connections (`ssh HOST true`)" if refused.hint else None,
            ) from None
        self._use_connection(fresh)

    def check_login_shell(self) -> None:
        """Run `pwd` and print $HOME through the wrapper: an account whose shell cannot run
        commands (nologin, a ForceCommand) then fails here, as an unreachable host does, before
        any step. $HOME is what `~` means for file copies, and where the commands start is what
        a relative path means (ssh_sftp.sftp_path)."""
        limit = max(self._connection.target.connect_timeout_s, 10.0)
        with self._lost_at_login():
            outcome, stdout = self._first_command(limit)
        # An sftp-server that sshd starts through the login shell (Debian's `Subsystem sftp
        # /usr/lib/openssh/sftp-server`) waits for the same rc files: its start is given as long.
        self._login_s = self._files.login_s = outcome.duration_s
        if outcome.timed_out:
            raise RemoteShellError(
                f"{self.host}: a no-op command did not finish within {limit:g} s after login",
                hint="the login shell's rc files hang (a stuck NFS home, a prompt) or a ForceCommand waits for input",
            )
        said = stdout.text().split("\n")
        if outcome.exit_code != 0 or len(said) != 3 or said[2] != "":
            return  # copies then go by where the SFTP server starts
        cwd, home = (line if line.startswith("/") else None for line in said[:2])
        self._cwd = self._files.cwd = cwd
        self._home = self._files.home = home

    @contextmanager
    def _lost_at_login(self) -> Iterator[None]:
        """A connection that drops at the first command, right after the login, is the host's
        session setup failing, not a reboot: sshd accepted the key and then ended the session
        (a PAM session module that fails, a home it cannot reach, a ForceCommand that kills it)."""
        plain = f"{self.host}: SSH connection lost during command"
        try:
            yield
        except ConnectionLostError as lost:
            rest = lost.message[len(plain):] if lost.message.startswith(plain) else None
            # Only the plain loss: `during command` and maybe paramiko's words in brackets. A jump
            # host that dropped, or a server that stopped answering, is named already.
            plain_loss = rest == "" or (rest is not None and rest.startswith(" (") and rest.endswith(")"))
            if not plain_loss or self._interrupted.is_set():
                raise
            raise ConnectionLostError(
                f"{self.host}: the server closed the connection right after login, before any command ran",
                hint="sshd accepted the login, then ended the session: the host's sshd log says why (journalctl -u ssh or "
                "/var/log/auth.log), often a failing PAM session module or a forced command that ends the connection",
            ) from None

    def _first_command(self, limit: float) -> tuple[CommandOutcome, StreamCapture]:
        """_FIRST_COMMAND through the wrapper, then through `exec /bin/sh -s` if the login shell refused it."""
        stdout, stderr = StreamCapture("stdout", 4096), StreamCapture("stderr", 4096)
        try:
            outcome = self.run(_FIRST_COMMAND, stdout=stdout, stderr=stderr, timeout_s=limit)
        except RemoteShellError as refused:
            # A login shell that is not POSIX (fish, csh, nushell: what ssh(1) users pick for
            # themselves) rejects the wrapper, yet runs `exec /bin/sh -s`: try that once. A
            # nologin shell or a forced command refuses it too, and the first answer stands.
            self._via_sh, self._shell_checked = True, False
            stdout, stderr = StreamCapture("stdout", 4096), StreamCapture("stderr", 4096)
            try:
                outcome = self.run(_FIRST_COMMAND, stdout=stdout, stderr=stderr, timeout_s=limit)
            except RemoteShellError as again:
                self._via_sh = False
                raise _exec_named(refused, getattr(again, "said", ())) from None
            if not self._shell_checked:  # it ended without running (interrupted, timed out)
                self._via_sh = False
        return outcome, stdout

    # -- commands ---------------------------------------------------------------------------

    def run(
        self,
        command: str,
        *,
        stdout: StreamCapture,
        stderr: StreamCapture,
        timeout_s: float | None = None,
        env: dict[str, str] | None = None,
    ) -> CommandOutcome:
        started = time.monotonic()
        deadline = None if timeout_s is None else started + timeout_s
        header = _PidHeader(stdout, follower=_STDERR_MARKER + b"\n", early=_EARLY_PID_MARKER)
        # The whole line: an rc file's line that merely holds the marker's bytes is login noise.
        stderr_header = _PidHeader(stderr, _STDERR_MARKER + b"\n", early=_EARLY_PID_MARKER)
        header.early_from = stderr_header
        if self._interrupted.is_set():
            return CommandOutcome(exit_code=None, duration_s=0.0)
        self._reopen_if_closed_while_idle()
        with self._session_slot():
            try:
                try:
                    channel = self._open_session()
                except _SessionRefused as refused:
                    self._on_a_fresh_connection_if_refused(refused)
                    channel = self._open_session()
            except _Interrupted:
                return CommandOutcome(exit_code=None, duration_s=time.monotonic() - started)
            in_args = False
            try:
                script = command.encode("utf-8", "surrogateescape")
                within = request_answer_s(self._connection.target.connect_timeout_s)
                # Not to a host let in by StrictHostKeyChecking no alone (its key changed or
                # @revoked): ssh(1) turns agent forwarding off there, as a man in the middle could
                # sign with the agent (openssh-portable: sshconnect.c, check_host_key, continue_unsafe).
                unverified = getattr(self._connection.transport, "host_key_warning", None)
                if self._connection.target.forward_agent is not None and not unverified:
                    forward_agent(channel, self._connection.target.forward_agent)

                def start(line: str) -> None:
                    _exec_answered(channel, line, within, self.host, "the step's")

                # Whether the exec request holds the command: ps then shows it in the
                # step shell's args, quoted as wrap_command quotes it (left_running_check).
                in_args = False
                if self._via_sh:
                    start(VIA_SH)
                    wrapper = wrap_command(command, env, too_long=len(script) > INLINE_COMMAND_LIMIT, via_sh=True,
                                           timeout_s=timeout_s)
                    _send_quietly(channel, wrapper.encode("utf-8", "surrogateescape") + b"\n")
                elif len(script) > INLINE_COMMAND_LIMIT or len((inline := wrap_command(command, env, timeout_s=timeout_s)).encode("utf-8", "surrogateescape")) > INLINE_COMMAND_LIMIT:
                    # The exports travel with the script on stdin: the whole exec request is one
                    # argument of the login shell, so a 100 KiB variable beside a 40 KiB script
                    # failed at sshd's exec ("/bin/bash: Argument list too long", exit 1).
                    start(wrap_command(None, timeout_s=timeout_s))
                    _send_quietly(channel, _exports(env).encode("utf-8", "surrogateescape") + script)
                else:
                    start(inline)
                    in_args = True
                # EOF on the command's stdin at once (after a long script): the wrapper reads
                # nothing else (steps get /dev/null), but a ForceCommand that does (an
                # sftp-server, a menu) would otherwise wait for input forever instead of ending.
                channel.shutdown_write()
                ending = self._pump(channel, header, stderr_header, deadline)
                if ending != "exited" and header.pid is None:
                    # No pid line yet: under a bash login the shell is still in its rc files
                    # ($BASH_ENV, ~/.bashrc: bash reads them before the command), and the step
                    # ran once they ended, after it was recorded as timed out or interrupted.
                    # sshd kills the session's process group on a "signal" request (RFC 4254,
                    # section 6.9; openssh-portable: session.c, session_signal_req, killpg),
                    # before the command has started. Where sshd ignores it (a root login
                    # before OpenSSH 9.8, an sshd before 7.9), the wrapper's $SECONDS check
                    # (wrap_command) keeps a shell that spent more than the timeout in its rc
                    # files from starting the step; one less late starts it and is killed by
                    # its pid, as before.
                    _signal_session(channel, "KILL")
                    self._await_pid(channel, header, stderr_header,
                                    within_s=_SIGNALLED_END_S if ending == "interrupted" else None)
                if ending != "exited":
                    killed = self._kill_remote(header.pid)
                    if isinstance(killed, TransportError):
                        if ending == "timeout":
                            # A timeout is recorded as "process tree killed": on a host that went
                            # down or silent at that moment nothing was, and the host is gone.
                            not_killed = self._not_killed(killed, timeout_s)
                            # Where to look once it is back: the step's record keeps it (engine, _execute).
                            not_killed.left_running = self._left_running(  # type: ignore[attr-defined]
                                command, time.monotonic() - started, in_args
                            )
                            # a host that still answers (it refused the kill's channel) against one
                            # that went silent or dropped: the engine's SD002 or SD005
                            not_killed.host_answered = (  # type: ignore[attr-defined]
                                getattr(killed, "host_answered", False) and self._connection.transport.is_active())
                            # The step timed out: its record says so (engine, _execute); the kill
                            # that did not reach the host is the host's error and left_running.
                            not_killed.timed_out = True  # type: ignore[attr-defined]
                            raise not_killed
                        # Ctrl-C: the step ends as interrupted, but its record says it was not
                        # killed and where to find it (a refused kill connection, a lost host).
                        elapsed = time.monotonic() - started
                        why = killed.message.splitlines()[0].removeprefix(self.host + ": ")
                        return CommandOutcome(
                            exit_code=None, duration_s=elapsed, left_running=self._left_running(command, elapsed, in_args, why=why)
                        )
                    elif header.pid is None and not (channel.eof_received or channel.closed):
                        # Timed out, or Ctrl-C (after Ctrl-C _await_pid read only
                        # _SIGNALLED_END_S: the user waits), before the wrapper's pid line:
                        # nothing could be killed.
                        elapsed = time.monotonic() - started
                        return CommandOutcome(
                            exit_code=None, duration_s=elapsed, timed_out=ending == "timeout",
                            left_running=self._left_running(command, elapsed, in_args),
                        )
                    else:
                        # Named in the step's message; the engine does not retry beside them.
                        stdout.survived_kill = killed
                        # Stopped by its timeout or by the run's stop (Ctrl-C, SIGTERM): what the
                        # tree printed as the kill's SIGTERM reached it is read either way. After
                        # a stop it was left unread, and a drafter_eval on the host lost the
                        # scores it printed (kept where the host is local: local.py reads on).
                        self._read_dying_words(channel, header, stderr_header)
                    return CommandOutcome(
                        exit_code=None, duration_s=time.monotonic() - started, timed_out=ending == "timeout"
                    )
                outcome = self._outcome(channel, started, header, stderr_header)
                if not self._shell_checked:
                    self._check_shell_ran(header, stderr_header, outcome)
                if not (channel.eof_received or channel.closed):
                    # The shell exited, but a process it left running still writes to the
                    # channel (a server started with `&`): keep reading it (ssh_background).
                    # The streams the check saw held; both where it could not tell.
                    holds = header.holds or {1, 2}
                    stdout.held_open_by = [] if 1 in holds else None
                    stderr.held_open_by = [] if 2 in holds else None
                    self._background.keep(channel)
                    channel = None
                return outcome
            except (KeyboardInterrupt, SystemExit):
                self._kill_remote(header.pid)
                raise
            except ConnectionLostError as lost:
                raise self._left_behind(lost, command, header.pid, time.monotonic() - started, in_args) from None
            except (paramiko.SSHException, EOFError, OSError) as exc:
                dropped = self._lost("during command" + _cause(exc))
                raise self._left_behind(dropped, command, header.pid, time.monotonic() - started, in_args) from None
            finally:
                header.finish()
                stderr_header.finish()
                if channel is not None:
                    close_channel(channel)

    def _check_shell_ran(self, header: "_PidHeader", stderr: "_PidHeader", outcome: CommandOutcome) -> None:
        """Raise RemoteShellError when the command ended without our wrapper ever running.

        The wrapper prints its pid marker before anything else, so a command that exits
        without it was never run: the login shell is nologin or /bin/false (sshd runs
        `$SHELL -c COMMAND`, openssh-portable: session.c, do_child), or a ForceCommand ran in
        its place. Checked on the first command of the connection only.
        """
        if header.seen or header.gave_up:
            self._shell_checked = True
            return
        said = (header.pending_text() + "\n" + stderr.pending_text() + stderr.capture.text()).strip().splitlines()
        shown = f"it printed {said[0].strip()[:200]!r}" if said else "no output"
        for fragment, why, hint in _KNOWN_REFUSALS:
            if any(fragment in line for line in said):
                raise RemoteShellError(
                    f"{self.host}: the login shell did not run the command: {why} (exit code {outcome.exit_code}, {shown})",
                    hint=hint,
                )
        forced = getattr(self._connection.transport, "forced_command", None)
        if forced is not None:
            # The user certificate that logged in forces a command (ssh_certificates.forced_command):
            # the hint's guesses (nologin, ForceCommand, an rc file's exit) sent people to the host.
            raise RemoteShellError(
                f"{self.host}: the login shell did not run the command: the certificate that logged in ({forced[0]}) "
                f"forces the command {forced[1]!r} in place of every other, its force-command option "
                f"(exit code {outcome.exit_code}, {shown})",
                hint="get a certificate without force-command for this account from your CA (Vault: the role's critical "
                "options), or log in with another key (IdentityFile for this host in your ssh config)",
            )
        line = _forced_by_authorized_keys(getattr(self._connection.transport, "server_debug", ()))
        if line is not None:
            # sshd said, after the login, that the authorized_keys line that let the key in has a
            # command="..." option: the hint's other guesses (nologin, rc files) sent people elsewhere.
            raise RemoteShellError(
                f"{self.host}: the login shell did not run the command: the host's authorized_keys line that let the key "
                f"in ({line}) forces a command in place of every other, its command=\"...\" option "
                f"(exit code {outcome.exit_code}, {shown})",
                hint=f"on the host, take command=\"...\" off line {line} (or ask its admin; such keys are often kept "
                     "for backups or rsync), or log in with another key whose line has none (IdentityFile for this "
                     "host in your ssh config)",
            )
        refused = RemoteShellError(
            f"{self.host}: the login shell did not run the command (exit code {outcome.exit_code}, {shown})",
            hint=_NO_COMMAND_HINT.format(exits=_startup_file_exits(None)),
        )
        refused.said = said  # type: ignore[attr-defined]  # _exec_named reads the VIA_SH try's
        raise refused

    def interrupt(self) -> None:
        """Stop running commands (each run() kills its remote tree and returns promptly) and
        the file copy in progress."""
        self._interrupted.set()
        self._files.interrupt()

    def _pump(
        self, channel: paramiko.Channel, stdout: "_PidHeader", stderr: "_PidHeader", deadline: float | None
    ) -> Literal["exited", "timeout", "interrupted"]:
        """Drain both streams until EOF, then wait for the exit status.

        After the exit status, EOF may trail: a process left in the background holds the
        streams open (the channel is then kept, ssh_background), or sshd has not sent all
        the step printed yet. A step that printed megabytes just before it ended, over a link
        slowed by rekeying (sshd_config RekeyLimit) or a busy host: sshd sends the exit status
        at once and the output it holds after it, more than _DRAIN_AFTER_EXIT_S later. It was
        taken for a background process: the step's last lines, its results, were read and
        dropped. Now, where none of the step's processes is alive, the rest is read while it
        comes.
        """
        exited_at: float | None = None
        read_at_exit = 0
        buffered: bool | None = None  # whether the step's processes are all gone (checked once)
        pumped_from = time.monotonic()
        while True:
            self._drain(channel, stdout, stderr)
            stdout.capture.show_unended()  # a prompt or a line with no end yet, once quiet (--show-output)
            stderr.capture.show_unended()
            if channel.eof_received or channel.closed:
                break
            now = time.monotonic()
            if deadline is not None and now >= deadline:
                return "timeout"
            if self._interrupted.is_set():
                return "interrupted"
            if channel.exit_status_ready():
                if exited_at is None:
                    exited_at, read_at_exit = now, _bytes_read(stdout, stderr)
                if now - exited_at > _DRAIN_AFTER_EXIT_S:
                    if buffered is None:
                        alive, stdout.holds = self._step_tree_alive(stdout.pid)
                        buffered = not alive
                    if not buffered or not _still_unsent(channel, stdout, stderr, read_at_exit, now):
                        break
                    if now - exited_at > _DRAIN_AFTER_EXIT_S + _HELD_OUTPUT_S:
                        break
            if not self._connection.transport.is_active():
                # Seen here, between the channel's close and the next look at it (paramiko closes
                # the channels, then marks the transport inactive; on a busy machine this loop
                # wakes in between): the same reading of a quiet tunnel as _outcome gives.
                raise self._through_a_quiet_tunnel(
                    self._lost("during command"), now - max(pumped_from, stdout.written_at, stderr.written_at))
            wait = 0.2 if deadline is None else max(0.0, min(0.2, deadline - now))
            # The channel's fileno is a pipe that paramiko makes readable when either stream
            # has data or the channel reaches EOF (paramiko/channel.py, fileno).
            wait_readable(channel, wait)
        self._drain(channel, stdout, stderr)
        while not channel.status_event.wait(0.2):
            if deadline is not None and time.monotonic() >= deadline:
                return "timeout"
            if self._interrupted.is_set():
                return "interrupted"
            if channel.closed or not self._connection.transport.is_active():
                break
        return "exited"

    def _await_pid(self, channel: paramiko.Channel, stdout: "_PidHeader", stderr: "_PidHeader", *,
                   within_s: float | None = None) -> None:
        """Read on, for up to ConnectTimeout, until the wrapper's pid line comes, for a step that
        timed out before it came. A step's time counts from its channel's open: on a loaded
        host or a link that stalled a moment (a VPN, a 20 kB/s tunnel) the shell had started
        the step, but its pid line was still on the way at the deadline, and the kill, with no
        pid, killed nothing: the step was recorded "process tree killed" while it ran on. Also
        ends when the session ends (_signal_session killed it). After Ctrl-C (`within_s` given:
        the user waits) it reads only that long, and the interrupt does not end it."""
        until = time.monotonic() + (self._connection.target.connect_timeout_s if within_s is None else within_s)
        while not stdout.seen and not (channel.eof_received or channel.closed) and time.monotonic() < until:
            if (within_s is None and self._interrupted.is_set()) or not self._connection.transport.is_active():
                return
            wait_readable(channel, min(0.2, max(0.0, until - time.monotonic())))
            self._drain(channel, stdout, stderr)

    def _left_behind(self, lost: ConnectionLostError, command: str, pid: int | None, elapsed_s: float,
                     in_args: bool) -> ConnectionLostError:
        """`lost`, naming the step's command as left running when it had started (its pid line
        came). sshd's session dying (an OOM kill of sshd, a network cut) does not end it: with no
        terminal there is no SIGHUP, and the command runs on under init until it writes to the
        closed pipe (a server that logs to a file never does), holding its GPUs and port. The
        record said only "a remote process may still be running"; a run timed out or
        interrupted with its kill unsent already names the command and how to find it
        (_left_running), and so does this one now: the step's record (engine: cut_short) and the
        hint. A host that rebooted runs nothing, and the check then lists nothing."""
        if pid is None or command == _FIRST_COMMAND or getattr(lost, "left_running", None) is not None:
            return lost  # not started; our own login check; a timed-out step's unsent kill (_not_killed) says it
        said = (lost.hint or "").removesuffix("a remote process may still be running").rstrip("; ")
        hint = f"{said}; " if said else ""
        stopped = self._stop_left_behind(pid)
        if isinstance(stopped, HostKeyError):
            # It answered a new connection, with another host key: the name leads elsewhere now
            # (an address or VIP moved to another machine, a reinstall), and the command may run
            # on where the run started, which the check below cannot reach by that name.
            refused = stopped.message.removeprefix(self.host + ": ")
            hop = refused.partition(": ")[0] if refused.startswith("jump host ") else None
            hint = (f"{self.host} answered a new connection at once, with another host key ({refused}), so the step's command "
                    "was not stopped: the name may now lead to another machine than the one the step ran on (an address or "
                    "VIP moved, a reinstall); " if hop is None else
                    f"a new connection to {self.host} met another host key at its {hop} ({refused.partition(': ')[2]}), so the step's command "
                    f"was not stopped: {hop.removeprefix('jump host ')} may now lead to another machine (an address or VIP "
                    "moved, a reinstall); ")
            stopped = None
        elif isinstance(stopped, _AsksAgain):
            # It answered a new connection (and asked a question): it did not reboot.
            hint = self._answered_at_once(said, hint)
            hint += f"{stopped.message.removeprefix(self.host + ': ')}, which stopping the step's command does not wait for; "
            stopped = None
        if stopped is not None:
            # It answered a new connection and ran the check: it did not reboot.
            hint = self._answered_at_once(said, hint)
            hint += (f"the step's command (process group {pid}) was still running on {self.host}; it was stopped over a new connection"
                     if stopped else f"the step's command (process group {pid}) had ended on {self.host} (checked over a new connection)")
            return ConnectionLostError(lost.message, hint=hint)
        left = self._left_running(command, elapsed_s, in_args, why="the connection was lost")
        hint += (f"the step's command may still be running on {self.host}: check with `{left.check}` "
                 "and kill it before running the step again")
        behind = ConnectionLostError(lost.message, hint=hint)
        behind.left_running = left  # type: ignore[attr-defined]
        return behind

    def _answered_at_once(self, said: str, hint: str) -> str:
        """The hint's start once a new connection got through at once, where the loss was put
        down to a reboot: of the host, or of the jump host it was blamed on (_blame_jump). A
        bastion whose connection dropped (a VPN blip, its sshd's session process killed) while it
        stayed up was said to have rebooted, beside "stopped over a new connection" through it."""
        if said == "the host rebooted, sshd restarted or the network dropped":
            return (f"{self.host} took a new connection at once: the step's SSH session ended (sshd's session process "
                    "was killed, e.g. by the OOM killer, or the network dropped a moment), not the host; ")
        jump = said.removesuffix(_JUMP_DROPPED)
        if jump != said:
            return (f"{jump} took a new connection at once, and {self.host} one through it: the connection through {jump} "
                    f"ended (the network to it dropped a moment, or its sshd's session process was killed), not {jump} "
                    "itself; every host reached through it was cut off the same way; ")
        return hint

    def _left_running(self, command: str, elapsed_s: float, in_args: bool, why: str | None = None) -> LeftRunning:
        """A step whose pid line had not come when it timed out, nor ConnectTimeout later
        (_await_pid), or when the run was interrupted: with no pid there was nothing to kill,
        and the command, started or about to be (its shell still in its rc files), may run on;
        "process tree killed" sent the reader to rerun beside it, and an interrupted step's
        record said nothing of it. The check names the command's first line."""
        return LeftRunning(host=self.host, check=left_running_check(command, in_args=in_args), waited_s=elapsed_s, why=why)

    def _step_tree_alive(self, pid: int | None) -> tuple[bool, set[int] | None]:
        """Whether a process of the step's group or session is alive on the host (checked over a
        second channel, as the kill is); True where it cannot be told (no pid, the channel
        refused, no answer in time): the channel is then kept as a background one, as before.
        With it, which of fds 1 and 2 such processes hold as a pipe (None: not told)."""
        if pid is None:
            return True, None
        try:
            # Only a free slot: closing a kept background channel to make room (as a step's
            # channel does) closed an earlier step's server's stdout, and it died of SIGPIPE.
            # The retry stays: on a MaxSessions 1 host sshd frees the step's slot a moment after
            # its exit status, later on a loaded host (refused without it: the output dropped).
            channel = self._open_session(retry_s=_KILL_CHANNEL_RETRY_S, interruptible=False, make_room=False)
        except (_SessionRefused, SpecDebugError, paramiko.SSHException, EOFError, OSError):
            return True, None
        try:
            started = time.monotonic()
            _exec_script(
                channel, _TREE_ALIVE_SCRIPT.format(pid=pid), via_sh=self._via_sh, within_s=_TREE_CHECK_TIMEOUT_S,
                host=self.host, what="the end-of-step check's",
            )
            if not channel.status_event.wait(max(0.0, _TREE_CHECK_TIMEOUT_S - (time.monotonic() - started))):
                return True, None
            if channel.exit_status == 1:
                return False, None
            # The exit status may come before the last of the output: read on until EOF (briefly).
            output = bytearray()
            eof_by = time.monotonic() + _DRAIN_AFTER_EXIT_S
            while not (channel.eof_received or channel.closed) or channel.recv_ready():
                if channel.recv_ready():
                    output += channel.recv(_READ_SIZE)
                elif time.monotonic() >= eof_by:
                    break
                else:
                    wait_readable(channel, 0.05)
            holds = {int(line[len(_HOLDS_MARKER):]) for line in output.decode("utf-8", "replace").splitlines()
                     if line.startswith(_HOLDS_MARKER) and line[len(_HOLDS_MARKER):] in ("1", "2")}
            return True, holds or None
        except (_ExecUnanswered, paramiko.SSHException, EOFError, OSError):
            return True, None
        finally:
            close_channel(channel)

    def _read_dying_words(self, channel: paramiko.Channel, stdout: "_PidHeader", stderr: "_PidHeader") -> None:
        """Read what the timed-out step printed as its tree was killed, until the channel's EOF
        or _DYING_WORDS_S: the kill (a second channel) has waited for the tree to die, and its
        last words (torchrun's "Received Signals.SIGTERM death signal", a faulthandler stack
        dump on SIGTERM) are the evidence of where it hung; they were left unread in the channel."""
        until = time.monotonic() + _DYING_WORDS_S
        while True:
            self._drain(channel, stdout, stderr)
            left = until - time.monotonic()
            if channel.eof_received or channel.closed or left <= 0 or not self._connection.transport.is_active():
                return
            wait_readable(channel, min(0.2, left))

    @staticmethod
    def _drain(channel: paramiko.Channel, stdout: "_PidHeader", stderr: "_PidHeader") -> None:
        """Read whatever is buffered, a chunk of each stream in turn, so neither starves."""
        while True:
            progressed = False
            if channel.recv_ready():
                stdout.write(channel.recv(_READ_SIZE))
                progressed = True
            if channel.recv_stderr_ready():
                stderr.write(channel.recv_stderr(_READ_SIZE))
                progressed = True
            if not progressed:
                return

    def _outcome(self, channel: paramiko.Channel, started: float, stdout: "_PidHeader", stderr: "_PidHeader") -> CommandOutcome:
        duration = time.monotonic() - started
        signal_name = getattr(channel, "exit_signal_name", None)
        if signal_name is not None:
            number = _signal_number(signal_name)
            if number is None:
                # OpenSSH's sshd names 13 signals and sends "SIG@openssh.com" for any other
                # (openssh-portable: session.c, sig2name): SIGBUS (a checkpoint read through mmap
                # while it was truncated), SIGXCPU and SIGXFSZ (ulimit -t, -f), SIGTRAP, SIGSYS.
                # With no exit code the step passed; ssh(1) exits 255 for it.
                return CommandOutcome(exit_code=255, duration_s=duration, signal_name=signal_name)
            return CommandOutcome(exit_code=128 + number, duration_s=duration, signal=number)
        if channel.status_event.is_set() and channel.exit_status >= 0:
            return CommandOutcome(exit_code=channel.exit_status, duration_s=duration)
        if self._connection_going_down():
            raise self._through_a_quiet_tunnel(self._lost("during command"),
                                               time.monotonic() - max(started, stdout.written_at, stderr.written_at))
        raise self._closed_under_command(stdout.pid, time.monotonic() - max(started, stdout.written_at, stderr.written_at))

    def _through_a_quiet_tunnel(self, lost: ConnectionLostError, silent_s: float) -> ConnectionLostError:
        """`lost`, said to be a jump host's forwarded connection (or a ProxyCommand's tunnel)
        ending, where the step printed nothing for a while before it and that jump host stayed up.

        A bastion's `ChannelTimeout direct-tcpip=15m` (OpenSSH 9.2+, sshd_config(5)) closes the
        forwarded connection to the host behind it (or to the next jump host of a chain) once
        nothing crosses it for that long: a quiet step (a benchmark that reports at the end) lost
        its connection, and the hint guessed the host's sshd session had been OOM-killed, or the
        next jump host had rebooted. ServerAliveInterval keeps the tunnel busy."""
        via = self._connection.via
        plain = f"{self.host}: SSH connection lost during command"
        if silent_s < _QUIET_TUNNEL_S:
            return lost  # output until the end
        if not via:
            if lost.message != plain or not self._connection.target.proxy_command:
                return lost  # no tunnel; silent, or a ProxyCommand that failed (failed_proxy): _lost said it
            # A ProxyCommand that said nothing (an `ssh -W` whose bastion closed the forwarded
            # connection exits 0 silently; so may a cloud session at its idle timeout).
            return ConnectionLostError(
                f"{plain}: the connection through its ProxyCommand ended after about {max(1, round(silent_s)):g} s without "
                "traffic",
                hint="the tunnel the ProxyCommand makes may close once nothing crosses it for a while (under `ssh -W`, the "
                "bastion's sshd_config ChannelTimeout direct-tcpip=..., OpenSSH 9.2+; a cloud session's idle timeout): set "
                f"ServerAliveInterval for {self.host} in your ssh config below that time (its keepalives cross the tunnel), "
                f"or have the step print progress; else {self.host}'s sshd session ended (the OOM killer?) or the network "
                "dropped; a remote process may still be running",
            )
        down = dropped_hop(via, within_s=0)
        cut = len(via) if down is None else via.index(down)  # the first connection that ended: the host's, or a hop's
        said = plain if down is None else f"{plain}: its jump host {down.target.alias} dropped the connection"
        if cut == 0 or lost.message != said:
            return lost  # the first jump host itself went down; silent, or a ProxyCommand: _lost said it
        jump = via[cut - 1].target.alias
        beyond = self.host if down is None else down.target.alias
        otherwise = (f"{self.host}'s sshd session ended (the OOM killer?) or the network dropped" if down is None
                     else f"{beyond} went down or the network to it dropped")
        return ConnectionLostError(
            f"{plain}: the connection through jump host {jump}{'' if down is None else f' to {beyond}'} ended after about "
            f"{max(1, round(silent_s)):g} s without traffic, while {jump} stayed up",
            hint=f"{jump}'s sshd may close forwarded connections that carry nothing for a while (sshd_config ChannelTimeout "
            f"direct-tcpip=..., OpenSSH 9.2+; `sshd -T | grep -i channeltimeout` on {jump} shows it): set ServerAliveInterval "
            f"for {self.host} in your ssh config below that time (its keepalives cross the jump host), or have the step print "
            f"progress; else {otherwise}; a remote process may still be running",
        )

    def _closed_under_command(self, pid: int | None, silent_s: float) -> TransportError:
        """sshd closed the command's channel while the command ran, the connection up.

        sshd_config's ChannelTimeout (OpenSSH 9.2+; hardening guides set `session:*=15m`)
        closes a session channel that carried no data for that long: a quiet step (a
        benchmark that writes its results at the end, a `sleep` waiting for a server) is cut
        off, without an exit status, and its processes run on: "terminating an inactive
        session does not guarantee to remove all resources associated with the session, e.g.
        shell processes ... may continue to execute" (sshd_config(5), ChannelTimeout). They are
        killed here as a timed-out step's are; ssh(1) would leave them."""
        killed = self._kill_remote(pid)
        left = "; its processes may still run on the host" if pid is None or isinstance(killed, TransportError) else (
            f"; {len(killed)} of its processes outlived the kill" if killed else "; its processes on the host were killed")
        if silent_s < 0.5:
            return TransportError(f"{self.host}: the server closed the command's channel without an exit status{left}")
        # The cause is in the message: a host's error is recorded and shown by its first line alone.
        closed = TransportError(
            f"{self.host}: the server closed the step's channel after about {max(1, round(silent_s)):g} s without output, while the command "
            f"still ran (sshd_config's ChannelTimeout closes quiet sessions){left}",
            hint="the host's sshd closes quiet sessions: sshd_config's ChannelTimeout (OpenSSH 9.2+, e.g. "
            "`ChannelTimeout session:*=15m`; `sshd -T | grep -i channeltimeout` on the host shows it); have the step "
            "print progress while it works, or raise or remove that timeout",
        )
        closed.step_only = self._connection.transport.is_active()  # the next step gets a channel of its own
        return closed

    def _not_killed(self, cause: TransportError, timeout_s: float | None) -> TransportError:
        """The error of a step that timed out on a connection that could not carry its kill."""
        if isinstance(cause, ConnectionLostError):
            return self._lost(f"after the step timed out ({timeout_s:g} s), before its processes could be killed")
        return TransportError(
            f"{self.host}: the step timed out ({timeout_s:g} s) and its processes could not be killed: "
            f"{cause.message.removeprefix(self.host + ': ')}",
            hint=f"{cause.hint}; the step's processes may still run on the host" if cause.hint else None,
        )

    def _kill_remote(self, pid: int | None) -> "TransportError | Survivors | None":
        """Kill the remote process tree over a fresh channel (best effort). Returns the error
        that kept the kill from reaching the host when the connection is lost or hung, the
        processes that outlived SIGKILL (state D), or None.

        No session slot is taken: the step's own slot is still held, and waiting for another
        while every step times out at once would deadlock. When sshd refuses the channel, the
        step's session is what fills it (sshd keeps a session until its command exits, even
        after the channel closes: openssh-portable session.c, session_close_by_channel), so
        waiting is pointless: the kill goes over a second connection instead.
        """
        if not self._connection.transport.is_active():
            return self._lost("during command")
        if pid is None:
            return None
        # The standard places on PATH: under an rc file that clobbered PATH `sleep` was not
        # found, the grace period's 50 rounds passed at once and SIGKILL followed SIGTERM
        # immediately (a faulthandler dump or a checkpoint save on SIGTERM was cut off).
        script = WITH_STANDARD_PATH + _KILL_SCRIPT.format(pid=pid, rounds=int(_KILL_GRACE_S / 0.1), reap_rounds=int(_REAP_AFTER_KILL_S / 0.1))
        try:
            # After Ctrl-C the user waits: no patience with a busy link then.
            patience = 0.0 if self._interrupted.is_set() else _KILL_CHANNEL_PATIENCE_S
            channel = self._open_session(retry_s=_KILL_CHANNEL_RETRY_S, interruptible=False, busy_link_patience_s=patience)
        except _SessionRefused:
            killed = self._kill_over_second_connection(script)
            if isinstance(killed, TransportError):
                # sshd answered on this connection (it refused the channel): the host was reached
                # and still is, only a second connection to it failed (engine: SD002, not SD005)
                killed.host_answered = True  # type: ignore[attr-defined]
            return killed
        except TransportError as exc:
            return exc  # lost, or sshd hung: it did not open the channel in ConnectTimeout
        except (paramiko.SSHException, EOFError, OSError):
            return self._lost("during command")
        return _run_kill_script(channel, script, host=self.host, via_sh=self._via_sh)

    def _stop_left_behind(self, pid: int) -> "bool | _AsksAgain | HostKeyError | None":
        """Whether the command of a step whose connection dropped was stopped over a new one
        (False: it had ended already), None where that could not be done or told, _AsksAgain
        where the new login asked a question (a one-time code): it asks nobody, as the kill's;
        the HostKeyError where the host answered with another key (the name leads elsewhere now).

        sshd's session process dying (the OOM killer picks it, a network blip, `kill` of the
        wrong sshd) leaves the command running under init, holding its GPUs and port, while the
        host still takes connections: the record named it left running and how to find it,
        and the user killed it by hand. A host that answers a new connection within
        _STOP_LEFT_BEHIND_CONNECT_S has the step's group and session killed there, as at a
        timeout (_KILL_SCRIPT). Not for a host that stopped answering (a frozen sshd would hold
        the run for the whole bound), nor after Ctrl-C; a host that rebooted or whose sshd is
        down refuses at once, and the command is named as left running, as before."""
        transport = self._connection.transport
        if (self._reconnect is None or self._interrupted.is_set() or getattr(transport, "not_responding", None) is not None
                or getattr(transport.sock, "gave_up_after_s", None) is not None):
            return None
        script = WITH_STANDARD_PATH + _KILL_SCRIPT.format(pid=pid, rounds=int(_KILL_GRACE_S / 0.1), reap_rounds=int(_REAP_AFTER_KILL_S / 0.1))
        try:
            with abandoned_after(_STOP_LEFT_BEHIND_CONNECT_S):
                # Asking nobody: a one-time code's prompt came up in the middle of the run (other
                # hosts printing) for the bound's 5 s, and a code cannot be reused.
                second = (self._reconnect_unasked or self._reconnect)()
        except (_AsksAgain, HostKeyError) as exc:
            return exc
        except (SpecDebugError, paramiko.SSHException, EOFError, OSError):
            return None
        try:
            alive = self._group_alive_over(second, pid)
            if alive is not True:
                return None if alive is None else False
            channel = second.transport.open_session(timeout=_STOP_LEFT_BEHIND_CONNECT_S)
            _run_kill_script(channel, script, host=self.host, via_sh=self._via_sh)
            return True if self._group_alive_over(second, pid) is False else None  # only once seen gone
        except (paramiko.SSHException, EOFError, OSError):
            return None
        finally:
            second.close()

    def _group_alive_over(self, connection: Connection, pid: int) -> bool | None:
        """_TREE_ALIVE_SCRIPT's answer over `connection`; None where it gave none in time."""
        channel = connection.transport.open_session(timeout=_STOP_LEFT_BEHIND_CONNECT_S)
        try:
            _exec_script(channel, _TREE_ALIVE_SCRIPT.format(pid=pid), via_sh=self._via_sh, within_s=_TREE_CHECK_TIMEOUT_S,
                         host=self.host, what="the end-of-step check's")
            if not channel.status_event.wait(_TREE_CHECK_TIMEOUT_S):
                return None
            return {0: True, 1: False}.get(channel.exit_status)
        except _ExecUnanswered:
            return None
        finally:
            close_channel(channel)

    def _kill_over_second_connection(self, script: str) -> "Survivors | TransportError | None":
        if self._reconnect is None:
            return None
        # After Ctrl-C the kill is a courtesy: a host whose sshd does not answer a new
        # connection (frozen listener, MaxStartups) held the interrupted run for the second
        # connection's whole ConnectTimeout (15 s by default), after abandon_connects() had
        # already run. A step's own timeout still waits for it: there is no one waiting.
        bounded = abandoned_after(_KILL_CONNECT_AFTER_INTERRUPT_S) if self._interrupted.is_set() else nullcontext()
        try:
            with bounded:
                second = (self._reconnect_unasked or self._reconnect)()
        except _AsksAgain as exc:
            return self._second_connection_failed(
                exc.message.removeprefix(self.host + ": ") + ", which a kill does not wait for",
                hint="kill the step's processes on the host by hand (its record says how to find them), or raise MaxSessions "
                "in sshd_config so that a kill fits beside a step on the run's own connection")
        except SpecDebugError as exc:
            return self._second_connection_failed(exc.message.splitlines()[0].removeprefix(self.host + ": "))
        except (paramiko.SSHException, EOFError, OSError) as exc:
            return self._second_connection_failed(_one_line(exc))
        try:
            return _run_kill_script(
                second.transport.open_session(timeout=second.target.connect_timeout_s), script, host=self.host, via_sh=self._via_sh
            )
        except (paramiko.SSHException, EOFError, OSError) as exc:
            return self._second_connection_failed(_one_line(exc))
        finally:
            second.close()

    def _second_connection_failed(self, why: str, hint: str | None = None) -> TransportError:
        """The kill's second connection failed: the step's tree was not killed. It was recorded
        "process tree killed" (a refused connection returned as if the kill had run), while the
        step ran on and kept the host's only session: a host whose sshd listener had stopped
        (`systemctl stop ssh` keeps open sessions) or met MaxStartups, and every later step of
        the host then waited for a channel and failed "raise MaxSessions"."""
        return TransportError(
            f"{self.host}: sshd refused the kill a channel (the step fills the host's MaxSessions) and a second "
            f"connection failed: {why}",
            hint=hint or "kill the step's processes on the host by hand once it takes connections again (its sshd stopped "
            "listening, or is busy: MaxStartups), or raise MaxSessions in sshd_config so that a kill fits beside a step",
        )

    # -- files ------------------------------------------------------------------------------

    def _kill_copy(self, pid: int) -> None:
        """Kill a file copy's tree on the host as a timed-out step's is killed (best effort: a
        connection gone meanwhile is reported by whoever uses it next)."""
        try:
            self._kill_remote(pid)
        except (paramiko.SSHException, EOFError, OSError):
            pass

    def put(self, local_path: Path, remote_path: str) -> None:
        with self._files_lost():
            self._copying(lambda: self._files.put(local_path, remote_path))

    def get(self, remote_path: str, local_path: Path, max_bytes: int | None = None) -> None:
        with self._files_lost():
            self._copying(lambda: self._files.get(remote_path, local_path, max_bytes))

    def exists(self, remote_path: str) -> bool:
        with self._files_lost():
            return self._copying(lambda: self._files.exists(remote_path))

    def _copying(self, copy: Callable[[], _T]) -> _T:
        """copy(), again over a new connection if sshd refused its channel (no byte was copied)."""
        try:
            return copy()
        except _SessionRefused as refused:
            self._on_a_fresh_connection_if_refused(refused)
            return copy()

    @contextmanager
    def _files_lost(self) -> Iterator[None]:
        self._reopen_if_closed_while_idle()
        try:
            yield
        except ConnectionLostError as exc:
            said = f"{self.host}: SSH connection lost "
            if exc.hint is None and exc.message.startswith(said):
                # RemoteFiles sees only that the connection is gone. Why, and what to do, is the
                # transport's to say, as for a command (_lost): a fetch cut by a host going down
                # said "SSH connection lost while copying X" with no hint, where a command cut the
                # same way said what to check (and names a ProxyCommand that ended, or keepalives
                # unanswered, when those are why).
                raise self._lost(exc.message[len(said):]) from None
            blamed = self._blame_jump(exc)
            if blamed is exc:
                raise
            raise blamed from None

    # -- connection -------------------------------------------------------------------------

    @property
    def connection(self) -> Connection:
        return self._connection

    def connect_warnings(self) -> list[str]:
        # Each hop of a ProxyJump chain verified its own key (ssh_handshake.handshake): a jump
        # host accepted with a changed key is as much a man-in-the-middle risk as the target.
        hops = [*self._connection.via, self._connection]
        warnings = [hop.transport.host_key_warning for hop in hops if getattr(hop.transport, "host_key_warning", None)]
        tty = request_tty_warning(self._connection.target)
        return [*warnings, tty] if tty else warnings

    def close(self) -> None:
        self._background.close()
        self._files.close()
        self._connection.close()

    @contextmanager
    def _session_slot(self) -> Iterator[None]:
        """Hold one of sshd's MaxSessions channel slots while a channel is open."""
        self._sessions.acquire()
        try:
            yield
        finally:
            self._sessions.release()

    def _open_file_session(self) -> paramiko.Channel:
        try:
            return self._open_session()
        except _Interrupted:
            raise CopyInterrupted(f"{self.host}: file copy not started: the run was interrupted") from None

    def _open_session(
        self, retry_s: float = _CHANNEL_RETRY_S, *, interruptible: bool = True, busy_link_patience_s: float = 0.0,
        make_room: bool = True,
    ) -> paramiko.Channel:
        """A new session channel; raises _Interrupted on interrupt() (unless `interruptible` is
        False: the channel that kills a step's tree must open after the interrupt). Refused,
        it closes our idle SFTP channel or the oldest kept background channel to make room,
        unless `make_room` is False.

        The server's answer comes within ConnectTimeout, or, with `busy_link_patience_s`, within
        that long as long as the connection keeps delivering output: on a slow link the answer
        queues behind what a step printed before it timed out (up to paramiko's 2 MiB window)."""
        if not self._connection.transport.is_active():
            raise self._lost("before the step could start")
        # sshd frees a session slot only once it has processed our CLOSE, which can trail our
        # semaphore release; a server with a lower MaxSessions than ours refuses the same way.
        # Both are transient: retry for a while before calling the host broken.
        deadline = time.monotonic() + retry_s
        give_up = self._interrupted.is_set if interruptible else (lambda: False)
        timeout = self._connection.target.connect_timeout_s
        open_timeout = max(timeout, busy_link_patience_s)
        asked_at = time.monotonic()
        refused_since: float | None = None

        def silent() -> bool:
            if busy_link_patience_s <= 0:
                return False
            heard = max(asked_at, getattr(self._connection.transport, "data_arrived_at", 0.0))
            return time.monotonic() - heard >= timeout

        while True:
            if give_up():
                raise _Interrupted(f"{self.host}: interrupted before the command's channel opened")
            try:
                # A hung sshd (a host thrashing) answers no channel open for the whole timeout;
                # Ctrl-C must not wait for it.
                channel = open_channel_unless(
                    lambda: self._connection.transport.open_session(timeout=open_timeout), lambda: give_up() or silent()
                )
                if channel is None:
                    if not give_up():
                        raise self._no_session_within(timeout)
                    raise _Interrupted(f"{self.host}: interrupted before the command's channel opened")
                self._granted_a_session = True
                _send_environment(channel, self._connection.target)
                return channel
            except paramiko.ChannelException as exc:
                if not self._connection.transport.is_active():
                    raise self._lost("while opening a channel") from None
                if not self._granted_a_session:
                    raise TransportError(
                        f"{self.host}: the server accepted the login but refuses every session channel ({exc.text})",
                        hint="sshd_config allows no sessions for this account (MaxSessions 0, or a Match block "
                        "with ForceCommand/DisableForwarding); ask for a shell account",
                    ) from None
                # Our kept SFTP channel, or a channel a background server still writes to, may
                # hold the server's only slot (MaxSessions 1). The idle SFTP channel costs
                # nothing to reopen; a server's channel is its stdout (closed, it dies of SIGPIPE),
                # so that one goes only once the refusal outlasts a slot we just freed: sshd frees
                # a closed session's slot when it garbage-collects the channel, before its next
                # read (openssh-portable: serverloop.c, server_loop2; channels.c,
                # channel_garbage_collect), so our CLOSE of the last step's check and this OPEN,
                # come in one read on a loaded host, were refused, and an earlier step's server died.
                refused_since = refused_since if refused_since is not None else time.monotonic()
                patient = time.monotonic() - refused_since < min(_FREED_SLOT_GRACE_S, retry_s / 2)
                if make_room and (self._files.release_idle() or (not patient and self._background.release_oldest())):
                    continue
                if time.monotonic() >= deadline:
                    raise _SessionRefused(
                        f"{self.host}: the server refused a new session channel ({exc.text})",
                        hint="lower the number of concurrent commands or raise MaxSessions in sshd_config",
                    ) from None
                time.sleep(0.02)
            except paramiko.SSHException as exc:
                if self._connection.transport.is_active() and "timeout" in str(exc).lower():
                    # paramiko/transport.py, open_channel: "Timeout opening channel."
                    raise self._no_session_within(open_timeout) from None
                raise self._lost("while opening a channel" + _cause(exc)) from None
            except (EOFError, OSError) as exc:
                raise self._lost("while opening a channel" + _cause(exc)) from None

    def _no_session_within(self, seconds: float) -> TransportError:
        return TransportError(
            f"{self.host}: the server accepted the login but did not open a session within {seconds:g} s",
            hint="sshd on the host is hung or overloaded (check its load and MaxStartups); raise ConnectTimeout if it is only slow",
        )

    def _connection_going_down(self) -> bool:
        """Whether the connection is down, giving a dying one a moment to be seen so.

        paramiko's transport thread, on a dropped connection, first closes every channel and
        only then marks itself inactive (paramiko/transport.py, run): a step woken by its
        channel closing can look in between and see a live connection under a channel that
        ended without an exit status.
        """
        deadline = time.monotonic() + _DEATH_NOTICE_S
        while self._connection.transport.is_active():
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.02)
        return True

    def _lost(self, when: str) -> ConnectionLostError:
        silent: object = getattr(self._connection.transport, "not_responding", None)
        gave_up = getattr(self._connection.transport.sock, "gave_up_after_s", None)  # ssh_tcp._TcpSocket
        if silent is None and gave_up is not None:
            silent = f"the server stopped answering (TCP gave up after {gave_up:g} s: the host took in nothing we sent)"
        if silent is not None:
            return ConnectionLostError(
                f"{self.host}: SSH connection lost {when}: {silent}",
                hint="the host is hung or thrashing (sshd frozen, out of memory, a dead NFS mount), or the network "
                "to it went dark; raise ServerAliveCountMax if it is only very slow",
            )
        proxy = failed_proxy(self._connection.transport.sock)
        if proxy is not None:
            command = self._connection.target.proxy_command
            return ConnectionLostError(
                f"{self.host}: SSH connection lost {when}: its ProxyCommand {command!r} {proxy}",
                hint="the ProxyCommand (a tunnel, a cloud session, a bastion's ssh -W) ended under the session, "
                "not necessarily the host: run it by hand to see why; a remote process may still be running",
            )
        return self._blame_jump(
            ConnectionLostError(
                f"{self.host}: SSH connection lost {when}",
                hint="the host rebooted, sshd restarted or the network dropped; a remote process may still be running",
            )
        )

    def _blame_jump(self, lost: ConnectionLostError) -> ConnectionLostError:
        """`lost`, or the same loss said to be its jump host's when that went down too: a
        bastion that dies takes every host behind it along, and five hosts that look rebooted
        would send the reader after machines that are fine."""
        hop = dropped_hop(self._connection.via)
        if hop is None:
            return lost
        jump = hop.target.alias
        return ConnectionLostError(
            f"{lost.message}: its jump host {jump} dropped the connection",
            hint=f"{jump}{_JUMP_DROPPED}; a remote process may still be running",
        )


# What a loss put down to the jump host says after its name (_blame_jump, _answered_at_once).
_JUMP_DROPPED = " rebooted, its sshd restarted or the network to it dropped; every host reached through it is cut off the same way"


def _cause(exc: BaseException) -> str:
    """` (what paramiko said)`, or nothing: its EOFError says nothing, and "()" is noise."""
    text = str(exc).strip()
    return f" ({text.splitlines()[0]})" if text else ""


# sshd runs every command as `$SHELL -c COMMAND` (openssh-portable: session.c, do_child), and
# bash then reads ~/.bashrc although it is not interactive (bash: shell.c, run_startup_files,
# "the shell is being run by sshd", built with SSH_SOURCE_BASHRC as Debian and Ubuntu do); zsh
# reads ~/.zshenv for every shell. An `exit` at the top of that file ends each command before
# it starts, exactly as nologin would, with no output. So does an `exec fish` there (where chsh is
# not allowed): the command is dropped, fish reads the connection's stdin, which is empty, and
# exits 0; fish reads all of stdin before it runs any, so even the `exec /bin/sh -s` way cannot
# hand it a wrapper (recorded: fish 3.6 under a ~/.bashrc `exec fish`, "exit code 0, no output").
def _startup_file_exits(shell: str | None) -> str:
    """The startup-file cause of the hint, naming the exec'd shell where its error told it
    (_exec_named), else none: "an `exec fish`" sent the user of elvish or nushell after a fish."""
    execed = f"an `exec {shell}` into another shell" if shell is not None else "an `exec` into a shell that is not POSIX sh"
    return (
        f"the shell's startup file ends it first (an `exit`, or {execed}, in ~/.bashrc, "
        "/etc/bash.bashrc or ~/.zshenv, which bash and zsh read for ssh commands too: then `ssh HOST echo ran` prints "
        "nothing; for non-interactive shells leave with `[ -z \"$PS1\" ] && return` before them)"
    )


_NO_COMMAND_HINT = (
    "the account's shell is nologin or /bin/false, or a forced command runs instead (sshd_config "
    "ForceCommand, or a command=\"...\" option on the key in the host's ~/.ssh/authorized_keys), "
    "or {exits}; spec-debug needs an account whose login shell runs commands (sh, bash, zsh, or one that can `exec /bin/sh`)"
)

# The shell that a startup file `exec`s, told by its error at our wrapper: through VIA_SH the
# exec'd shell reads the wrapper from stdin (where the first try's empty stdin ended it with no
# output) and rejects its POSIX syntax. tcsh 6.24 and Debian's bsd-csh both say "Bad : modifier
# in $ '-'." at its `${SHLVL:-0}`; fish 3.6 prefixes its errors with "fish: " (recorded: the
# wrapper fed to each on stdin). A ~/.bashrc ending `exec tcsh` got a hint naming fish. elvish
# 0.19 says "Multiple parse errors in [tty 1]:" after its prompt (`~>`, which it prints at the
# first try's empty stdin too: that try's output is then the prompt); xonsh 0.13 ends its Python traceback
# with "SyntaxError: ('code: 1',)" (recorded: Debian bookworm's elvish and xonsh, the wrapper
# fed on stdin and through sshd). Any other (nushell's nu) is named by none: the hint says "a
# shell that is not POSIX sh", where it said "an `exec fish`" for each.
_EXECED_SHELLS = (
    ("fish: ", "fish"),
    ("Bad : modifier in $", "tcsh` or `exec csh"),
    ("Multiple parse errors in [", "elvish"),
    ("SyntaxError: ('code: ", "xonsh"),
)


def _forced_by_authorized_keys(server_debug: Iterable[str]) -> str | None:
    """`FILE:LINE` of the authorized_keys line with a forced command that let the key in, as
    sshd tells the client after the login ("/home/ops/.ssh/authorized_keys:3: key options:
    command user-rc"; openssh-portable: auth.c, auth_log_authopts, sent by auth_debug_send),
    else None. A certificate's options come as "...: key options: ..." too; those are named
    from the certificate itself (ssh_certificates.forced_command) before this is asked."""
    for said in server_debug:
        where, marker, options = said.rpartition(": key options:")
        if marker and where and "command" in options.split():
            return where
    return None


def _exec_named(refused: RemoteShellError, said: Iterable[str]) -> RemoteShellError:
    """`refused` (the first try's), its hint naming the shell whose error the VIA_SH try
    printed, when a startup file's `exec` into it is what ran in place of the command."""
    unnamed = _startup_file_exits(None)
    if refused.hint is None or unnamed not in refused.hint:
        return refused
    for fragment, shell in _EXECED_SHELLS:
        # elvish's error follows its prompt on one line ("~> Multiple parse errors in ..."):
        # the prompt on stdout, the error on stderr, read together.
        if any(line.strip().startswith(fragment) or f"> {fragment}" in line for line in said):
            named = RemoteShellError(refused.message, hint=refused.hint.replace(unnamed, _startup_file_exits(shell)))
            named.said = getattr(refused, "said", [])  # type: ignore[attr-defined]
            return named
    return refused


_CHROOT_MISSING = "sshd cannot enter the account's ChrootDirectory (a folder on its path is missing or is not a folder)"
_CHROOT_MISSING_HINT = ("on the host, create the ChrootDirectory that sshd_config names for this account (root-owned, "
                        "chmod 755; sshd -T -C user=NAME shows it), or use an account without a chroot")

# What a host prints instead of running any command, when the cause is not the login shell:
# each would otherwise send the user looking for a nologin shell or a ForceCommand.
_KNOWN_REFUSALS = (
    # sshd with UsePAM: the PAM account stack says the password must change (pam_unix, an
    # expired password or `passwd -e`); sshd then runs no command without a terminal: it prints
    # "WARNING: Your password has expired." and "Password change required but no TTY available."
    # (openssh-portable: session.c, do_pwchange).
    (
        "Password change required",
        "the account's password has expired, and sshd runs no command until it is changed",
        "log in once with `ssh` on a terminal and set a new password (or ask an admin: `chage -d`); "
        "key logins are refused commands too until then",
    ),
    # nologin(8) (util-linux: login-utils/nologin.c) prints this, or /etc/nologin.txt.
    (
        "This account is currently not available",
        "the account's shell is nologin",
        "use an account with a shell (sh, bash, zsh), or ask for this one's shell to be changed (chsh)",
    ),
    # sshd's ChrootDirectory that is not root-owned or is writable by others: sshd refuses to
    # enter it and ends every session (openssh-portable: session.c, safely_chroot).
    (
        "bad ownership or modes for chroot directory",
        ("sshd cannot enter the account's ChrootDirectory (each folder on its path must be owned by root "
         "and writable by no one else)"),
        ("on the host, make the ChrootDirectory path root-owned and not group/other-writable (chown root:root; "
         "chmod 755), or use an account without a chroot"),
    ),
    # The other refusals of safely_chroot: a stat that failed names the function (fatal_f):
    # `safely_chroot: stat("/srv/jail"): No such file or directory` for a ChrootDirectory that
    # is missing (a Match block's %u for an account nobody set up), or below a file; the rest
    # do not: `chroot path "/srv/jail" is not a directory` (a root-owned file), "chroot path
    # does not begin at root", "Unable to chdir to chroot path". They were "the account's
    # shell is nologin or /bin/false".
    *((fragment, _CHROOT_MISSING, _CHROOT_MISSING_HINT) for fragment in ("safely_chroot:", "chroot path")),
    # A startup file that runs tmux for every shell (`exec tmux new -A -s main` at the end of
    # ~/.bashrc, to land in tmux at each login): tmux needs a terminal and an ssh command has
    # none (we ask for no pty), so it prints this and exits 1 in place of the command (tmux:
    # server-client.c, server_client_open, "not a terminal"; cmd-new-session.c and
    # cmd-attach-session.c, "open terminal failed: %s"). It was "the account's shell is nologin".
    (
        "open terminal failed: not a terminal",
        "the account's startup file starts tmux, which needs a terminal, in place of the command",
        "start tmux only in interactive shells: in ~/.bashrc (or ~/.zshrc, ~/.profile) put it under "
        "`[[ $- == *i* ]] &&` or after Debian's `case $- in *i*) ;; *) return;; esac`; then `ssh HOST echo ran` prints ran",
    ),
    # sshd's internal-sftp as a ForceCommand (openssh-portable: session.c, do_child).
    (
        "This service allows sftp connections only",
        "the account is SFTP-only (sshd_config ForceCommand internal-sftp)",
        "use an account with a shell; SFTP-only accounts (often chrooted) cannot run diagnostics",
    ),
)


class _SessionRefused(TransportError):
    """sshd kept refusing a session channel on a live connection (MaxSessions reached)."""


class _Interrupted(TransportError):
    """interrupt() came while a channel was still being opened."""


class _AsksAgain(TransportError):
    """A connection that was to ask nobody met a question: a one-time code, a password not typed before."""


def _send_environment(channel: paramiko.Channel, target: SSHTarget) -> None:
    """SendEnv and SetEnv from ssh config, as `env` requests on the new session before its
    command, each without a reply, as ssh(1) sends them (openssh-portable: clientloop.c,
    client_send_env). `SetEnv CUDA_VISIBLE_DEVICES=0,1` per host was not sent, and the step
    ran on every GPU where `ssh gpu01 CMD` uses two."""
    for name, value in environment_to_send(target):
        channel.set_environment_variable(name, value.encode("utf-8", "surrogateescape"))


Survivors = list[tuple[int, str, str]]
"""(pid, /proc state letter, command line) of each process a timeout's kill left alive."""


class _ExecUnanswered(TransportError):
    """sshd opened a channel but did not answer its exec request in time (a hung host)."""


def _signal_session(channel: paramiko.Channel, name: str) -> None:
    """Ask sshd to signal the channel's session (RFC 4254, section 6.9: the name without SIG).
    No reply is asked for: paramiko closes a channel whose request failed (channel.py,
    _request_failed). sshd refuses it for a forced command and a subsystem, and before OpenSSH
    9.8 for a root login (sshd.c, privsep_postauth kept no privilege separation after one:
    "session signalling requires privilege separation"; 9.8's sshd-session forks an
    unprivileged child for root too); an sshd before 7.9 does not know it."""
    message = paramiko.Message()
    message.add_byte(paramiko.common.cMSG_CHANNEL_REQUEST)
    message.add_int(channel.remote_chanid)
    message.add_string("signal")
    message.add_boolean(False)
    message.add_string(name)
    try:
        channel.transport._send_user_message(message)  # type: ignore[union-attr]
    except (paramiko.SSHException, EOFError, OSError):
        pass  # a connection lost now is reported by the kill that follows


def _exec_answered(channel: paramiko.Channel, command: str, within_s: float, host: str, what: str) -> None:
    """channel.exec_command, given up after within_s (ssh_transport.answered_within: paramiko
    waited for sshd's answer without limit, and a frozen sshd held the run for good).

    The command goes as bytes, a byte that is no UTF-8 as that byte (surrogateescape, PEP 383):
    paramiko encodes a str as strict UTF-8, and `--var model=/models/caf\xe9` typed in a Latin-1
    shell ended the host as "internal error: UnicodeEncodeError" before its step ran, where the
    script sent on stdin (a long command) and the local transport already kept the byte."""
    wire = command.encode("utf-8", "surrogateescape")
    if not answered_within(channel, lambda: channel.exec_command(wire), within_s):
        raise _ExecUnanswered(
            f"{host}: the server opened {what} channel but did not start its command within {within_s:g} s",
            hint="sshd on the host is hung or overloaded (out of memory: its fork of the command stalls in reclaim, "
            "or sshd itself is swapped out or stopped): check the host's load and memory; raise ConnectTimeout if it is only slow",
        )


def _exec_script(channel: paramiko.Channel, script: str, *, via_sh: bool, within_s: float, host: str, what: str) -> None:
    """Start a POSIX sh script on channel: as `sh -c`, or on the stdin of `exec /bin/sh -s`
    where the login shell is not POSIX (fish, csh) and refuses sh syntax."""
    if via_sh:
        _exec_answered(channel, VIA_SH, within_s, host, what)
        _send_quietly(channel, script.encode() + b"\n")
        channel.shutdown_write()
    else:
        # /bin/sh, not `sh`: a login whose rc file clobbered PATH (`export PATH=/opt/conda/bin`)
        # found no `sh`, the kill script never ran (exit 127, no output) and the timed-out
        # step's processes lived on while the run said "process tree killed".
        _exec_answered(channel, f"/bin/sh -c {shlex.quote(script)}", within_s, host, what)


def _run_kill_script(channel: paramiko.Channel, script: str, *, host: str, via_sh: bool = False) -> "Survivors | TransportError | None":
    """Run the kill script; the processes it says outlived SIGKILL, None when none did (or it
    could not say: it did not finish in time), the error when sshd never started it."""
    try:
        try:
            _exec_script(channel, script, via_sh=via_sh, within_s=_KILL_EXEC_ANSWER_S, host=host, what="the kill's")
        except _ExecUnanswered as unanswered:
            return unanswered
        if not channel.status_event.wait(_KILL_CHANNEL_TIMEOUT_S):
            return None
        # The exit status may come before the last of the output: read on until EOF (briefly).
        output = bytearray()
        eof_by = time.monotonic() + _DRAIN_AFTER_EXIT_S
        while True:
            while channel.recv_ready():
                output += channel.recv(_READ_SIZE)
            if channel.eof_received or channel.closed or time.monotonic() >= eof_by:
                break
            time.sleep(0.01)
        return _survivors(output.decode("utf-8", "replace"))
    finally:
        close_channel(channel)


def _survivors(output: str) -> Survivors | None:
    found: dict[int, tuple[int, str, str]] = {}
    for line in output.splitlines():
        if not line.startswith(_SURVIVOR_MARKER + " "):
            continue
        pid, state, *command = line[len(_SURVIVOR_MARKER) + 1 :].split(" ", 2)
        # Once a pid: the kill script's second walk of the tree (after SIGTERM) lists the
        # processes of the first again, and a survivor of both was named twice in the message.
        if pid.isdigit() and state:
            found.setdefault(int(pid), (int(pid), state, command[0].strip() if command else ""))
    return list(found.values()) or None


def _bytes_read(stdout: "_PidHeader", stderr: "_PidHeader") -> int:
    return stdout.capture.total_bytes + stderr.capture.total_bytes


def _still_unsent(channel: paramiko.Channel, stdout: "_PidHeader", stderr: "_PidHeader", read_at_exit: int, now: float) -> bool:
    """Whether output a finished step printed may still be on its way: it keeps coming
    (something arrived in the last _HELD_OUTPUT_PAUSE_S) and no more has come since the exit
    status than sshd can have held then (the window it was granted, and the pipes)."""
    recent = now - max(stdout.written_at, stderr.written_at) <= _HELD_OUTPUT_PAUSE_S
    return recent and _bytes_read(stdout, stderr) - read_at_exit <= channel.in_window_size + _UNSENT_PIPES_BYTES


def _send_quietly(channel: paramiko.Channel, data: bytes) -> None:
    try:
        channel.sendall(data)
    except OSError:
        pass  # the host ended before reading it (no shell, a ForceCommand): its status says why


class _PidHeader:
    """Passes stdout through, minus the wrapper's pid line (whose pid it keeps) and whatever
    the login shell printed before it; with _STDERR_MARKER, the same for stderr.

    On stderr, before the wrapper's line, come sshd's own notices and the rc files' warnings:
    "Could not chdir to home directory /home/x: No such file or directory" where the home is
    gone (openssh-portable: session.c, do_child), bash's "warning: setlocale: LC_ALL: cannot
    change locale" where a forwarded LANG/LC_* is not installed. They came in every step's
    stderr, where checks on stderr and findings' evidence took them for the step's."""

    def __init__(self, capture: StreamCapture, marker: bytes = _PID_MARKER, follower: bytes | None = None,
                 early: bytes | None = None) -> None:
        self.capture = capture
        self._marker = marker
        self._early = early
        """A line that may come before the marker's with the same pid (_EARLY_PID_MARKER), dropped."""
        self.early_from: _PidHeader | None = None
        """The other stream's header, whose early line gives `pid` until this one's marker comes."""
        self._follower = follower
        """A line the wrapper may print on this stream right after the marker's, dropped too."""
        self._held = b""
        self._pid: int | None = None
        self.seen = False
        """The marker arrived: the wrapper ran."""
        self.gave_up = False
        """Too much output came before any marker to hold it back (it was passed on)."""
        self._pending = bytearray()
        self._searching = True
        self.written_at = 0.0
        """time.monotonic() of the stream's last bytes from the host (0.0: none yet)."""
        self.holds: set[int] | None = None
        """Which of fds 1 and 2 the step's processes alive after its exit still held as the
        channel's (_TREE_ALIVE_SCRIPT); None: not checked, or not told."""

    def write(self, chunk: bytes) -> None:
        self.written_at = time.monotonic()
        if not self._searching:
            self._pass_on(chunk)
            return
        self._pending += chunk
        if self._early is not None:
            self._take_early_pid()
        start = self._pending.find(self._marker)
        if start >= 0:
            end = self._pending.find(b"\n", start)
            if end < 0:
                return
            digits = bytes(self._pending[start + len(self._marker) : end])
            self._pid = int(digits) if digits.isdigit() else None
            self.seen = True
            # What came before the marker was printed by the login shell's rc files (a
            # banner, `conda init` chatter), not by the step: keep it out of the step's stdout,
            # where it would break captures and JSON. Past the limit it was passed on already,
            # and the rest of it goes the same way: only the marker's line is dropped.
            before = bytes(self._pending[:start]) if self.gave_up else b""
            rest = bytes(self._pending[end + 1 :])
            self._pending.clear()
            self._searching = False
            self.capture.write(before)
            self._pass_on(rest)
        elif len(self._pending) > _PID_MARKER_SEARCH_LIMIT:
            # Too much to hold back: pass it on, keeping only a tail that may hold the start
            # of the marker's line, and go on looking (an HPC ~/.bashrc's `module list` on
            # stderr, a site banner: the marker line came in the step's output, its pid unread).
            self.gave_up = True
            keep = max(len(self._marker), len(self._early or b"")) + 24  # the marker and its pid
            self.capture.write(bytes(self._pending[:-keep]))
            del self._pending[:-keep]

    @property
    def pid(self) -> int | None:
        """The step's pid: from the marker's line, or an early line on either stream."""
        if self._pid is None and self.early_from is not None:
            return self.early_from._pid
        return self._pid

    def _take_early_pid(self) -> None:
        """The pid of the early line, which leaves the held-back output (whole lines only)."""
        early = self._early
        if early is None:
            return
        start = self._pending.find(early)
        end = self._pending.find(b"\n", start) if start >= 0 else -1
        if end < 0:
            return
        digits = bytes(self._pending[start + len(early) : end])
        if self._pid is None and digits.isdigit():
            self._pid = int(digits)
        del self._pending[start : end + 1]
        self._early = None

    def pending_text(self) -> str:
        """Output held back while looking for the marker (all of it, if none came)."""
        return bytes(self._pending).decode("utf-8", "replace")

    def _pass_on(self, data: bytes) -> None:
        """Write what follows the marker, minus the follower line if it comes first.

        A ~/.bashrc that ends with `exec 2>&1` (to keep errors in order with output in a
        `tee`d or `script`ed session) sends the wrapper's stderr marker, printed right after the
        pid line, to stdout: the step's stdout began with it, which broke JSON probes and
        captures anchored at the start of the output."""
        if self._follower is None:
            self.capture.write(data)
            return
        held = self._held + data
        if held.startswith(self._follower):
            held, self._follower = held[len(self._follower) :], None
        elif self._follower.startswith(held):
            self._held = held  # the line may still be arriving
            return
        else:
            self._follower = None
        self._held = b""
        self.capture.write(held)

    def finish(self) -> None:
        if self._searching:
            self._searching = False
            self.capture.write(bytes(self._pending))
            self._pending.clear()
        if self._held:
            self.capture.write(self._held)
            self._held = b""


def _signal_number(name: str) -> int | None:
    try:
        return int(signal.Signals[f"SIG{name}"])
    except KeyError:
        return None
