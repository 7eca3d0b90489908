"""Plain-text and Markdown logs: ``[msg N]``-numbered transcripts, shell-prompt logs
(``root@gpu-3:~# cmd``, ``$ cmd``, zsh themes' ``➜``/``❯``; ``script(1)`` typescripts, tmux
captures; an interactive ``ssh`` moves the commands after it to that host,
:mod:`formats.shell_logins`; a prompt's ``[1]`` is the status of the command before; a
``history`` listing gives the commands that ran before it), Markdown with fenced blocks (GitHub
issue bodies: commands in shell, plain and notebook blocks, or as a line of prose, their flags
maybe on the next lines; ``> `` block quotes are someone else's words), shell history files
(:mod:`formats.shell_history`), and Aider chat history (``#### `` user lines, ``> `` tool
output; Aider-AI/aider ``aider/utils.py`` ``split_chat_history_markdown``).

Read line by line; a message's body is capped so one endless message stays bounded.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections import deque
from collections.abc import Iterator
from itertools import chain, islice
from pathlib import Path

from spec_debug.session import shell
from spec_debug.session.events import Event, ReadStats
from spec_debug.session.formats import (
    actions_log, claude_code, claude_code_log_html, claude_code_log_md, claude_export, claude_prompts, claude_sdk_log,
    claude_transcript_md,
    copilot_share, gemini_share, gitlab_job, powershell_marks, shell_history, typescript_marks,
)
from spec_debug.session.formats.common import Cursor, exit_code_of, shell_result, trailing_exit_code
from spec_debug.session.formats.shell_logins import Logins
from spec_debug.session.formats.shell_typing import (
    MAX_TYPED_LINES, PS2, TypedCommand, ends_escaped, open_compounds, open_quote,
)
from spec_debug.session.reader import iter_lines, legacy_text

MAX_BODY_CHARS = 1 << 20
TAIL_CHARS = 1 << 18
"""Of a body past :data:`MAX_BODY_CHARS`, its last lines up to this many characters are kept:
a launch's or a training run's log ends with the traceback that ended it."""


def _prints_command_lines(command: str) -> bool:
    """``command`` prints the command lines of processes or scripts: a process listing (``ps``,
    ``pgrep -a``), a process's ``/proc/PID/cmdline``, a grep, cat or tail of a script or log, the
    shell's ``history``."""
    return shell.categorize(command) in ("process", "logs", "inspect_config", "read_source") \
        or "cmdline" in command or "history" in command.split()


class Tail:
    """The last lines of a text past its cap, up to :data:`TAIL_CHARS` (a text log's output, a
    block of a Markdown export): the first were kept up to the cap, the middle is left out."""

    __slots__ = ("chars", "left_out", "lines")

    def __init__(self) -> None:
        self.lines: deque[str] = deque()
        self.chars = 0
        self.left_out = 0

    def add(self, line: str) -> None:
        self.lines.append(line[-TAIL_CHARS:])
        self.chars += len(self.lines[-1]) + 1
        while self.chars > TAIL_CHARS and len(self.lines) > 1:
            self.chars -= len(self.lines.popleft()) + 1
            self.left_out += 1

    def after(self, head: list[str]) -> list[str]:
        """``head`` (the first lines), then a line that says how many were left out, and the
        last; the tail emptied."""
        if not self.lines:
            return head
        gap = [f"[… {self.left_out} lines left out …]"] if self.left_out else []
        lines = [*head, *gap, *self.lines]
        self.clear()
        return lines

    def clear(self) -> None:
        self.lines.clear()
        self.chars = self.left_out = 0

_MSG = re.compile(r"^\[msg (\d+)\]\s*(?:(user|human|assistant|ai|tool|system)\b\s*[:>-]?\s*)?(.*)$", re.I)
_USER = r"(?:[\w.-]+|I have no name!)"
"""A user name, or what bash shows for a uid the container's /etc/passwd lacks (``docker run
--user 1000``: ``I have no name!@7c1d2e3f4a5b:/workspace$``; bash ``shell.c``,
``get_current_user_info``)."""
_STATUS = r"(?:\[(?P<status>\d{1,3})\] ?)?"
"""The last command's exit status before the prompt, shown only when it is not 0: zsh's
``%(?..[%?] )`` (zshmisc(1), PROMPT SEQUENCES; the prompt of zsh's own ``walters`` theme,
``Functions/Prompts/prompt_walters_setup``, and of many a ``.zshrc``), ``[1] me@gpu01:~$``."""
_FISH_STATUS = r"(?:\d{1,3}|SIG[A-Z]+[0-9]?)"
"""fish's default prompt (fish 3.6.0 ``share/functions/fish_prompt.fish``): ``me@gpu02 ~/work> ``,
``#`` for root; the branch ``fish_vcs_prompt`` adds after the folder in a repository (``me@gpu02
~/sglang (main)> ``, fish_git_prompt's `` (%s)``); after a command that failed, its status in
brackets before the ``>``: ``[2]``, a signal's name for a status over 128 (``[SIGINT]`` after
Ctrl-C, ``fish_status_to_signal``), each command's of a pipeline joined by ``|`` (``[1|0]``,
``__fish_print_pipestatus``; the last is the command's, fish's ``$status``). After a job whose
status is not its last command's (``not grep -q ERROR server.log``, ``! true``: the command's 0, the
job's 1), the job's own follows the brackets, ``root@vm /t/t/rec [0] 1# `` (``$last_status`` where
it is not ``$pipestatus[-1]``): the ``fish_own`` group of :data:`_USER_PROMPT`, the command's."""
def _fish_status(shown: str | None) -> str | None:
    """The exit status a fish prompt's ``[...]`` shows (:data:`_FISH_STATUS`), as digits: the last
    of a pipeline's, a signal's name as 128 + its number (``SIGINT``: 130, bash's and fish's own
    ``$status`` for it)."""
    if not shown:
        return None
    last = shown.rsplit("|", 1)[-1]
    if last.isdigit():
        return last
    number = _LINUX_SIGNALS.get(last)
    return str(128 + number) if number else None


_LINUX_SIGNALS = {"SIGHUP": 1, "SIGINT": 2, "SIGQUIT": 3, "SIGILL": 4, "SIGTRAP": 5, "SIGABRT": 6, "SIGBUS": 7,
                  "SIGFPE": 8, "SIGKILL": 9, "SIGUSR1": 10, "SIGSEGV": 11, "SIGUSR2": 12, "SIGPIPE": 13,
                  "SIGALRM": 14, "SIGTERM": 15}
"""The numbers of the signals a fish prompt names, on Linux (signal(7); a GPU host's, whatever
system reads the log), where the prompt turned ``128 + n`` into the name."""


_VCS_SEGMENT = r"(?: \([^()\s]+(?: [^()\s]+)*\)| \(\w+\)-\[[^\]\s]+\][A-Z]*-)"
"""The branch a prompt shows after the folder: git's ``__git_ps1 " (%s)"`` (`` (main)``, `` (main %)``
with its dirty-state marks: git contrib/completion/git-prompt.sh), zsh's vcs_info default `` (git)-
[main]-`` (its ``formats`` " (%s)-[%b]%u%c-", ``%u``/``%c`` a ``U``/``S`` when the tree has changes;
actionformats " (%s)-[%b|%a]%u%c-": zsh 5.9 Functions/VCS_Info/VCS_INFO_formats). Recorded:
``root@gpu-node-7 /tmp/rec (main %) # `` (bash 5.2, ``PS1='\\u@\\h \\w$(__git_ps1 " (%s)") \\$ '``)
and ``root@gpu-node-7 /tmp/rec (git)-[main]- # `` (zsh 5.9, ``PROMPT='%n@%m %~${vcs_info_msg_0_} %# '``)."""


_USER_PROMPT = re.compile(
    r"^(?:\[\d{1,2}:\d\d(?::\d\d)?\][ \t]?"  # the time a PS1 of '[\t] \u@\h:\w\$ ' shows (bash(1), PROMPTING)
    r"|\d{1,2}:\d\d(?::\d\d)?(?: [AP]M)?[ \t])?"  # or bare: '\t \u@\h:\w\$ ' (10:01:02), '\A' (10:01), '\@' (10:01 AM)
    r"(?:\([\w.-]+\)\s+)*"  # virtualenv or conda prefixes: (base), (ml-env) (base)
    + _STATUS +
    r"(?:\[(?:\d{1,2}:\d\d(?::\d\d)?[ \t])?"  # PS1='[\t \u@\h \W]\$ ': [14:02:11 root@gpu-3 ~]# (bash(1), PROMPTING)
    r"(?P<bracket_user>" + _USER + r")@(?P<bracket_host>[\w.-]+)(?::(?P<bracket_dir>[~/][^\]\s]*)|\s(?P<bracket_wdir>[^\]\s]*)[^\]]*)?\]"
    r"(?: \([^()\s]+(?: [^()\s]+)*\))?\s?[#$]"  # RHEL/Rocky: [root@gpu-3 ~]#; '[\u@\h:\w]$(__git_ps1 " (%s)") \$ ',
    # [me@gpu13:~/w] (main) $ (the whole folder, and git's branch after the brackets)
    r"|(?P<user>" + _USER + r")@(?P<host>[\w.-]+)(?::(?P<dir>[^\s#$]*))?(?: \([^()\s]+(?: [^()\s]+)*\))?"  # Debian/Ubuntu: root@gpu-3:~#
    r"(?: \[\d{1,2}:\d\d(?::\d\d)?\])?\s?[#$]"
    # and with the branch git's prompt adds, me@gpu01:~/sglang (main *)$ (git contrib/completion/git-prompt.sh),
    # and the time after the folder, PS1='\u@\h:\w [\t]\$ ': me@gpu10:~/w [10:01:02]$ (bash(1), PROMPTING)
    r"|(?P<zsh_user>[\w.-]+)@(?P<zsh_host>[\w.-]+) (?:\[\d{1,2}:\d\d(?::\d\d)?\] )?(?:(?P<zsh_dir>[~/]\S*?)" + _VCS_SEGMENT + r"?"
    r"(?: \[\d{1,2}:\d\d(?::\d\d)?\])? [%$#]|\S+ %)"  # macOS zsh default: me@laptop ~ %; Gentoo bash: me@gpu01 ~/w $
    # (the time between, PS1='\u@\h [\t] \w \$ ': me@gpu10 [10:01:02] ~ $, or after, me@gpu10 ~/w [10:01:02] $)
    r"|(?P<fish_user>[\w.-]+)@(?P<fish_host>[\w.-]+) [~/]\S*(?: \([^()\n]+\))?"  # fish's default: me@gpu02 ~/work>, root@gpu02 /w#,
    r"(?: \[(?P<fish_status>" + _FISH_STATUS + r"(?:\|" + _FISH_STATUS + r")*)\](?: (?P<fish_own>\d{1,3}))?)?[>#]"
    # the git branch, the status (_FISH_STATUS), the job's own after a `not` (_FISH_STATUS)
    r"|(?P<walters_user>[\w.-]+)@(?P<walters_host>[\w.-]+)(?::[~/]\S*)?>)"  # zsh's walters theme: me@gpu01:~/sglang>
    r"\s+(?P<command>.+)$")
_DOLLAR_PROMPT = re.compile(r"^(?:\([\w.-]+\)\s+)*(?:\$|PS (?:[A-Za-z]:\\|/)[^>]*>|(?:bash|sh)-\d+(?:\.\d+)*[#$]|Apptainer>|Singularity>)"
                            r"\s+(?P<command>.+)$")
"""``$ cmd``; PowerShell's ``PS C:\\Users\\me> cmd``, and on Linux or macOS (pwsh) ``PS /home/me> cmd``
(its default ``prompt`` function, "PS $($executionContext.SessionState.Path.CurrentLocation)>":
PowerShell's about_Prompts); bash's own default prompt ``\\s-\\v\\$``,
``bash-5.1# cmd`` (bash(1), PROMPTING), which a container shell without a profile shows; the
prompt of ``apptainer shell`` (``Apptainer> cmd``, ``Singularity> `` before Apptainer 1.0: the
PS1 the image's ``/.singularity.d/env/99-base.sh`` sets when none is set)."""
_IPYTHON_PROMPT = re.compile(r"^In \[\d+\]: !(?P<command>[^\s!].*)$")
"""IPython's (and ``jupyter console``'s) ``In [3]: !nvidia-smi``: a shell command run from the REPL
(IPython docs, "System shell access"), on the host of the shell that started ``ipython``, whose
prompt it carries (:meth:`shell_logins.Logins.where`). ``!!cmd`` (``%sx``: its output shown as a
Python list, ``Out[2]: [...]``) is left to the output."""
_CMD_PROMPT = re.compile(r'^(?:\([\w.-]+\)\s+)*[A-Za-z]:\\[^<>:"|?*\n]*>(?P<command>\S.*)$')
"""cmd.exe's prompt, ``$P$G``: the drive and folder, then ``>`` and the command with no space between
(``C:\\Users\\me>ssh gpu01 nvidia-smi``; cmd's ``prompt /?``). No ``:`` after the drive's, so a
Windows warning line (``C:\\w\\x.py:3: UserWarning: a > b``) is no prompt."""
_HOST = r"(?=[\w-]*[A-Za-z])[\w-]{2,}(?:\.[\w-]+)*"
_HOST_PROMPT = re.compile(
    r"^(?:\([\w.-]+\)\s+)*"
    r"(?:\[(?P<bracket_host>" + _HOST + r")(?: [^\]\s]+)?\]"  # [gpu01]$, [gpu01 sglang]$ (PS1='[\h \W]\$ ')
    r"|(?P<mac_host>" + _HOST + r"):[^\s#$:]+ (?P<mac_user>[\w.-]+)(?=\$)"  # macOS bash's \h:\W \u\$: laptop:~ me$
    r"|(?P<host>" + _HOST + r")(?::(?P<dir>~[^\s#$%]*|/(?!/)[^\s#$%]*))?)"  # gpu01$, gpu01:~/sglang$ (PS1='\h:\w\$ ')
    r"[#$%] +(?P<command>\S.*)$")
"""Prompts that show the host and no user: ``\\h\\$`` (``gpu01$ cmd``), ``[\\h]\\$``, ``\\h:\\w\\$`` (Alpine's
/etc/profile and many images' ``7c1d2e3f4a5b:/# cmd``), macOS bash's ``\\h:\\W \\u\\$`` (bash(1),
PROMPTING), and zsh's own default ``%m%# `` (``gpu01% cmd``, ``gpu01# cmd`` as root: zshparam(1),
PS1; what a zsh without a .zshrc shows, on a host or in a container). A name of two or more
characters with a letter in it (a container's id may start with a digit), right before the ``$``,
``#`` or ``%`` and a space: not "C# code", a URL's "https://x/# part", a number ("100% done"), nor
a line of output that starts with a space."""
_TWO_LINE_TOP = re.compile(
    r"^┌──(?:\([^()\n]*\)─)*\((?P<user>[\w.-]+)[㉿@](?P<host>[\w.-]+)\)-\[(?P<dir>[^\]\n]*)\]"  # Kali
    r"|^┌─(?:\[✗\]─)?\[(?P<p_user>[\w.-]+)@(?P<p_host>[\w.-]+)\]─\[(?P<p_dir>[^\]\n]*)\]")  # Parrot
_TWO_LINE_BOTTOM = re.compile(r"^(?:└─|└──╼ )[#$] ?(?P<command>\S.*)$")
_STARSHIP_TOP = re.compile(r"^(?:(?P<user>[\w.-]+) in )?🌐 (?P<host>[\w.-]+) in (?P<dir>\S+)")
_STARSHIP_BOTTOM = re.compile(r"^❯ +(?P<command>\S.*)$")
"""starship's default prompt over ssh, two lines: the user and the host (each module shown by
default only in an ssh session, the host after its ``ssh_symbol`` "🌐 ", each followed by " in "),
the directory and what else applies (`` on  main``), then its line break and the ``❯`` of its
character module before the command (starship/starship src/configs/hostname.rs, format
``[$ssh_symbol$hostname]($style) in ``; src/configs/username.rs, ``[$user]($style) in ``; the
default ``format``'s ``$line_break$character``). Read alone, the ``❯`` line showed no host, so
the commands typed on a GPU host were the local machine's."""
"""The two-line prompts of Kali's zsh (``┌──(root㉿gpu01)-[~/sglang]``, then ``└─# cmd``: kali's
/etc/skel/.zshrc, ``prompt_symbol=㉿``, ``@`` where the font lacks it, a virtualenv's ``(venv)─``
before) and Parrot's bash (``┌─[root@parrot]─[~/sglang]``, then ``└──╼ #cmd``; ``[✗]─`` after a
failure). The first line says who and where; the command is typed on the second."""
_THEME_PROMPT = re.compile(
    r"^(?:\([\w.-]+\)\s+)*"
    r"(?:➜ +(?:[\w.-]+@(?P<theme_host>[\w.-]+)\S* +)?(?:\S+(?: \S+)? git:\([^)\s]*\)(?: ✗)?|\S+)"
    r"|(?:[^❯]{0,80}[~/@][^❯]{0,80} )?❯{1,3})"
    # (not the prompt's own end read as a command: Enter on an empty line at ``➜  rec git:(main) ✗``
    # was a command "✗", at a clean tree's ``➜  rec git:(main)`` one "git:(main)")
    r" +(?P<command>(?!(?:git:\([^)\s]*\) ?)?✗?\s*$)\S.*)$")
"""The prompts of zsh and shell themes, which show no host: oh-my-zsh's default theme,
``➜  sglang git:(main) ✗ cmd`` (``➜``, the directory's last part, git's branch and ``✗`` when
the tree is dirty: ohmyzsh/ohmyzsh ``themes/robbyrussell.zsh-theme``, some versions with
``%n@%m`` before the directory), and the ``❯`` of starship
(its ``character`` module, after the line or the segment that shows the directory:
starship/starship ``docs/config/README.md``), pure and powerlevel10k's lean style."""
_FAILED_PROMPT = re.compile("\x1b\\[(?:0?1;)?31m[➜❯]|\x1b\\[38;5;196m[➜❯]")
"""The prompt arrow in red: the themes that show that the command before failed only by the
arrow's colour. oh-my-zsh's default, robbyrussell, a bold green ``➜`` after success and a bold
red one after a failure (``%(?:%{$fg_bold[green]%}%1{➜%} :%{$fg_bold[red]%}%1{➜%} )``,
ohmyzsh/ohmyzsh ``themes/robbyrussell.zsh-theme`` at 830a5bcf: ``\x1b[01;31m``);
powerlevel10k's lean style, whose ``❯`` is colour 76 after success and 196 after a failure, its
status segment hidden on error (``POWERLEVEL9K_PROMPT_CHAR_ERROR_*_FOREGROUND=196``,
``POWERLEVEL9K_STATUS_ERROR=false``: romkatv/powerlevel10k ``config/p10k-lean.zsh`` at
604f19a9), and its pure style, magenta or red (colour 1, ``\x1b[31m``: ``config/p10k-pure.zsh``),
as pure itself and starship's character module (``error_symbol`` ``[❯](bold red)``) draw it. A
typescript keeps the colours; the text read loses them."""
_POWERLINE_PROMPT = re.compile(
    r"^ (?:[^\ue0b0⮀@\n]{1,40} [\ue0b0⮀] )*?"  # agnoster's status first: ✘ (failed) ⚡ (root) ⚙ (jobs)
    r"(?:(?P<user>[\w.-]+)@(?P<host>[\w.-]+) [\ue0b0⮀] )?"  # the context: root@gpu01
    r"(?:(?P<dir>[~/][^\s\ue0b0⮀]*) [\ue0b0⮀] )?"  # the folder, whole (%~)
    r"(?:[^\ue0b0⮀\n]{1,200}[\ue0b0⮀] )*"  # git's branch and the rest
    r"(?P<command>[^\s\ue0b0⮀].*)$")
"""The powerline prompts of zsh themes: segments on coloured backgrounds, each ended by the
powerline arrow (U+E0B0 of a powerline font, ``⮀`` in powerlevel9k's ``compatible`` mode), the
command after the last one: `` root@gpu01  ~/sglang   main  cmd``. oh-my-zsh's agnoster
(``themes/agnoster.zsh-theme``: status, context ``%n@%m``, dir ``%~``, git) and powerlevel9k's
default left prompt (context, dir, vcs: zsh-theme-powerlevel9k 0.6.7, a zsh 5.9 typescript under
util-linux script 2.38.1) draw them. Read as no prompt, every command typed there was lost."""
_FRAMED_BOTTOM = re.compile(r"^╰─ ?[❯❮▶➤○±$#%]? +(?P<command>\S.*)$")
"""The second row of a two-row prompt in a frame, the command typed on it: powerlevel10k's ``╰─
cmd`` (``POWERLEVEL9K_MULTILINE_LAST_PROMPT_PREFIX='%242F╰─'``, romkatv/powerlevel10k
``config/p10k-classic.zsh`` and ``config/p10k-rainbow.zsh`` at 604f19a9), ``╰─❯ cmd`` where the
wizard puts ``prompt_char`` after the frame (lean: ``internal/wizard.zsh``, ``lean_left``);
oh-my-zsh's bira and mira (``╰─# cmd``, ``╰─$ cmd``), gnzh (``╰─➤ cmd``) and fino (``╰─○ cmd``),
whose first row is ``╭─root@gpu01 ~/sglang ‹main›`` (ohmyzsh/ohmyzsh ``themes/bira.zsh-theme``
and the others, at 830a5bcf). The first row, ``╭─`` and what it shows, is taken out of the output
before it (:meth:`_State._theme_top_row`)."""
_RETURN_CODE = re.compile(r"^(?P<code>\d{1,3}) ↵$")
"""oh-my-zsh's bira, gnzh and mira show the status of the command before at the right of the
prompt's second row when it failed: ``RPS1`` ``%(?..%? ↵)`` (``themes/bira.zsh-theme``)."""
_RIGHT_RETURN_CODE = re.compile(r"(?:^|\s)(\d{1,3}) ↵(?=\s|$)")
"""The same status in a one-row prompt's right part, before the theme's or the user's clock
(``RPROMPT='%(?..%? ↵) %*'``, zshmisc(1) ``%(?..)``, ``%?``: "2 ↵ 17:35:06")."""
_LEFT_CONTEXT = re.compile(r"(?P<user>[\w.-]+)@(?P<host>[\w.-]+) [~/]")
"""powerlevel10k's pure style: the first row of its two-row prompt shows the context, ``%n@%m``
(as root or over ssh), before the folder: ``root@gpu01 ~/sglang`` (``config/p10k-pure.zsh``:
``POWERLEVEL9K_LEFT_PROMPT_ELEMENTS=(context dir vcs command_execution_time newline
virtualenv prompt_char)``, at 604f19a9)."""
def _top_row_folder(row: str, context: re.Match | None) -> str | None:
    """The folder a two-row theme prompt's first row starts with (starship's directory module,
    ``~/work/eagle on  main via 🐍 v3.11.4``; powerlevel10k's lean ``~/sglang main``), or shows
    after its context (pure's ``root@gpu01 ~/sglang``): the folder its commands ran in. None where
    it is no whole path: starship shows a repository's folder from the repository's root
    (``eagle/python``), a path cut short is marked with ``…``."""
    start = context.end() - 1 if context is not None else 2 if row[1:2] == " " and row[:1] > "\x7f" else 0
    folder = row[start:].split(None, 1)[0] if row[start:].strip() else ""
    return folder if folder[:1] in ("~", "/") and "…" not in folder else None


_P10K_STATUS = re.compile(r"(?:^|\s)(?:\u2718 (?P<before>[\w|()]+)|(?P<after>[\w|()]+) \u2718)(?=\s|$)")
_P10K_CONTEXT = re.compile(r"(?:^|\s)(?P<user>[\w.-]+)@(?P<host>[\w.-]+)(?=\s|$)")
"""What the right part of a powerlevel10k prompt's row shows (a screen capture: the row, the blank
gap, then the right segments; the first row of its two-row styles, the command's of the one-row
ones), drawn when the prompt was, before the command typed there ran: its ``status`` segment, the
exit status of the command before when it failed, ``✘`` and the code (``✘ 2``), the signal's
short name after a kill (``✘ INT``, ``SIGINT(2)`` with ``POWERLEVEL9K_STATUS_VERBOSE_SIGNAME``),
each command's of a pipeline (``✘ 1|0``: the last is the command's); the icon after the code
where the icons go after content on the right (``2 ✘``); and its ``context`` segment,
``%n@%m`` (``root@gpu01``), shown over ssh and as root (romkatv/powerlevel10k
``config/p10k-lean.zsh``: ``POWERLEVEL9K_STATUS_*``, ``POWERLEVEL9K_CONTEXT_TEMPLATE``;
``internal/p10k.zsh``, ``prompt_status``)."""


def _p10k_status(shown: str) -> int | None:
    """The exit status powerlevel10k's status segment shows (:data:`_P10K_STATUS`), as a number:
    a pipeline's last, a signal's name as 128 + its number."""
    last = shown.rsplit("|", 1)[-1]
    if last.isdigit():
        return int(last)
    if last.endswith(")") and "(" in last:  # SIGINT(2)
        number = last[last.rfind("(") + 1:-1]
        return 128 + int(number) if number.isdigit() else None
    number = _LINUX_SIGNALS.get(last if last.startswith("SIG") else "SIG" + last)
    return 128 + number if number else None


_TERMINAL_CONTROL = re.compile(r"\x1b[\]PX^_k][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b\[[0-?]*[ -/]*[@-~]|\x1b[ -/]+[0-~]|\x1b[0-~]")
"""Colours and window-title sequences (ECMA-48 CSI, OSC and the other strings, screen's and
tmux's ``\x1bk title\x1b\\``): a log recorded with ``script(1)`` keeps the prompt's colours,
``\x1b[01;32mroot@gpu-3\x1b[00m:~#``. And the two-byte escapes (ECMA-35): zsh's line editor
switches the keypad to application mode, ``\x1b=``, as it reads a line and back, ``\x1b>``,
when it runs it (terminfo smkx/rmkx; every zsh typescript), ``\x1b7``/``\x1b8`` save and
restore the cursor, ``tput sgr0`` ends with ``\x1b(B`` (a character set chosen), ``reset`` sends
``\x1bc``: left in, they were read as part of the command typed."""
_LINE_EDIT = re.compile(r"\x1b\[(\d*)([@CDKP])")
"""The sequences a shell's line editor sends when a command is fixed in the middle of the line,
kept (as the C0 marks of :data:`_EDIT_MARKS`) for :func:`_as_displayed`: CSI K erases to the end
of the line, CSI n @ inserts n blanks at the cursor, CSI n P deletes n characters, CSI n C and
CSI n D move the cursor right and left (ECMA-48; readline inserts a character typed after the
left arrow with ``\x1b[1@``, deletes with ``\x1b[1P`` and moves back with backspaces, as a real
``script(1)`` typescript of bash 5.2 shows)."""
_EDIT_MARKS = {"K": "\x0e", "@": "\x0f", "P": "\x10", "C": "\x11", "D": "\b"}
_EDITED = re.compile("[\r\b\x0e-\x12]").search
_MOVES_CURSOR = re.compile("[\b\x0e-\x12]").search
_ROW_WRAP = " \r\x1b[K"
"""How zsh's line editor goes on to the next row when the typed command reaches the right margin:
a space past the last column (the terminal wraps), a carriage return to the new row's start and
an erase of it (zsh 5.9 in a script(1) typescript: ``...sglang.launch_server  \r\x1b[K-\r--model-path
...``); every carriage return after it goes back to that row's start, not the line's. Marked
``\x12`` for :func:`_as_displayed`, on a line the line editor wrote (it turns the keypad to
application mode, :data:`_KEYPAD_ON`, or bracketed paste on as it starts): a progress bar that
ends a state with a space and clears the line for the next one is redrawn in place, as before."""
_KEYPAD_ON = "\x1b="
_CANCELLED = "^C"
"""How a line given up with Ctrl-C before Enter ends: the terminal echoes the key as ``^C``
(stty(1), ``echoctl``, on by default) and bash starts a new prompt, running nothing, at PS1 or at
a PS2 line of a command typed over several lines (a script(1) typescript, tmux capture-pane:
``root@gpu01:~# rm -rf /models/eagle3^C``). A command that ran prints its ``^C`` on an output
line, after the Enter."""
_TOOL_MARK = re.compile(r"^\s*\[(?:bash|shell|sh|cmd)\]\s*(.+)$", re.I)
_INLINE_TOOL = re.compile(r"\s\[(?:bash|shell|sh)\]\s+", re.I)
_HEADING = re.compile(r"^(#{1,3})\s+(.+)$")
_TRACE_LINE = re.compile(
    r"^\+(?:\++ |[\w.-]+:\d+> | )"  # bash's PS4 "+ " (a "+" more per level), zsh's "+%N:%i> "
    r"(?P<command>(?:[A-Za-z_]\w*(?:\[[^\]]*\])?\+?=|[a-z./~_]|\[\[? ).*)$")
"""A line of a ``set -x`` trace: the command a script ran, after its expansions. bash prints PS4
(default ``+ ``, its first character repeated once per level of indirection: ``++ hostname`` for a
``$(hostname)``) before each simple command and assignment it runs (bash(1), ``set -x`` and PS4);
zsh prints ``+%N:%i> `` (``+launch.sh:12> python3 ...``; zshparam(1), PS4). The command starts
lower case, with a path, an assignment or a test (``[[ -f x ]]``), so a ``+ Added ...`` bullet of
a note is no trace line."""
_FENCE = re.compile(r"^\s*(?P<ticks>```+)\s*(?P<lang>[\w+-]*)")
_SHELL_LANGS = frozenset({"bash", "sh", "shell", "zsh", "console", "shell-session"})
_PLAIN_LANGS = frozenset({"text", "txt", "log", "plain", "plaintext", "output", "terminal"})
"""Blocks without a shell language. In a Markdown note or a GitHub issue body they hold what the
terminal showed: ``$ python3 -m sglang.launch_server ...`` and its log (sgl-project/sglang issue
#8081), or the launch command alone, then the error in a block of its own (issue #20148)."""
_NOTEBOOK_LANGS = frozenset({"python", "python3", "ipython", "ipython3", "py"})
"""A notebook cell exported to Markdown (``jupyter nbconvert --to markdown``): a code cell is a
``python`` block, its ``!cmd`` lines run in a shell (IPython, "Running shell commands"), its output
follows as an indented block."""
_LAUNCHER = re.compile(
    r"^(?:[A-Z_][A-Z0-9_]*=\S*\s+)*(?:sudo\s+)?(?:\S*/)?"
    r"(?:python[\d.]*|torchrun|vllm|sglang|docker|podman|nvidia-smi|curl|pip3?|uv|accelerate|deepspeed|srun"
    r"|lm_eval|huggingface-cli|hf|ssh|bash|sh)\s+(?![=(:])\S")
"""A line that starts a command (a program engineers run while debugging a server, after any
``VAR=value`` assignments), not output: ``python3 -m sglang.launch_server \\``, not ``python: can't
open file`` or ``python = 3``."""
_OUTPUT_HINT = re.compile(r"^(?:Traceback \(most recent call last\)|(?:Error: )?Exit code \d+|\[[\d-]+ [\d:]+\] Decode batch)", re.M)
_ROLE = {"human": "user", "ai": "assistant"}
_WHOLE_FILE_SHOWERS = frozenset({"cat", "bat", "batcat", "less", "more", "nl", "tac"})
_FILE_SHOWERS = _WHOLE_FILE_SHOWERS | {"head", "tail"}
"""Programs whose output is the text of the files they are given (:meth:`_State._shown_file_line`)."""
_NOT_ONE_PROGRAM = re.compile(r"[|;&<>`]|\$\(")
"""A pipe, a list, a redirection or a substitution: more than one program's output, or none."""
_DOCUMENT = re.compile(r"(?:\.(?:md|markdown|rst|txt|adoc)|(?:^|/)(?:readme|install|notes|howto)[^/]*)$", re.I)
"""A file of prose whose examples show commands at prompts (``$ pip install``)."""


@dataclasses.dataclass(frozen=True)
class _Shown:
    """What a command that prints files prints (:func:`_shows_files`)."""
    program: str
    documents: bool
    """One of the files is a document (:data:`_DOCUMENT`), whose examples show prompts."""


def _shows_files(command: str) -> _Shown | None:
    """What ``command`` prints when all it does is print files (``cat README.md``, ``ssh gpu01
    cat /opt/run.sh``): its output is the files' text, whatever their lines look like. None for
    any other command, and for one that pipes, redirects (``cat > run.sh``) or chains."""
    target = shell.parse_target(command) if "ssh" in command else None
    if target is not None and target.host is not None and target.inner:
        command = target.inner
    if _NOT_ONE_PROGRAM.search(command):
        return None
    words = _past_sudo(shell.split_words(command))
    if len(words) < 2 or not any(w[:1] != "-" for w in words[1:]):
        return None
    program = words[0].rsplit("/", 1)[-1]
    if program not in _FILE_SHOWERS:
        return None
    return _Shown(program, any(_DOCUMENT.search(w) for w in words[1:] if w[:1] != "-"))


# sudo's options that take a value (sudo(8)): -u user, -g group, -C fd, -D dir, -h host,
# -p prompt, -r role, -t type, -T timeout, -U user; a value joined to its option
# (``-usvc``, ``--user=svc``) is one word.
_SUDO_VALUE_OPTS = frozenset({"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-T", "-U"})


def _past_sudo(words: list[str]) -> list[str]:
    """The words of the command ``sudo`` runs (``sudo cat /var/log/x.log``, ``sudo -u svc tail
    x.log``: a file only root or a service user may read, printed as cat prints it), else ``words``."""
    if not words or words[0].rsplit("/", 1)[-1] != "sudo":
        return words
    i = 1
    while i < len(words) and words[i][:1] == "-":
        if words[i] == "--":
            return words[i + 1:]
        i += 2 if words[i] in _SUDO_VALUE_OPTS else 1
    return words[i:]


_FLAG_LINE = re.compile(r"^[ \t]*(?:--[A-Za-z][\w.-]*|-[A-Za-z]{1,2})(?:[= \t]|$)")
"""A line of flags that goes on with the command before it when the command was written without
a prompt, in an issue body or a note, with no backslash (vllm-project/vllm issue #26328:
``vllm serve /models/gpt-oss-120b`` then ``--gpu-memory-utilization 0.92 ...`` on the next lines).
Not wget's ``--2025-10-06 18:54:29--``, journalctl's ``-- Logs begin`` or ``ls -l``'s ``-rw-r--r--``."""
_SHELL_CHANGERS = frozenset({
    "ssh", "mosh", "autossh", "tsh", "gcloud", "su", "sudo", "doas", "bash", "sh", "zsh", "dash", "fish", "ksh",
    "tcsh", "csh", "exec", "exit", "logout", "docker", "podman", "kubectl", "srun", "salloc", "tmux", "screen"})
"""Words of a command after which a terminal may show a prompt of another host: it opened or
left a shell, also one :class:`shell_logins.Logins` does not follow (``srun -w dgx07 --pty zsh``,
``docker run -it img zsh``) (:meth:`_State._percent_output`)."""
_QUOTE_NEXT = frozenset({" ", ">", ""})
"""What follows the ``>`` of a block quote line: a space, a nested quote, or nothing (an empty
line of the quote, GitHub's ``>`` alone)."""
_AIDER_STARTED = re.compile(r"^# aider chat started at (\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)\s*$")
"""The banner Aider writes at each launch (``InputOutput.__init__``, Aider-AI/aider ``aider/io.py``:
``# aider chat started at {current_time}``, local time as ``%Y-%m-%d %H:%M:%S``)."""
_AIDER_RUN = re.compile(r"^(?:/run\s+|/test\s+|!)(?P<command>\S.*)$")
"""An Aider input that runs a shell command: ``/run CMD``, its alias ``!CMD``, and ``/test CMD``
(``Commands.cmd_run``, ``cmd_test`` and ``Commands.run``, Aider-AI/aider ``aider/commands.py``)."""
_AIDER_CHAT_COMMAND = re.compile(r"^/(?P<mode>ask|code|architect|context|ok)(?:\s+(?P<message>\S.*?))?\s*$")
"""An Aider input that sends its words to a coder of another chat mode (``cmd_ask``, ``cmd_code``,
``cmd_architect``, ``cmd_context`` and ``cmd_ok``, Aider-AI/aider ``aider/commands.py``):
``_generic_chat_command`` runs ``coder.run(args)``, and ``Coder.run`` writes ``with_message`` to the
history as an input of its own (``self.io.user_input(with_message)``, ``aider/coders/base_coder.py``),
so ``#### /ask why ...`` is followed by ``#### why ...``. Without words it only switches the mode."""
_AIDER_OK = "Ok, please go ahead and make those changes."
"""What ``/ok`` sends, as ``/code`` (``cmd_ok``), its own words after it."""


def _aider_resent(line: str) -> str | None:
    """The input Aider writes again for ``line``, a chat-mode command with words
    (:data:`_AIDER_CHAT_COMMAND`); else None."""
    found = _AIDER_CHAT_COMMAND.match(line)
    if found is None:
        return None
    message = found.group("message")
    if found.group("mode") == "ok":
        return f"{_AIDER_OK} {message}" if message else _AIDER_OK
    return message


_AIDER_RUNNING = "> Running "
"""Aider's note before it runs a command the model proposed and the user allowed
(``Coder.handle_shell_commands``, Aider-AI/aider ``aider/coders/base_coder.py``:
``tool_output(f"Running {command}")``). The proposal itself, a shell block in the reply, may be
declined, so in Aider's history the note is the command and the block is the reply's text."""


def read(path: Path, cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    lines = decoded_lines(path, stats)
    head = list(islice(lines, _EXPORT_SNIFF_LINES))
    head_text = [line for _, line, _ in head]
    if claude_export.looks_like(head_text):
        return claude_code.recorded_statuses(claude_export.read_lines(chain(head, lines), cursor))
    if claude_export.looks_like_session_logger(head_text):
        return claude_code.recorded_statuses(
            claude_export.read_lines(claude_export.session_logger_lines(chain(head, lines)), cursor))
    if claude_sdk_log.looks_like(head_text):
        return _sdk_log(path, chain(head, lines), cursor, stats)
    if claude_prompts.looks_like(head_text):
        return claude_prompts.read_lines(chain(head, lines), cursor, stats)
    if claude_transcript_md.looks_like(head_text):
        return claude_transcript_md.read_lines(chain(head, lines), cursor, stats)
    if claude_code_log_md.looks_like(head_text):
        return claude_code_log_md.read_lines(chain(head, lines), cursor, stats)
    if claude_code_log_html.looks_like(head_text):
        return claude_code_log_html.read_lines(chain(head, lines), cursor, stats)
    if claude_transcript_md.looks_like_automaker(head_text):
        return claude_transcript_md.read_automaker(chain(head, lines), cursor, stats)
    if copilot_share.looks_like(head_text):
        return copilot_share.read_lines(chain(head, lines), cursor)
    if gemini_share.looks_like(head_text):
        return gemini_share.read_lines(chain(head, lines), cursor)
    if shell_history.looks_like(path, head_text):
        return shell_history.read_lines(chain(head, lines), cursor)
    if actions_log.looks_like(head_text):
        return read_lines(actions_log.unstamped(chain(head, lines)), cursor)
    return read_lines(chain(head, lines), cursor, pane_width(path))


def _sdk_log(path: Path, lines: Iterator[tuple[int, str, str | None]], cursor: Cursor,
             stats: ReadStats) -> Iterator[Event]:
    """A printed Claude Agent SDK log (:mod:`formats.claude_sdk_log`), and the terminal around it:
    a capture of ``$ python agent.py`` has the shell's commands and their output (a traceback, a
    CUDA error) between or after the messages. Those lines are read again as the text log they
    are, a second streamed pass with the message lines left out, their seqs after the messages'
    (read as messages alone, the shell's commands and errors were lost)."""
    yield from claude_sdk_log.read_lines(lines, cursor, stats)
    rest = dataclasses.replace(cursor, seq_base=cursor.seq_base + cursor.records, records=0)
    others = claude_sdk_log.other_lines(decoded_lines(path, ReadStats()))  # counted once, by the first pass
    yield from read_lines(others, rest, pane_width(path))
    cursor.records += rest.records


_EXPORT_SNIFF_LINES = 200
"""Lines looked at for the marks of a Claude Code ``/export`` (:mod:`formats.claude_export`)."""


@dataclasses.dataclass
class RecordedCommand:
    """The one command a recording ran instead of a shell (``asciinema rec -c CMD``), which no
    prompt shows: its output is all the recording holds, as with ``script -c``."""
    command: str
    timestamp: str | None = None
    exit_code: int | None = None
    """Its exit status, where the recording gives one (set while its lines are read)."""


@dataclasses.dataclass
class RecordingEnd:
    """The status the shell a recording ran exited with, where it gives one (an asciicast's exit
    event): set while its lines are read."""
    exit_code: int | None = None


def read_lines(lines: Iterator[tuple[int, str, str | None]], cursor: Cursor,
               width: int | None = None, recorded: RecordedCommand | None = None,
               columns: int | None = None, resizes: deque[tuple[int, int]] | None = None,
               ended: RecordingEnd | None = None) -> Iterator[Event]:
    """Events of ``(line_number, text, timestamp)`` lines, as a terminal showed them; ``width``:
    the columns of the pane the lines were captured from, when it cut them (:func:`pane_width`);
    ``recorded``: the command whose output the lines are, when no prompt shows it; ``columns``:
    the width of the terminal a recording says it had (an asciicast's header), where the line
    editor wrapped a long command (a ``Script started`` line gives its own); ``resizes``: the
    ``(line_number, columns)`` of each time the recording says the terminal was resized, in order,
    filled in by ``lines`` as it reads (an asciicast's ``"r"`` events): a line after it is read
    at its width; ``ended``: the status the recorded shell exited with, filled in by ``lines``
    (:meth:`_State.left_with`)."""
    return gitlab_job.with_job_status(_read_lines(lines, cursor, width, recorded, columns, resizes, ended))


def _read_lines(lines: Iterator[tuple[int, str, str | None]], cursor: Cursor,
                width: int | None, recorded: RecordedCommand | None, columns: int | None = None,
                resizes: deque[tuple[int, int]] | None = None, ended: RecordingEnd | None = None) -> Iterator[Event]:
    state = _State(cursor)
    if recorded is not None:
        state.timestamp = recorded.timestamp
        yield from state.run_recorded(recorded.command)
    marked = state.marked_statuses
    if recorded is None:
        lines = _typed_before_the_log(lines)
    displayed = _two_row_prompts(_displayed(_fish_typed_after_output(_typed_after_output(lines), columns), columns,
                                            resizes, state.failed_prompts, marked))
    for lineno, line, timestamp in (displayed if width is None else _rejoined(displayed, width)):
        state.timestamp = timestamp if timestamp is not None else state.clock
        if marked and lineno in marked:
            state.status_marked(marked.pop(lineno))  # before the prompt after it closes its output
        if "\n" in line:  # a multi-line paste at a prompt (_pasted_rows)
            yield from state.feed_pasted(line, lineno)
            continue
        yield from state.feed(line, lineno)
    state.left_with(recorded.exit_code if recorded is not None else ended.exit_code if ended is not None else None)
    yield from state.flush()
    cursor.records = state.seq_next - cursor.seq_base


_PROMPT_TOP_ROW = re.compile(r"(?P<user>[\w.-]+)@(?P<host>[\w.-]+)(?::[~/]\S*"
                             r"| (?:MINGW64|MINGW32|UCRT64|CLANG64|CLANG32|CLANGARM64|MSYS) (?P<msys_dir>[~/]\S*)(?: \([^()]*\))?)?")
"""The first row of a two-row bash prompt, ``PS1='\\u@\\h:\\w\\n\\$ '``: ``root@gpu-node-7:/w``, the
command typed on the row after it, after ``$ `` (``# `` as root: bash(1), PROMPTING, ``\\$``). Git
Bash's on Windows (Git for Windows' /etc/profile.d/git-prompt.sh: ``\\u@\\h $MSYSTEM \\w`` and git's
branch, then ``$ `` on a row of its own) is the same prompt: ``me@LAPTOP-7Q2 MINGW64 ~/work (main)``."""


def _two_row_prompts(lines: Iterator[tuple[int, str, str | None]]) -> Iterator[tuple[int, str, str | None]]:
    """``lines`` with a two-row prompt (:data:`_PROMPT_TOP_ROW`) made one row, as Debian's
    one-row ``\\u@\\h:\\w\\$ `` shows it: ``root@gpu-node-7:/w`` then ``$ python3 load.py`` is
    ``root@gpu-node-7:/w$ python3 load.py`` (bash 5.2.15 under util-linux script 2.38.1). Read
    row by row, the ``$ `` row was a prompt with no host or folder, and the first row the
    output of the command before it, after its last line (so a program's closing ``Error: ...``
    was not its last)."""
    held = None
    for item in lines:
        line = item[1]
        if held is not None:
            if line[:2] in ("$ ", "# ") and line[2:3].strip():
                yield item[0], held[1] + line, item[2]
                held = None
                continue
            yield held_row
            held = None
        if "@" in line and line[:1].strip() and (top := _PROMPT_TOP_ROW.fullmatch(line)):
            # (Git Bash's row as Debian's one-row prompt shows the same: me@LAPTOP-7Q2:~/work)
            held_row, held = item, item if top.group("msys_dir") is None else (
                item[0], f"{top.group('user')}@{top.group('host')}:{top.group('msys_dir')}", item[2])
            continue
        yield item
    if held is not None:
        yield held_row


_PASTE_OFF = "\x1b[?2004l"
_HELD_ROWS = 64


def _typed_before_the_log(lines: Iterator[tuple[int, str, str | None]]) -> Iterator[tuple[int, str, str | None]]:
    """``lines`` with a first row that is a command typed at a prompt the log began after given a
    bare ``$ `` prompt. ``tmux pipe-pane -o 'cat >> pane.log'`` (tmux(1), pipe-pane), typed at
    tmux's command prompt while the shell waits at its own, logs from the next thing the pane
    writes: the echo of the command typed next, with no prompt before it, then readline's
    bracketed paste turned off as Enter is read, which starts the next row in bash and ends the
    typed one in zsh (bash 5.2.15 in tmux 3.3a: ``python3 -c ...\r``, ``\x1b[?2004l\rCUDA error:
    ...``). Read as it stood, the row was text, not a command: the failure it printed and the
    ``echo $?`` after it went to no command. Its host is the shell's, which no prompt has shown yet."""
    lines = iter(lines)
    first = next(lines, None)
    if first is None:
        return
    second = next(lines, None)
    line = first[1]
    typed = line.strip() and _PASTE_ON not in line and (
        _PASTE_OFF in line or (second is not None and second[1].startswith(_PASTE_OFF)))
    if typed and _prompt(_shown(line)) is None and not line.lstrip().startswith(("Script ", "#", "$")):
        first = (first[0], "$ " + line, first[2])
    yield first
    if second is not None:
        yield second
    yield from lines


def _typed_after_output(lines: Iterator[tuple[int, str, str | None]]) -> Iterator[tuple[int, str, str | None]]:
    """``lines`` with a command typed after another process's output put back on its prompt.

    A background job (``python3 -m sglang.launch_server ... &``) that prints while bash waits at
    its prompt writes after the prompt, on the prompt's row; the command then typed is echoed on
    the rows after that output, and readline turns bracketed paste off only as Enter is read
    (bash 5.2.15 under util-linux script 2.38.1: ``\x1b[?2004h...$ loading draft from
    /ckpt/eagle3``, ``sleep 3``, ``\x1b[?2004l\rTraceback ...``). Read as it stands, the job's
    line was the command typed and the command lost. The rows between the prompt and the one
    Enter ended are the job's output (the command before's), the last is the command. Rows that
    start with a carriage return are readline's own (a multi-line paste) and are left as they
    are; so is anything where no bash prompt with a command starts the stretch."""
    held: list[tuple[int, str, str | None]] = []
    pasted = False  # the held rows after the prompt are readline's own (a multi-line paste)
    for item in lines:
        line = item[1]
        if held:
            if line.startswith(_PASTE_OFF) and len(held) > 1:
                yield from (_pasted_rows(held) if pasted else _prompt_moved(held))
                held, pasted = [], False
            elif line.startswith("\r") and (pasted or (len(held) == 1 and _pasted_row(held[0][1], line))) \
                    and len(held) <= _HELD_ROWS:
                held.append(item)
                pasted = True
                continue
            elif line.startswith(("\r", _PASTE_OFF)) or _PASTE_ON in line or len(held) > _HELD_ROWS:
                pasted = False
                yield from held
                held = []
            elif _PASTE_OFF in line and _zsh_reading(held[0][1]):
                # zsh ends the typed line's row with the paste-off (its Enter): the row's end
                held.append(item)
                yield from _zsh_prompt_moved(held)
                held = []
                continue
            else:
                held.append(item)
                continue
        if _PASTE_ON in line:
            held.append(item)
        else:
            yield item
    yield from held


_FISH_TYPING = "\x1b[K\r\x1b["
"""What fish writes after its prompt as it reads a line: an erase to the row's end, then each key's
redraw from the row's start, ``\r\x1b[<column>C<text>`` (fish 3.6.0 under util-linux script
2.38.1: ``root@vm /t/t/rec# \x1b[K\r\x1b[18Cc\r\x1b[19C...``)."""
_FISH_ENTER = re.compile(r"(?:^|\r)\x1b\[\d+C(?:\x1b\[[\d;]*m|\x1b\(B)*$")
"""How fish ends the row of a line it read: the cursor put back at the line's end after a carriage
return, then Enter's newline (``...\r\x1b[25C\r\n``, the line's own ``\r\n`` stripped here); on a row
of its own after a command that wrapped (:func:`_fish_wrapped`), where fish may reset the colours
after the move (a command of three rows, fish 3.6.0: ``\x1b[7C\x1b[30m\x1b(B\x1b[m\r\n``)."""


_FISH_HELD_ROWS = 1024
"""The rows held after a fish prompt: fish redraws a command typed past the last column a key at
a time, each on a row of its own (:func:`_fish_wrapped`)."""


def _fish_typed_after_output(lines: Iterator[tuple[int, str, str | None]],
                             columns: int | None = None) -> Iterator[tuple[int, str, str | None]]:
    """:func:`_typed_after_output` for fish, which draws no bracketed paste mark: a background job
    that prints while fish waits at its prompt writes on the prompt's row, and fish then redraws
    each key of the command typed on the rows after that output, by column (fish 3.6.0 under
    util-linux script 2.38.1: ``root@vm /t/t/rec# \x1b[K\r\x1b[18Cloading draft from
    /ckpt/eagle3``, then ``s\r\x1b[19C...\x1b[23C\b\b\b\b\bsleep \r\x1b[25C``). Read as it
    stood, the job's line was the command and the command lost. A fish prompt row that Enter did
    not end (:data:`_FISH_ENTER`) is held with the rows after it up to the one Enter ended: the
    job's text is the command before's output, and the prompt goes to that last row, with the
    text drawn there from the prompt's column on. Anything else is left as it is. ``columns``: the
    terminal's width as a recording's header gives it (an asciicast's), until a ``Script started``
    line gives one."""
    held: list[tuple[int, str, str | None]] = []
    lines_typed = False  # the held rows are a command of several lines being redrawn (_fish_lines)
    for item in lines:
        line = item[1]
        if line[:1] == "S" and line.startswith(_SCRIPT_STARTED) and (c := _SCRIPT_COLUMNS.search(line)):
            columns = int(c.group(1))
        if held and lines_typed:
            if len(held) > _FISH_HELD_ROWS or _fish_prompt_row(line):
                yield from held
                held, lines_typed = [], False
            elif _TITLE in line:  # the title fish sets as it runs the command: the redraw is over
                yield from _fish_lines(held)
                held, lines_typed = [], False
            else:
                held.append(item)
                continue
        elif held and len(held) == 1 and _FISH_ENTER.search(held[0][1]):
            if line.startswith(_FISH_LINE_REDRAW):
                held.append(item)
                lines_typed = True
                continue
            yield from held
            held = []
        elif held:
            if len(held) > _FISH_HELD_ROWS or _fish_prompt_row(line):  # another prompt: nothing typed
                yield from held
                held = []
            elif _FISH_ENTER.search(line):
                held.append(item)
                yield from _fish_prompt_moved(held, columns)
                held = []
                continue
            else:
                held.append(item)
                continue
        if _fish_prompt_row(line):
            held.append(item)  # (one that Enter ended: a first line, if the next row redraws)
            continue
        yield item
    yield from held


_SCRIPT_STARTED = "Script started on "
_SCRIPT_COLUMNS = re.compile(r' COLUMNS="(\d+)"')
"""The terminal's width in util-linux script's header (term-utils/script.c, log_start:
``Script started on ... [COMMAND="fish" TERM="xterm-256color" TTY="/dev/pts/2" COLUMNS="80"
LINES="24"]``), :mod:`formats.typescript_marks`."""


_FISH_LINE_REDRAW = "\x1b[K\x1b[A"
"""How fish starts the row after a line break typed or pasted into the command (the newline
stays in the command, no Enter): it erases the new row and goes back up to redraw the lines
(fish 3.6.0 under util-linux script 2.38.1, a bracketed paste of two lines: ``...# \x1b[K\r
\x1b[18Cecho one\r\x1b[26C``, ``\x1b[K\x1b[A``, ``\x1b[18Cecho two\x1b[A\r``, ...)."""
_SCREEN_MOVE = re.compile(r"\x1b\[(\d*)([A-DK])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b\[[0-?]*[ -/]*[@-~]|\x1b[ -/]*[0-~]"
                          r"|[\r\n\b]|[^\x1b\r\n\b]+")


def _fish_lines(held: list[tuple[int, str, str | None]]) -> list[tuple[int, str, str | None]]:
    """A fish command of several lines (a paste, or Alt-Enter between lines), one row as
    :func:`_pasted_rows` makes of bash's: its lines, newline-separated, after the prompt. fish
    redraws them with cursor moves up and across (:data:`_FISH_LINE_REDRAW`), so the rows are
    played on a small screen and its rows read from the prompt's down; as they were where the
    screen shows no fish prompt with a command."""
    rows = _fish_screen(held)
    if rows is None:
        return held
    m = _prompt(rows[0]) if rows else None
    if m is None or m.re is not _USER_PROMPT or m.group("fish_host") is None:
        return held
    lines = [m.group("command").strip(), *(text.strip() for text in rows[1:] if text.strip())]
    return [(held[0][0], rows[0][:m.start("command")] + "\n".join(lines), held[0][2])]


def _fish_screen(held: list[tuple[int, str, str | None]], width: int | None = None) -> list[str] | None:
    """The rows ``held`` leave on a screen, from the first's down (cursor moves, erases and
    writes played; ``width``: the terminal's columns, where a row written past its end wraps
    onto the next, as xterm's autowrap does); None for rows too long to be a command's."""
    played = "\r\n".join(text for _, text, _ in held)
    if len(played) > 4 * _MAX_EDITED_CHARS:
        return None  # no command typed is this long: output (a progress bar's redraws) it may be
    screen: dict[int, list[str]] = {}
    row = col = 0
    for m in _SCREEN_MOVE.finditer(played):
        token = m.group(0)
        if m.group(2):
            n = int(m.group(1) or 1)
            kind = m.group(2)
            if kind == "A":
                row -= n
            elif kind == "B":
                row += n
            elif kind == "C":
                col = col + n if width is None else min(col + n, width - 1)
            elif kind == "D":
                col = max(0, col - n)
            else:  # K: erase to the row's end
                del screen.setdefault(row, [])[col:]
        elif token == "\r":
            col = 0
        elif token == "\n":
            row += 1
        elif token == "\b":
            col = max(0, col - 1)
        elif token[0] != "\x1b":
            for ch in (token if width is not None else (token,)):
                if width is not None and col >= width:  # the pending wrap: on to the next row
                    row, col = row + 1, 0
                cells = screen.setdefault(row, [])
                if len(cells) < col + len(ch):
                    cells.extend(" " * (col + len(ch) - len(cells)))
                cells[col:col + len(ch)] = ch
                col += len(ch)
    return ["".join(screen.get(k, [])).rstrip() for k in range(0, max(screen, default=0) + 1)]


def _fish_prompt_row(line: str) -> bool:
    """Whether ``line`` is a row fish's prompt starts, reading a line (:data:`_FISH_TYPING`)."""
    if "\x1b" not in line or _FISH_TYPING not in line:
        return False
    if "⏎" in line and (mark := _FISH_PROMPT_SP.search(line)) is not None:
        # the mark fish writes before each prompt but the first: read as it stands, its " \r" and
        # the prompt's erase were zsh's row wrap (_ROW_WRAP), and the row "⏎root@vm ..." no prompt
        line = line[mark.end():]
    m = _prompt(_shown(line))
    return m is not None and m.re is _USER_PROMPT and m.group("fish_host") is not None


def _fish_prompt_moved(held: list[tuple[int, str, str | None]],
                       columns: int | None = None) -> list[tuple[int, str, str | None]]:
    lineno, first, timestamp = held[0]
    shown = _shown(first)
    m = _prompt(shown)
    if m is None:
        return held
    start = m.start("command")
    if len(held) >= 2 and _CURSOR_UP in held[1][1]:
        # (the row after the prompt's goes back up: a line typed past the last column; where the
        # last key typed was the one that wrapped, fish first writes it on the new row, from the
        # column it fell in, ``\x1b[C\x1b[C'\x1b[A``, and goes up after it: fish 3.6.0)
        return _fish_wrapped(held, shown[:start], columns)
    last_no, last, last_ts = held[-1]
    typed = _shown(last)[start:].strip()
    if not typed or len(held) < 2:
        return held
    return [(lineno, shown[start:], timestamp), *held[1:-1], (last_no, shown[:start] + typed, last_ts)]


_FISH_ROW_MARK = re.compile(r"⏎(?:\x1b\[[\d;]*m|\x1b\(B)*( +)\r")
"""fish's mark of output that ended with no newline, written before each prompt: ``⏎`` and spaces
to the last column, then a carriage return (fish 3.6.0, the terminal's width in all)."""


def _fish_wrapped(held: list[tuple[int, str, str | None]], prompt: str,
                  columns: int | None = None) -> list[tuple[int, str, str | None]]:
    """A command typed at a fish prompt past the terminal's last column: fish goes on on the next
    row and goes back up (``\x1b[A``) to redraw, a key at a time, up to Enter (fish 3.6.0 under
    util-linux script 2.38.1 in an 80-column pty: ``...# \r\x1b[27Cp...\x1b[79C'\r\r\n``, then
    ``\x1b[A\x1b[38C'import sys; ...``). Read row by row the command was its first row's part and
    the rest output; played on a screen of the terminal's width (:data:`_FISH_ROW_MARK`), its rows
    joined are the command. At the first prompt there is no mark yet: the width is then
    script(1)'s header's (``columns``). As they were where the width is not shown."""
    mark = _FISH_ROW_MARK.search(held[0][1]) if "⏎" in held[0][1] else None
    width = 1 + len(mark.group(1)) if mark is not None else columns
    rows = _fish_screen(held, width) if width else None
    # (the mark wraps onto a row of its own after output that ended with no newline, "^C⏎")
    at = next((k for k, row in enumerate(rows or ()) if row.startswith(prompt)), None)
    if at is None:
        return held
    # every row but the last is full: a space in the last column is the rstrip's to put back
    typed = "".join([row.ljust(width) for row in rows[at:-1]] + rows[-1:])[len(prompt):].strip()
    if not typed:
        return held
    return [(held[-1][0], prompt + typed, held[-1][2])]


_CURSOR_UP = "\x1b[A"
_HIGHLIGHT = "\x1b[7m"
"""readline's active region (standout), how bash 5.1+ shows a paste until it is redrawn."""


def _pasted_row(first: str, row: str) -> bool:
    """Whether ``row``, right after the prompt's row ``first``, can be a pasted line's: readline
    highlighted the paste on the prompt's row (enable-active-region), or the row is a line of
    text after its carriage return (the paste with ``enable-active-region off``). A row that is
    a carriage return alone is no pasted line."""
    return _HIGHLIGHT in first or row.strip("\r") != ""


def _pasted_rows(held: list[tuple[int, str, str | None]]) -> list[tuple[int, str, str | None]]:
    """A multi-line paste at a bash prompt, one row: its lines, newline-separated, after the
    prompt. Bash 5.2's readline echoes each pasted line on a row of its own that starts with a
    carriage return, Enter's paste-off after the last; with enable-active-region (its default)
    it shows the paste highlighted first, then moves the cursor up to the prompt's row and writes
    the lines again plainly (bash 5.2.15 under util-linux script 2.38.1: ``\x1b[?2004h...$
    \x1b[7mecho one\x1b[27m``, ``\r\x1b[7mecho two\x1b[27m\x1b[A\x1b[C...echo one``,
    ``\recho two``, ``\x1b[?2004l\rone``). Bash runs the lines one after another, as a
    multi-line command; read row by row, the first was the command and the others its output.
    With ``bind 'set enable-active-region off'`` there is no highlight and no redraw: each line
    is written once, the first after the prompt, the others each after a carriage return (same
    recording: ``...$ echo one``, ``\recho two``, ``\r(exit 3)``, ``\x1b[?2004l\rone``); a
    long typed line wraps inside its row (`` \r``), never on a row of its own; a paste ending in a
    newline ends on ``\r\x1b[A``, a row with no text. Where the first
    row shows no prompt with a command, or a plain row does not start with a carriage return
    (another process's output), the rows are as they were."""
    lineno, first, timestamp = held[0]
    at = first.rfind(_PASTE_ON)
    if at < 0 or _prompt(_shown(first[at:])) is None:
        return held
    rows = [row for _, row, _ in held[1:]]
    if _HIGHLIGHT in first:
        redrawn = next((k for k, row in enumerate(rows) if _CURSOR_UP in row), None)
        if redrawn is None:
            return held
        # the plain lines after the one the cursor moved up to rewrite (the prompt's own)
        rows = rows[redrawn + 1:]
    elif not all(row.startswith("\r") for row in rows):
        return held
    lines = [shown for shown in map(_shown, rows) if shown.strip()]
    if not lines:
        return held
    return [(lineno, first + "\n" + "\n".join(lines), timestamp)]


def _prompt_moved(held: list[tuple[int, str, str | None]]) -> list[tuple[int, str, str | None]]:
    """The rows of :func:`_typed_after_output`'s stretch, the prompt moved to its last row; as
    they were where the first row shows no bash prompt with something after it."""
    lineno, line, timestamp = held[0]
    at = line.rfind(_PASTE_ON)
    shown = _shown(line[at:])
    m = _prompt(shown)
    if m is None or "command" not in m.re.groupindex or not line.startswith(_PASTE_ON, at):
        return held
    start = m.start("command")
    last_no, last, last_ts = held[-1]
    return [(lineno, line[:at] + shown[start:], timestamp), *held[1:-1],
            (last_no, _PASTE_ON + shown[:start] + last, last_ts)]


def _left_at_eof(body: list[str]) -> bool:
    """Whether ``body`` ends on a prompt with nothing typed and the shell's word for leaving: Ctrl-D
    (end of file) at bash's prompt makes a login shell print "logout", another "exit" (bash
    5.2.15 under util-linux script 2.38.1, ssh's shell: ``root@vm:~# \x1b[?2004l\r\r``, then
    ``logout``). ssh says "Connection to gpu02 closed." after it only at LogLevel INFO (its
    default; clientloop.c, quit_message): under ``-q`` or ``LogLevel ERROR`` this is all there is."""
    return len(body) >= 2 and body[-1].strip() in ("logout", "exit") and _prompt(body[-2] + " x") is not None


def _shells_left(rows: list[str]) -> tuple[int, bool]:
    """How many shells ``rows`` (an output's last rows) end by leaving at Ctrl-D, one after another
    (:func:`_left_at_eof`: an empty prompt, then "exit" or "logout"; a ``bash`` typed in an ssh
    login, then the login), and whether ssh's "Connection to gpu07 closed." follows the last
    (openssh-portable clientloop.c, at its default LogLevel INFO): (0, False) where they end
    otherwise."""
    end = len(rows)
    closed = bool(end) and "Connection to " in rows[-1] and " closed" in rows[-1]
    end -= closed
    left = 0
    while end - 2 * left >= 2 and _left_at_eof(rows[end - 2 * left - 2:end - 2 * left]):
        left += 1
    return (left, closed) if left else (0, False)


_MAX_SHELLS_LEFT = 4
"""Shells left one after another that an output's end is looked at for (:func:`_shells_left`)."""


def _zsh_reading(first: str) -> bool:
    """Whether ``first``, a row with a paste-on, is zsh's prompt still reading a line: zsh writes
    the paste-on after its prompt and the paste-off after the typed line, on the same row, so a
    row with no paste-off after its last paste-on was left before Enter."""
    at = first.rfind(_PASTE_ON)
    return _PASTE_OFF not in first[at:] and _prompt(_shown(first[:at] + "x")) is not None


def _zsh_prompt_moved(held: list[tuple[int, str, str | None]]) -> list[tuple[int, str, str | None]]:
    """:func:`_prompt_moved` for zsh, whose prompt comes before the paste-on: a background job
    printed after zsh's prompt (zsh 5.9 under util-linux script 2.38.1: ``... % \x1b[K
    \x1b[?2004hloading draft from /ckpt/eagle3``), and the command then typed is echoed on the
    rows after it, ending in the paste-off (``c\bcurl -sS ...; sleep 3\x1b[?2004l\r\r``). The
    job's text is output (the command before's); the prompt goes to the last row, the command's."""
    lineno, first, timestamp = held[0]
    at = first.rfind(_PASTE_ON)
    if first.startswith(_HIGHLIGHT, at + len(_PASTE_ON)):
        return _zsh_pasted_rows(held, at)
    last_no, last, last_ts = held[-1]
    return [(lineno, first[at + len(_PASTE_ON):], timestamp), *held[1:-1],
            (last_no, first[:at] + _PASTE_ON + last, last_ts)]


_HIGHLIGHT_END = "\x1b[27m"


def _zsh_pasted_rows(held: list[tuple[int, str, str | None]], at: int) -> list[tuple[int, str, str | None]]:
    """A multi-line paste at a zsh prompt, one row as :func:`_pasted_rows` makes of bash's: zsh
    5.9 shows each pasted line highlighted on a row of its own (``\x1b[7mecho two\x1b[27m``),
    then moves up and rewrites them plainly a character at a time, the paste-off at the end
    (under util-linux script 2.38.1). Each highlighted row is a line; the redraw is left out."""
    lineno, first, timestamp = held[0]
    lines = []
    for k, (_, row, _) in enumerate(held):
        start = at + len(_PASTE_ON) if k == 0 else 0
        if not row.startswith(_HIGHLIGHT, start):
            continue
        end = row.find(_HIGHLIGHT_END, start)
        shown = _shown(row[start:end if end >= 0 else len(row)])
        if shown.strip():
            lines.append(shown)
    if len(lines) < 2:
        return held
    return [(lineno, first[:at] + _PASTE_ON + "\n".join(lines), timestamp)]


_SCREEN_SWITCH = re.compile(r"\x1b\[\?(?:1049|1047|47)[hl]")
"""A full-screen program (``watch``, ``less``, ``vim``) switching to the terminal's alternate
screen as it starts and back as it ends (xterm's smcup/rmcup, ``CSI ? 1049 h``/``l``; ``47`` and
``1047`` the older forms: ctlseqs, "Alternate Screen Buffer"). Back on the main screen the cursor
is where it was, at the start of the row after the command: what follows starts a line. Read on
as one line, a ``watch``'s last redraw was joined to the next prompt, and the command typed there
lost (``ls /nope`` read as "ls /nopetil 97%vm: Sat Dec 5 ..." in a bash 5.2 typescript)."""


_COMMAND_FINISHED = re.compile(r"\x1b\](?:133|633);D;(\d{1,3})(?=[;\x07\x1b])")
"""The mark a shell with terminal integration writes when a command ends, with its exit status,
before the next prompt: FinalTerm's semantic prompts, ``ESC ] 133 ; D ; <status> BEL`` (kitty's,
WezTerm's, iTerm2's and Ghostty's shell integration; fish 4 writes it itself; zellij's docs, "Shell
Integration (OSC 133)"), and VS Code's own dialect ``ESC ] 633 ; D ; <status> BEL`` (microsoft/vscode
src/vs/workbench/contrib/terminal/common/scripts/shellIntegration-bash.sh, ``__vsc_command_complete``;
a bare ``633;D`` after an empty line has no status). Recorded: bash 5.2 under util-linux script
2.38.1 with ``PROMPT_COMMAND='printf "\\033]133;D;%s\\007" $?'``, ``PS0='\\033]133;C\\007'``: the
mark of a command with no output is on the row its own echo ends, before the next prompt."""


_RAW_CTRL_C = "\x03"
"""Ctrl-C echoed as the byte itself: with ``stty -echoctl`` the tty echoes a control character as
is, not as ``^C`` (termios(3), ECHOCTL), so a typescript holds the raw byte where the key was
pressed (bash 5.2 under util-linux script 2.38.1: ``tail -f x.log`` then ``\x03\r\n``, ``python3
serve.py`` then ``\x03Traceback ...``). It is the same key, read as the ``^C`` echoctl shows."""


_UNECHOED_CANCEL = "\x1b[?2004l\r\x1b[?2004h\x1b[?2004l"
"""What bash 5.2's readline writes when Ctrl-C gives up the typed line: bracketed paste off, on
and off again, with no newline after the text (an Enter echoes "\\r\\n" first, and the paste
mode goes off on the next line). With ``stty -echoctl`` no ``^C`` precedes it (readline echoes
the key only under ECHOCTL; bash 5.2.15 under util-linux script 2.38.1: ``root@gpu01:~# rm -rf
/models/eagle3`` then this, then ``\\r\\n``); the line ran nothing, as one ending ``^C``."""


def _displayed(lines: Iterator[tuple[int, str, str | None]], columns: int | None = None,
               resizes: deque[tuple[int, int]] | None = None,
               failed: set[int] | None = None,
               marked: dict[int, int] | None = None) -> Iterator[tuple[int, str, str | None]]:
    """``marked``: filled in with the status each line's first :data:`_COMMAND_FINISHED` mark gives."""
    width = columns or _READLINE_COLUMNS  # the terminal's, where script(1)'s header or the recording's gives it
    reading = False  # the line before was a prompt's first row, readline still reading (PS1='...\n$ ')
    for lineno, line, timestamp in lines:
        while resizes and resizes[0][0] < lineno:
            width = resizes.popleft()[1]  # the window resized before the event that ended this line
        if failed is not None and ("➜" in line or "❯" in line) and _FAILED_PROMPT.search(line):
            failed.add(lineno)
        if marked is not None and ";D;" in line and (finished := _COMMAND_FINISHED.search(line)) is not None:
            marked[lineno] = int(finished.group(1))
        if line[:1] == "S" and line.startswith(_SCRIPT_STARTED) and (c := _SCRIPT_COLUMNS.search(line)):
            width = int(c.group(1)) if int(c.group(1)) > 0 else _READLINE_COLUMNS
        if reading and _PASTE_ON not in line and _may_wrap(line):
            line = _readline_rows_joined(line, width)  # the prompt's last row, the command typed on it
        reading = _PASTE_ON in line and line.rfind(_PASTE_ON) > line.rfind(_PASTE_OFF)
        if _RAW_CTRL_C in line:
            line = line.replace(_RAW_CTRL_C, _CANCELLED)
        if "\x1b[?" in line and _UNECHOED_CANCEL in line:
            at = line.find(_UNECHOED_CANCEL)
            if not line.endswith(_CANCELLED, 0, at):
                line = line[:at] + _CANCELLED + line[at:]
        if "\x1b[?" in line and _SCREEN_SWITCH.search(line):
            *before, line = _SCREEN_SWITCH.split(line)
            for part in before:  # (what is blank there, a mode switch's, is no line)
                for row in _SCREEN_ROW.split(part) if "\x1b[" in part else (part,):
                    yield from (shown for shown in _displayed_line(lineno, row, timestamp) if shown[1])
        yield from _displayed_line(lineno, line, timestamp, width)


_SCREEN_ROW = re.compile(r"\x1b\[\d+(?:;\d+)?[Hf]|\x1b\[\d+d")
"""A full-screen program's move to a row it names (ctlseqs: CUP ``CSI row ; col H``, HVP ``f``,
VPA ``CSI row d``): ncurses paints ``watch``'s screen so, with no newline between its rows
(procps watch 4.0.2 under util-linux script 2.38.1: ``...2026\x1b[3;1Hline one\r\x1b[4dNVIDIA-SMI
has failed ...``). Read as one line, the rows were joined: the title row, then what the command
printed, and an error in it no line of its own."""


def _displayed_line(lineno: int, line: str, timestamp: str | None,
                    width: int = 0) -> Iterator[tuple[int, str, str | None]]:
    if "\r \r" in line and (unended := _PROMPT_SP.search(line)) is not None:
        # the output before zsh's mark is a line of its own, though no newline ended it
        before = _shown(line[:unended.start()])
        if before:
            yield lineno, before, timestamp
        line = line[unended.end():]
    elif "⏎" in line and (unended := _FISH_PROMPT_SP.search(line)) is not None:
        before = _shown(line[:unended.start()])  # as zsh's: fish's mark (_FISH_PROMPT_SP)
        if before:
            yield lineno, before, timestamp
        line = line[unended.end():]
    if _PASTE_ON in line or _TITLE in line:
        *ended, line = _prompt_rows(line)
        for before in ended:
            yield lineno, before, timestamp
        if width and _may_wrap(line):
            line = _readline_rows_joined(line, width)
    elif _READLINE_WRAP in line and width and _prompt(_shown(line[:line.find(_READLINE_WRAP)])) is not None:
        # a prompt with no mark before it: readline before 8.1 turns bracketed paste on only when
        # told to (bash 5.0 and older), and a PS1 with no window title (Debian's .bashrc sets
        # one only for TERM=xterm*, not in tmux or screen); its row wraps are the same
        line = _readline_rows_joined(line, width)
    yield lineno, _shown(line), timestamp


_READLINE_WRAP = " \r"
"""How bash's readline goes on to the next row when the typed line reaches the right margin: a
space past the last column (the terminal wraps, xterm's ``xn``), a carriage return to the new
row's start, and the next character written over the space (GNU readline ``display.c``,
``update_line``: "at the right edge of a terminal that supports xn, we're ready to wrap around";
bash 5.2.15 under util-linux script 2.38.1 in an 80-column pty: ``...# python3 load.py --draft
/ckpt/eagle3 --ta \rrget /models/...``). zsh's own, :data:`_ROW_WRAP`, erases the row as well."""
_READLINE_COLUMNS = 80
"""readline's width where the pty has none (script(1) run with no terminal of its own writes
``COLUMNS="-1"`` in its header): the terminfo entry's ``cols``, 80 for xterm."""
_CURSOR = "\ue000"  # a private-use character no terminal log holds: where the cursor stands


def _readline_rows_joined(line: str, width: int) -> str:
    """``line``, a prompt's row, with each of readline's row wraps (:data:`_READLINE_WRAP`) marked as
    :func:`_shown` marks zsh's (:data:`_ROW_WRAP`), to be joined: one where the cursor stands past
    the last column of a full row. Read as plain carriage returns, each row of a command longer than the
    terminal was written over its start: the prompt lost, so the command was, its output the
    command's before. A space and a carriage return elsewhere (a redraw after a space typed)
    stay."""
    out: list[str] = []
    start, rows = 0, 1
    for m in _READLINE_WRAPS.finditer(line):
        at = m.start()
        shown = _shown("".join(out) + line[start:at] + _CURSOR)
        if shown.find(_CURSOR) == rows * width:
            out.append(line[start:at] + "\x12\r")  # (the carriage return, to the new row's start, stays)
            rows += 1
        else:
            out.append(line[start:at + 2])
        start = at + 2
    out.append(line[start:])
    return "".join(out)


_READLINE_WRAPS = re.compile(r" \r|([^\r\n\x1b])\r(?=\1)")
"""readline's row wraps (:data:`_READLINE_WRAP`): where the rest of the line is already typed when
it reaches the margin (a command pasted, or keys typed faster than it redraws), the character past
the last column is the next row's first, not a space, and it is written again after the carriage
return (bash 5.2.15 under util-linux script 2.38.1 in a 100-column pty, a command sent to it as one
write: ``...&& false; echo\ro after``)."""


def _may_wrap(line: str) -> bool:
    """``line``, a prompt's row, may hold a readline row wrap (:data:`_READLINE_WRAPS`)."""
    return _READLINE_WRAP in line or ("\r" in line.rstrip("\r") and _READLINE_WRAPS.search(line) is not None)


_PASTE_ON = "\x1b[?2004h"
"""What bash (5.1 and later: readline's enable-bracketed-paste, on by default) writes before each
prompt. After output that ended with no newline (``curl -s localhost:30000/health`` prints its
JSON so) the prompt follows on the same line of a typescript, and no prompt was read there: the
next command was lost and its output joined to the one before. zsh writes it after its prompt."""
_TITLE = "\x1b]"
_PROMPT_MARK = re.compile(r"(?=\x1b\[\?2004h|\x1b\][02];)")
"""Where a prompt may start mid-line: :data:`_PASTE_ON`, or the window title a PS1 sets first
(Debian's and Ubuntu's default ``.bashrc`` for an xterm: ``\\[\\e]0;\\u@\\h: \\w\\a\\]``), the mark of an
older bash (5.0, Ubuntu 20.04) without bracketed paste."""


def _prompt_rows(line: str) -> list[str]:
    """The rows of ``line`` that prompts start (:data:`_PROMPT_MARK`), each but the last as
    shown and not empty (the output before a prompt), the last as it is. A mark not followed by
    a prompt (zsh's, after it) stays where it was, as does a prompt after a carriage return:
    readline redrawing the line, or a prompt written over a progress bar, on the same row."""
    parts = _PROMPT_MARK.split(line)
    if len(parts) == 2 and not parts[0]:
        return [line]  # the common line: a prompt's own, the mark at its start
    rows = [parts[0]]
    for part in parts[1:]:
        if not _TERMINAL_CONTROL.sub("", rows[-1]).endswith("\r") and _prompt(_shown(part)) is not None:
            rows.append(part)
        else:
            rows[-1] += part
    ended = [shown for shown in map(_shown, rows[:-1]) if shown]
    return [*ended, rows[-1]]


_PROMPT_SP = re.compile(r"(?:\x1b\[1m\x1b\[7m[%#]\x1b\[27m\x1b\[1m\x1b\[0m +| {20,})\r \r")
"""What zsh writes before each prompt (its PROMPT_SP option, on by default; zshoptions(1)): the
PROMPT_EOL_MARK (a bold reverse ``%`` or ``#``), spaces to the last column, a carriage return,
a space and a carriage return. Where the output before it ended with no newline
(``curl -s localhost:30000/health``, a ``printf``), the terminal wraps and the prompt starts a
row of its own; read as one line, the prompt overwrote that output."""


_FISH_PROMPT_SP = re.compile(r"(?:\x1b\[[\d;]*m)*⏎(?:\x1b\[[\d;]*m|\x1b\(B)* {20,}\r⏎ \r")
"""zsh's PROMPT_SP in fish: before each prompt a dim ``⏎``, spaces to the last column, a carriage
return, ``⏎`` and a space, and a carriage return (fish 3.6.0 under util-linux script 2.38.1:
``\x1b[2m⏎\x1b(B\x1b[m`` and 79 spaces in an 80-column pty, then ``\r⏎ \r``). Output that ended
with no newline (``curl -s .../health``, a ``printf``) is on the same row before it: the terminal
wraps the mark onto a row of its own and the output stays, but read as one line with its carriage
returns applied, the output was written over and lost."""


def _shown(line: str) -> str:
    """``line`` as the terminal showed it: colours and titles out, edits applied."""
    if "\x1b" in line:
        right: list[str] | None = None
        if "C" in line:
            if "\u2718" in line or "@" in line or "↵" in line:  # it may show powerlevel10k's or bira's status
                right = []
                line = _RIGHT_PROMPT.sub(lambda m: _right_prompt_left_out(m, right), line)
            else:
                line = _RIGHT_PROMPT.sub(_right_prompt_left_out, line)
        if _ROW_WRAP in line and (_PASTE_ON in line or _KEYPAD_ON in line):
            line = line.replace(_ROW_WRAP, "\x12")
        # A long line's edits are each taken once: `\x1b[1000C` is 7 bytes that stand for 1,000
        # marks, and a 32 MB line of them would grow to gigabytes (_as_displayed drops a long
        # line's shifting marks anyway).
        marks = _edit_mark if len(line) <= _MAX_EDITED_CHARS or _edits_fit(line) else _edit_mark_once
        line = _TERMINAL_CONTROL.sub("", _LINE_EDIT.sub(marks, line))
        if _EDITED(line):
            line = _as_displayed(line)
        if right and len(right[-1]) <= 40:
            # at the row's right edge, after the command, as a screen capture shows it
            # (right_prompt_at): the state reads its status and host there and cuts it off
            line = line.rstrip(" ") + _RIGHT_GAP + right[-1]
    elif "\r" in line or "\b" in line or "\x0e" in line:
        line = _as_displayed(line)
    return line


_RIGHT_PROMPT = re.compile(r"\x1b\[(\d+)C((?:[^\x1b\r\n\b]|\x1b\[[\d;]*m|\x1b\[K)+)\x1b\[(\d+)D")
_SGR = re.compile(r"\x1b\[[\d;]*m|\x1b\[K")


def _right_prompt_left_out(m: re.Match, said: list[str] | None = None) -> str:
    """zsh's right prompt (RPROMPT, a theme's clock or last status) drawn as it prompts: the
    cursor moved right, the text written, the cursor moved back exactly to where it was
    (``\x1b[K\x1b[64C[0] 17:37:30\x1b[76D``, zsh 5.9 in a script(1) typescript), where the
    command is then typed. The screen shows it after the command, which it is no part of (read
    so, ``nvidia-smi -L`` became ``nvidia-smi -L            [0] 17:37:30``). Any other move
    right and back is kept. One that shows powerlevel10k's status or context (``✘ 1 root@vm``,
    :data:`_P10K_STATUS`) is put in ``said``, to be read as a capture's (:func:`_shown`)."""
    text = _SGR.sub("", m.group(2))
    back = int(m.group(3)) - int(m.group(1))
    if back == len(text) or (back > len(text) and back == _columns(text)):
        if said is not None and ("\u2718" in text or "@" in text or "↵" in text):
            said.append(text.strip())
        return ""
    return m.group(0)


def _columns(text: str) -> int:
    """The columns ``text`` takes on a terminal: two for a wide character (a CJK letter, most
    emoji; wcwidth(3) as zsh counts it), one for any other."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _edit_mark(m: re.Match) -> str:
    op = m.group(2)
    if op == "K":
        return "\x0e" if m.group(1) in ("", "0") else ""  # 1K/2K (to the start, whole line): rare
    return _EDIT_MARKS[op] * min(int(m.group(1) or 1), 1000)


def _edit_mark_once(m: re.Match) -> str:
    return _edit_mark(m) if m.group(2) == "K" else _EDIT_MARKS[m.group(2)]


_MAX_EDIT_MARKS = 1 << 20
"""The marks a long line's edits may stand for and still be taken whole (:func:`_edits_fit`)."""


def _edits_fit(line: str) -> bool:
    """A line longer than :data:`_MAX_EDITED_CHARS` whose edits stand for few marks, each taken
    whole: fish redraws the command line on each key typed while an autosuggestion shows (the
    line, ``\r``, a move right to the cursor's column, ``ESC[19C``, the rest in grey: fish 3.6.0
    under util-linux script 2.38.1), so a launch command of 150 characters typed where history
    suggests one is a line of 18,000; its moves taken once each, the command was garbled
    (``/33333333333e3333...``) and lost. A redraw loop or junk, with moves that stand for more,
    is still read with each taken once."""
    total = 0
    for m in _LINE_EDIT.finditer(line):
        total += min(int(m.group(1) or 1), 1000)
        if total > _MAX_EDIT_MARKS:
            return False
    return True


def _rejoined(rows: Iterator[tuple[int, str, str | None]], width: int) -> Iterator[tuple[int, str, str | None]]:
    """The lines a pane of ``width`` columns cut into rows: a row that fills the pane goes on in
    the next one. capture-pane trims the trailing spaces of a row, so one a column short of the
    width was cut on a space (put back). A table's rows (nvidia-smi) are as wide as they are,
    and a prompt starts a line of its own; a line exactly as wide as the pane cannot be told from
    a cut one otherwise, and takes the next row with it."""
    held: tuple[int, str, str | None] | None = None
    last = 0  # width of the row held last
    for row in rows:
        line = row[1]
        if held is not None and line and not _starts_a_line(line, held[1]) and not _said_after(line, held[1]):
            held = (held[0], held[1] + ("" if last >= width else " ") + line, held[2])
        else:
            if held is not None:
                yield held
            held = row
        last = len(line)
        if last < width - 1 or _cut_unlikely(line) or len(held[1]) > MAX_BODY_CHARS:
            yield held
            held = None
    if held is not None:
        yield held


_TABLE_EDGES = "|+│┃┤┐┘╣╗╝║"
"""Last characters of a table row: its right border (nvidia-smi, Markdown, box drawing)."""


def _cut_unlikely(row: str) -> bool:
    return not row or row[-1] in _TABLE_EDGES or right_prompt_at(row) is not None


_RIGHT_GAP = " " * 10
_QUOTING_BEFORE = frozenset(" \t:-=>#'\"`([")
"""What comes before a prompt that a line quotes rather than shows (``grep -n`` on a terminal log:
``terminal.log:12:root@gpu01:~# nvidia-smi``; an ``echo 'root@gpu01:~# ls'``; an indented copy)."""


def right_prompt_at(text: str) -> int | None:
    """Where a right prompt that a screen capture shows after the typed command starts: zsh's
    RPROMPT (a theme's clock, the last status: ``me@gpu02 ~ % ls      [0] 18:07:48``) is drawn
    at the right edge, the row between it and the command blank (tmux capture-pane, a copy of
    the screen). A run of ten spaces or more, then a short tail with no wide gap of its own,
    ending the text; None where there is none. Such a row ends a column short of the pane (zsh
    leaves the last one empty) and is no row cut at the pane's width."""
    if _RIGHT_GAP not in text:
        return None
    at = text.rfind(_RIGHT_GAP)
    tail = text[at:].strip()
    if not tail or len(tail) > 40 or "   " in tail:
        return None
    return len(text[:at].rstrip(" "))


def _said_after(row: str, command: str) -> bool:
    """``row`` is what the command typed in ``command`` (a prompt's row, rows of it joined) said,
    not more of it: its first word ends in a colon (``bash: nosuch: command not found``, ``zsh:
    ...``, ``ERROR: ...``, ``python3: can't open file ...``) and no quote of the command is open.
    A command whose last row is exactly as wide as the pane (a ``--speculative-config '{...}'``
    ending at the edge: tmux 3.3a, 80 columns, recorded) took its error into the command."""
    space = row.find(" ")
    if space == 0 or row[(space if space > 0 else len(row)) - 1] != ":":
        return False
    typed = _prompt(command)
    return typed is not None and not open_quote(typed.group("command"))


def _starts_a_line(row: str, before: str) -> bool:
    """``row`` starts a line of its own rather than going on with ``before``: a prompt, or the
    same opening as ``before`` (two log lines of one width, ``[2025-08-18 10:03:02] Decode
    batch ...``, one after the other: a cut falls mid-text, rarely on a line's opening)."""
    return row[:3] == before[:3] or (_prompt(row) is not None and not _closes_cut_quote(row, before))


def _closes_cut_quote(row: str, before: str) -> bool:
    """``row``, which reads as a prompt, is the end of a quote the command typed in ``before``
    left open at the pane's edge: ``export PS1='...(main)`` cut there goes on in a row ``$ '``
    (tmux 3.3a capture-pane, 80 columns, bash 5.2, recorded). A quote left open when Enter was
    pressed goes on after PS2's ``> `` (bash(1), PROMPTING), never after a prompt of its own."""
    typed = _prompt(before)
    if typed is None:
        return False
    command = typed.group("command")
    return open_quote(command) and not open_quote(command + row)


def decoded_lines(path: Path, stats: ReadStats,
                  span: tuple[int, int, int] | None = None) -> Iterator[tuple[int, str, None]]:
    """``(line_number, text, None)`` of a log file: decoded, control bytes and NUL padding dealt
    with; ``span``: ``(start, end, line)``, only the lines in those bytes, the first numbered ``line``."""
    lines = iter_lines(path, stats)
    if span is not None:
        lines = ((lineno + span[2] - 1, raw) for lineno, raw in iter_lines(path, stats, span=span[:2]))
    for lineno, raw in lines:
        if raw is None:
            continue
        if b"\x00" in raw:
            # A crash while a log was appended leaves a run of NUL bytes where a block was never
            # written, and the log goes on after it on the same line (anthropics/claude-code
            # issue #49876 shows the pattern in a JSONL file; ext4 delayed allocation does it to
            # any file). What is left without the NULs is the line; binary if nothing is, or if
            # it is mostly other control bytes (a binary file sent to the terminal).
            raw = raw.replace(b"\x00", b"")
            if not raw.strip() or _control_bytes(raw) * 10 > len(raw):
                stats.binary += 1
                continue
        try:
            line = raw.decode("utf-8").rstrip("\r\n")
        except UnicodeDecodeError:
            # A log written in a legacy code page (cmd.exe redirects in the console's OEM code
            # page, e.g. cp850 for "Datenträger"; a non-UTF-8 terminal's cp1252 / Latin-1
            # "µs", "°C", "température élevée") has one byte per accented letter: keep the line,
            # each such byte as cp1252 reads it (reader.legacy_text; was U+FFFD, the letter
            # lost). Such a line is still mostly ASCII and holds no control
            # bytes; random bytes (a binary file cat'ed to the terminal) are about half bytes
            # >= 0x80 and one in ten a C0 control. A short French or German exception line has
            # more than one stray byte in ten, and dropping it as binary turned a real
            # traceback into "traceback without an exception line".
            replaced = raw.decode("utf-8", "replace").rstrip("\r\n")
            if replaced.count("\ufffd") * 2 > len(replaced) or _control_bytes(raw) * 20 > len(raw):
                stats.binary += 1
                continue
            line = legacy_text(raw).rstrip("\r\n")
        if lineno == 1 and line.startswith("\ufeff"):
            line = line[1:]  # a byte-order mark (Windows editors)
        yield lineno, line, None


_WIDTH_SAMPLE = 5000
_MIN_WIDTH = 60


def pane_width(path: Path) -> int | None:
    """The width of the terminal pane a log was copied from, when the copy cut its lines at that
    width. ``tmux capture-pane -p`` without ``-J`` writes the pane's rows, so a line longer than
    the pane (an SGLang launch command, a decode-batch log line) comes as several rows, the first
    ones exactly as wide as the pane (tmux(1), capture-pane: "-J preserves trailing spaces and
    joins any wrapped lines"). Known from the head: at least three of its widest rows go on in
    the row after them, and that width stands out. None for anything else: a ``script(1)``
    typescript keeps the bytes the terminal got, never cut (its carriage returns say so);
    nvidia-smi's table and repeated log lines of one width start rows of their own."""
    rows: list[tuple[int, bool, str]] = []
    for n, (_lineno, line, _) in enumerate(decoded_lines(path, ReadStats())):
        if "\r" in line:
            return None
        if n >= _WIDTH_SAMPLE:
            break
        if "\x1b" in line:
            line = _TERMINAL_CONTROL.sub("", line)  # capture-pane -e keeps the colours
        rows.append((len(line), _cut_unlikely(line), line[:4096]))
    if not rows:
        return None
    widest = max(length for length, _, _ in rows)
    cut = sum(1 for n, (length, cut_unlikely, line) in enumerate(rows[:-1])
              if length == widest and not cut_unlikely and rows[n + 1][0] and not _starts_a_line(rows[n + 1][2], line))
    # Every line longer than the pane leaves a row exactly as wide as it, so that width stands
    # out; text an editor filled at a column (a Markdown note, a README) has about as many lines
    # a few columns shorter.
    near = max(sum(1 for length, _, _ in rows if length == widest - k) for k in (2, 3, 4))
    if widest < _MIN_WIDTH:
        return None
    if cut >= 3 and cut > 2 * near:
        return widest
    return _command_goes_on(rows, widest) if cut else None


_OPTION_AT = re.compile(r"--?[A-Za-z][\w.-]*(?:[= ]|$)")
"""An option of a command, where a row goes on with one."""
_LATER_OPTION = re.compile(r" --?[A-Za-z]")
_ENDS_IN_OPTION = re.compile(r"\s--?[A-Za-z][\w.-]*$")
_GOES_ON_WORD = re.compile(r"[a-z0-9./_-][^\s:]*(?:\s|$)")
"""The rest of a word cut mid-way: no capital at its start (output's first word mostly has one:
``Traceback``, ``INFO``, ``[2025-08-18 ...]``), no ``:`` in it (``bash: x: command not found``,
``zsh: command not found: x``, ``usage: ...``). Where only the row's last word being an option
says the command goes on, the rest starts with a letter (``2025-08-18 10:02:31 loading`` is a log
line after ``--trust-remote-code``)."""


def _command_goes_on(rows: list[tuple[int, bool, str]], widest: int) -> int | None:
    """The pane's width from a capture too short to show three cut rows: a command typed at a
    prompt (an SGLang launch) that is the widest row and goes on in the next one. A capture of a
    pane holds no row wider than the pane, so a command as wide as the widest row may be cut at
    the edge; the command's own words in the next row say so, where output starts a line of its
    own. The three ways the cut falls (tmux 3.3a capture-pane of 80 and 100 columns, bash 5.2 and
    zsh 5.9, each recorded): past the edge on a space, the next row starting with it and an option
    (``" --speculative-algorithm EAGLE3"``: ``widest``); on the edge's column on a space, which
    capture-pane trims from the row, the next row starting with the option (``"--port 30000"``: one
    more, the row a column short of the pane); inside a word (``--max-mod`` then ``el-len 8192``,
    ``-8B-Inst`` then ``ruct --port 30000``): the next row the rest of the word, then more options,
    or the word an option's (``widest``)."""
    for n, (length, cut_unlikely, line) in enumerate(rows[:-1]):
        if length != widest or cut_unlikely or line[-1:] in " \\":
            continue
        after = rows[n + 1][2]
        if after[:2] == " -" and _OPTION_AT.match(after, 1):
            width = widest
        elif after[:2] == "--" and _OPTION_AT.match(after):
            width = widest + 1
        elif _GOES_ON_WORD.match(after) and (_LATER_OPTION.search(after)
                                             or after[:1].isalpha() and _ENDS_IN_OPTION.search(line)):
            width = widest
        elif after[:2] != "> " and _closes_cut_quote(after, line):
            return widest  # the rest of a quoted prompt (`$ '`), not a line typed after PS2
        else:
            continue
        typed = _prompt(line)
        if typed is not None and typed.group("command").strip() and _prompt(after) is None:
            return width
    return None


_BINARY_CONTROLS = bytes(c for c in range(32) if c not in (8, 9, 10, 13, 14, 27))
"""C0 control bytes a terminal log does not hold as text (backspace, tab, newline, carriage
return, shift-out and escape it does)."""


def _control_bytes(raw: bytes) -> int:
    return len(raw) - len(raw.translate(None, _BINARY_CONTROLS))


_MAX_EDITED_CHARS = 16384
_SHIFTS_TEXT = re.compile("[\x0f\x10]").search
_NO_SHIFTS = dict.fromkeys((0x0F, 0x10))


def _as_displayed(line: str) -> str:
    """The line as the terminal showed it. ``script(1)`` records "everything in the log file,
    including linefeeds and backspaces" (util-linux script(1), BUGS): a typo fixed at the
    prompt is ``nvidia-smo\\b \\bi``, a progress bar redraws itself after each ``\\r``, and
    readline redraws a line with ``\\r``, the text and an erase to the end of the line."""
    if not _MOVES_CURSOR(line):
        # Carriage returns alone (every line of a typescript ends in one; a progress bar): each
        # part overwrites the start of what is shown, with string slices, not a loop per character.
        parts = line.split("\r")
        text = parts[0]
        for part in parts[1:]:
            text = part + text[len(part):]
        return text.rstrip(" ")
    if len(line) > _MAX_EDITED_CHARS and _SHIFTS_TEXT(line):
        # Inserts and deletions shift what is shown, each in the time of the line (\x1b[1000@ is a
        # thousand): a command fixed at the prompt is short, a line this long is a redraw loop or
        # junk. Its carriage returns, backspaces, erases and moves still apply (a move right costs
        # one step: fish's redraws, _edits_fit).
        line = line.translate(_NO_SHIFTS)
    shown: list[str] = []
    col = row = 0  # the cursor, and where the row it is on starts (_ROW_WRAP)
    for ch in line:
        if ch == "\r":
            col = row
        elif ch == "\b":
            col = max(col - 1, row)
        elif ch == "\x12":  # the command went on in the next row: the last one, full, stays
            row = col
            del shown[col:]
        elif ch == "\x0e":
            del shown[col:]
        elif ch == "\x0f":  # insert a blank at the cursor (the character typed comes next)
            shown[col:col] = " " if col <= len(shown) else " " * (col - len(shown) + 1)
        elif ch == "\x10":  # delete the character at the cursor
            del shown[col:col + 1]
        elif ch == "\x11":  # cursor right
            col += 1
            if col > len(shown):
                shown.append(" ")
        elif col < len(shown):
            shown[col] = ch
            col += 1
        else:
            shown.append(ch)
            col += 1
    return "".join(shown).rstrip(" ")


def _bare_powerline(row: str) -> bool:
    """``row`` is the left segments of a powerline prompt with nothing typed after them (the
    last separator ends it, or the right segments after a blank gap, :func:`right_prompt_at`):
    the first row of a two-row prompt (powerlevel10k's classic and rainbow styles), whose
    command is typed on the next row, not a command of its own."""
    if row[:1] != " " or ("\ue0b0" not in row and "⮀" not in row):
        return False
    at = right_prompt_at(row)
    return row[:at].rstrip().endswith(("\ue0b0", "⮀"))


def _prompt(line: str) -> re.Match | None:
    """The shell prompt ``line`` starts with, and the command typed after it."""
    # Literal tests first (every user@host prompt has its "@"): most lines are output.
    return ((_USER_PROMPT.match(line) if "@" in line else None) or _DOLLAR_PROMPT.match(line)
            or (_CMD_PROMPT.match(line) if ":\\" in line else None)
            or (_THEME_PROMPT.match(line) if "➜" in line or "❯" in line else None)
            or (_POWERLINE_PROMPT.match(line) if line[:1] == " " and ("\ue0b0" in line or "⮀" in line)
                and not _bare_powerline(line) else None)
            or (_HOST_PROMPT.match(line) if "$" in line or "#" in line or "%" in line else None)
            or (_IPYTHON_PROMPT.match(line) if line[:4] == "In [" else None))


def _prompt_host(m: re.Match) -> str | None:
    if m.re is _THEME_PROMPT:
        return m.group("theme_host")
    if m.re is _HOST_PROMPT:
        return m.group("host") or m.group("bracket_host") or m.group("mac_host")
    if m.re is _POWERLINE_PROMPT:
        return m.group("host")
    if m.re is not _USER_PROMPT:
        return None
    return m.group("host") or m.group("bracket_host") or m.group("zsh_host") or m.group("fish_host") \
        or m.group("walters_host")


def _host_stem(host: str) -> str:
    """A host's name without its digits and marks: ``node1`` and ``node-2`` are both ``node``."""
    return "".join(c for c in host.lower() if c.isalpha())


def _prompt_user(m: re.Match) -> str | None:
    """The user a bash prompt shows (``root@gpu-3:~#``, ``[root@gpu-3 ~]#``): who ran the command
    there, whose home ``~`` is; not bash's ``I have no name!`` for a uid without a name."""
    if m.re is _HOST_PROMPT:
        return m.group("mac_user")
    if m.re is _POWERLINE_PROMPT:
        return m.group("user")
    if m.re is not _USER_PROMPT:
        return None
    user = m.group("user") or m.group("bracket_user") or m.group("zsh_user") or m.group("fish_user") \
        or m.group("walters_user")
    return user if user and user != "I have no name!" else None


def _prompt_dir(m: re.Match) -> str | None:
    """The folder a Debian/Ubuntu prompt shows, ``root@gpu-3:~/work#`` (bash's ``\\w``: the whole
    path, the home as ``~``; Debian's /etc/skel/.bashrc PS1), where the command typed after it ran.
    The other prompts show the folder's last part (``[root@gpu-3 work]#``, zsh's ``%1~``) or a
    shortened path (fish's prompt_pwd, bash's PROMPT_DIRTRIM ``.../x``): no folder to go back to.
    zsh's ``%n@%m %~ %#`` (``me@gpu01 ~/sglang %``) shows the whole path too, and so does its
    default ``%1~`` where it shows ``~`` or ``/`` (zshmisc(1), PROMPT SEQUENCES: ``%~``, ``%1~``
    the trailing part only, which is never ``~/x`` nor ``/x``); Gentoo bash's ``\\u@\\h \\w \\$``; in
    brackets, ``[me@gpu13:~/w]$`` and ``[root@gpu13 ~/w]#`` (``\\w``; RHEL's ``\\W`` shows ``~`` for
    the home, a whole path too)."""
    if m.re is not _USER_PROMPT and m.re is not _HOST_PROMPT and m.re is not _POWERLINE_PROMPT:
        return None
    folder = m.group("dir") or (m.group("zsh_dir") or m.group("bracket_dir") or m.group("bracket_wdir")
                                if m.re is _USER_PROMPT else None)
    return folder if folder and (folder[0] == "/" or folder == "~" or folder.startswith("~/")) else None


_TRACED_EXIT = re.compile(r"(?:^|\n)\+ exit (\d{1,3})[ \t]*\Z")


_NOT_PROSE = re.compile(r"[|&;<>$`\"\\=(){}\[\]*/]|(?:^|\s)-|'(?![a-z])|(?<![A-Za-z])'")
"""What a shell command holds and a line of prose seldom does: its operators, quotes, options, paths."""


def _remark(text: str) -> bool:
    """``text``, after a line's ``# ``, is a remark in words, not a command at a root shell's bare
    prompt: ``now on the gpu box, check the server``, ``results on gpu07: accept length stuck near
    1``, ``why is the draft idle?``. A word ending in "," or ":" before the last one, or a
    question, and none of a command's operators, quotes, options or paths (``ls /models``,
    ``python3 -c '...'`` stay commands)."""
    words = text.split()
    if len(words) < 3 or _NOT_PROSE.search(text):
        return False
    return any(word[-1] in ",:" for word in words[:-1]) or text.rstrip().endswith(("?", "...", "\u2026"))


def _traced_exit(output: str) -> int | None:
    """The status a traced script ended with: its output's last line is bash's trace of a
    top-level ``exit N`` (``bash -x run.sh``, ``set -x``: PS4's ``+ ``, one ``+`` per level, so a
    ``$(exit 4)``'s ``++ exit 4`` is not the script's), after which it printed nothing more, not
    even a trap's trace (bash(1), ``set -x``; bash 5.2.15: ``bash -x -c 'f() { exit 5; }; f'``
    ends with ``+ exit 5`` and status 5). A subshell's ``( exit 1 )`` traces the same, and ends the
    script with its status only where nothing runs after it: then it is last too."""
    m = _TRACED_EXIT.search(output[-80:])
    return int(m.group(1)) if m else None


class _State:
    def __init__(self, cursor: Cursor) -> None:
        self.cursor = cursor
        self.pasting = False  # feed_pasted's first row: the command goes on over the pasted lines
        self.seq_next = cursor.seq_base
        self.seq = cursor.seq_base
        self.block = 0
        self.kind: str | None = None  # kind of the open body: text/prompt/tool_result/None
        self.role = "assistant"
        self.role_given = False
        self.body: list[str] = []
        self.tail = Tail()
        """The last lines of a body past :data:`MAX_BODY_CHARS` (:meth:`_append`)."""
        self.body_chars = 0
        self.body_line = 0
        self.call_id: str | None = None
        self.host: str | None = None
        self.fence: str | None = None  # language of the open ``` fence
        self.fence_ticks = 3
        """The backticks the open fence was written with: a longer fence (````) holds shorter ones."""
        self.fence_output = False
        """The open fence has shown output (a bare line after it is no command)."""
        self.held_prompts: list[tuple[str, int]] = []
        """Prompted lines of a plain block in a ``[msg N]`` reply, held until the block shows
        output (a run) or ends without any (an example): :meth:`_held_prompt`."""
        self.block_ran = False
        """The open plain block of a ``[msg N]`` reply showed a prompted line and its output."""
        self.unprompted = False
        """The command being typed was written without a prompt (its next lines need no PS2)."""
        self.numbered = False
        self.msg_last = -1
        """The number of the last ``[msg N]`` line."""
        self.msg_shift = 0
        """Added to a ``[msg N]``'s N for its seq: past the messages read when the numbers
        started again (two transcripts pasted one after the other)."""
        self.calls = 0
        self.timestamp: str | None = None
        """Of the line being fed (a terminal recording stamps its output)."""
        self.clock: str | None = None
        """The last time a PowerShell transcript gave (:mod:`formats.powershell_marks`): the
        lines after it, which carry none, are of then or later."""
        self.transcript = False
        """A PowerShell transcript's banner was seen."""
        self.body_timestamp: str | None = None
        self.typing: TypedCommand | None = None
        """A command the shell is still reading (continued on the next lines)."""
        self.status_style: str | None = None
        """The host of the prompt that showed an exit status (:meth:`_status_shown`; "" for none)."""
        self.listing: Event | None = None
        """A ``history`` call held back until its output shows the commands that ran before it."""
        self.flags_follow = False
        """The command being read was written without a prompt and may go on in flag lines."""
        self.aider_prompt = False
        """The open prompt is an Aider ``#### `` input: Aider writes every line of the input with
        the prefix (``InputOutput.user_input``, Aider-AI/aider ``aider/io.py``), so the first
        other line is the reply, as ``split_chat_history_markdown`` (``aider/utils.py``) reads it."""
        self.aider_line = 0
        """Line of the input's last ``#### `` line: a blank line before the next one starts another input."""
        self.aider = False
        """The log is Aider's chat history (its launch banner was seen, :data:`_AIDER_STARTED`)."""
        self.markdown = False
        """A fence, a heading or a command in prose was seen: the log is Markdown, not a terminal's
        (a ``> `` line outside a block quotes)."""
        self.exit_code: int | None = None
        """Exit status of the open call, when the log states it apart from the output."""
        self.failed_shown = False
        self.left_by_exit = False  # left_with: the status is the shell's, the `exit` did not fail
        """The prompt after the open call showed that it failed, not its status (:data:`_FAILED_PROMPT`)."""
        self.marked_statuses: dict[int, int] = {}
        """Line -> the exit status the shell's command-finished mark on it gave the command before
        (:data:`_COMMAND_FINISHED`). Filled in as the lines are shown (:func:`_displayed`)."""
        self.failed_prompts: set[int] = set()
        """The lines whose prompt's arrow is red (:data:`_FAILED_PROMPT`): the command before
        failed. Filled in as the lines are shown (:func:`_displayed`)."""
        self.script_call: str | None = None
        """Call id of the command ``script -c`` ran (its status comes on the closing line)."""
        self.logins = Logins()
        """Hosts an interactive ``ssh`` opened a shell on: the commands typed there ran there."""
        self.top: tuple[re.Match, str, int, str | None] | None = None
        """The first line of a two-line prompt (:data:`_TWO_LINE_TOP`), held until the next line
        shows whether a command is typed on it; with its text, line and timestamp."""
        self.released: int | None = None
        """The line of a held first line that proved no prompt, fed again as any line."""
        self.prompt_hosts: set[str] = set()
        """The hosts the log's prompts have shown (:meth:`_percent_output`)."""
        self.open_command = ""
        """The command whose output is open."""
        self.prompt_shape: re.Pattern | None = None
        """The pattern of the prompt the command being read was typed at."""
        self.typing_shape: re.Pattern | None = None
        """:attr:`prompt_shape` of the command still being typed (:attr:`typing`)."""
        self.showing: tuple[re.Pattern, _Shown] | None = None
        """The open output is the text of files a command printed (:func:`_shows_files`): the
        pattern of the prompt it was typed at, and what it prints."""
        self.msg_showing = False
        """In a ``[msg N]`` transcript, the open call prints files (``[bash] cat README.md``,
        :func:`_shows_files`): its tool message is their text, fences and prompts included."""
        self.shown_fence = False
        """A ``` fence of the printed file is open (:meth:`_shown_file_line`)."""
        self.unsequenced = False
        """The open note is a block opened with no message open: it takes a seq of its own when
        emitted, none when it held nothing but its fences."""
        self.held: list[tuple[str, int, str | None]] | None = None
        """Lines after a here-document's opening line shown without PS2, held until its
        delimiter shows they were its body (:meth:`_hold_heredoc`): with their numbers and times."""
        self.held_chars = 0
        self.step_script: list[str] | None = None
        """The script of a GitHub Actions ``run:`` step being read from its group (:mod:`formats.actions_log`)."""
        self.step_line = 0
        self.step_shell = False
        """The step's group showed its ``shell:``: a ``run:`` step, not a ``uses:`` one."""
        self.after_script = False
        """A GitLab job's ``after_script`` began (:mod:`formats.gitlab_job`)."""
        self.right_context: tuple[str | None, str | None] | None = None
        """``(user, host)`` a right prompt drawn on the row of the command being read shows
        (:meth:`_right_segments`), for a prompt that shows no host."""
        self.prompt_mark: str | None = None
        """``user@host`` of the last prompt that showed both: where it recurs mid-line, a prompt
        follows output that ended with no newline (:meth:`_glued_prompt`)."""
        self.traced_call: str | None = None
        """Call id of the last command a ``set -x`` trace line showed (:meth:`_traced`)."""
        self.tracing = False
        """The command being read is a trace line's: it moves no login (:meth:`_call`)."""

    # -- message boundaries -------------------------------------------------
    def _new_message(self, seq: int | None = None) -> None:
        if seq is None:
            seq = self.seq_next
        self.seq = seq
        self.seq_next = max(self.seq_next, seq + 1)
        self.block = 0

    def _event(self, kind: str, role: str, line: int, **kw) -> Event:
        kw.setdefault("timestamp", self.timestamp)
        if self.seq >= self.seq_next:  # a seq used is none a new message takes (a text opened mid-block)
            self.seq_next = self.seq + 1
        ev = Event(session=self.cursor.session, seq=self.seq, agent=self.cursor.agent, role=role,
                   kind=kind, block=self.block, file=self.cursor.file, line=line, **kw)
        self.block += 1
        return ev

    def flush(self) -> Iterator[Event]:
        if self.top is not None:  # the log ends on a prompt's first line: output, as read
            top, text, top_line, top_time = self.top
            self.top, self.released = None, top_line
            self.timestamp = top_time
            yield from self.feed(text, top_line)
        if self.held is not None:  # the log ends inside an unprefixed here-document body
            yield from self._release_held()
        if self.typing is not None:  # the log ends inside a command
            yield from self._typed(self.typing.line + self.typing.lines + 1)
        if self.listing is not None:  # the listing's output ends here
            yield from self._listed()
        text = self._body_text()
        kind = self.kind
        if kind == "tool_result" and text.endswith(("exit", "logout", " closed.")) and not self.numbered:
            rows = text.rsplit("\n", 2 * _MAX_SHELLS_LEFT + 1)
            left, closed = _shells_left(rows)
            if left:
                # Ctrl-D at the prompt after the output: the prompt and bash's word as it leaves are
                # the shell's, no line of the command's (an `echo $?` typed last read "1", the prompt
                # and "exit": no status); so are those of the shells left after it (Ctrl-D again at
                # the ssh login's prompt) and ssh's "Connection to gpu07 closed."
                text = "\n".join(rows[:len(rows) - 2 * left - closed]).rstrip("\n")
        if self.unsequenced:
            self.unsequenced = False
            if kind == "text" and all(_FENCE.fullmatch(row.strip()) for row in text.split("\n") if row.strip()):
                kind = None  # the block's fences alone: its lines were a run's, or there were none
            elif kind is not None and text:
                self._new_message()
        # An empty output is not emitted: the call stays open, so that an unlabeled output
        # message that follows ([msg N+1] with a traceback) is paired with it.
        if kind == "quote":
            if text.strip("> \n"):
                yield self._event("system", "system", self.body_line, raw_type="quote", text=text,
                                  timestamp=self.body_timestamp)
        elif kind is not None and (text or kind == "tool_result" and self.exit_code is not None and not self.numbered):
            if kind == "text" and not self.role_given and _OUTPUT_HINT.search(text):
                kind = "tool_result"  # an unlabeled [msg N] that is command output
            role = {"tool_result": "tool", "prompt": "user"}.get(kind, self.role)
            code = exit_code_of(text) if kind == "tool_result" else None
            if kind == "tool_result" and text[-1:] in "$#%> " and not self.numbered \
                    and (waiting := _prompt(text[text.rfind("\n") + 1:].rstrip() + " x")) is not None:
                # the prompt the log ends on, nothing typed at it (the copy's last row): no output,
                # and what the output's last line says is read above it (an `echo $?` typed last
                # read its number and the prompt: no status); the status it shows, as a prompt
                # with a command shows it (fish's `root@vm ~ [3]# `), is the command's
                self._status_shown(waiting)
                if self.exit_code is not None:
                    code = self.exit_code
                text = text[:max(text.rfind("\n"), 0)]
            if kind == "tool_result" and code is None:
                code = trailing_exit_code(text)  # `kubectl exec`'s "command terminated with exit code N"
            if kind == "tool_result" and code is None and not self.after_script and not self.numbered:
                code = gitlab_job.job_status(text)  # the failed GitLab job's last script line
            if kind == "tool_result" and code is None and "+ exit " in text[-80:]:
                code = _traced_exit(text)
            if kind == "tool_result" and gitlab_job.AFTER_SCRIPT in text:
                self.after_script = True  # the $ lines after it are after_script's, whose status the job's is not
            if kind == "tool_result" and code is None and self.numbered:
                # A tool message of a [msg N] transcript is what an agent's tool handed the model:
                # Codex's "Exit code: N" header (and unified exec's "Process exited with code N"),
                # an agent loop's own status line, the {"output", "metadata"} or process JSON
                # (common.shell_result, as a chat tool message is read). Was no exit code.
                text, code = shell_result(text)
            if kind == "tool_result" and self.exit_code is not None:
                code = self.exit_code
            yield self._event(kind, role, self.body_line, text=text, timestamp=self.body_timestamp,
                              call_id=self.call_id if kind == "tool_result" else None, exit_code=code,
                              is_error=code not in (None, 0) and not self.left_by_exit or (code is None and kind == "tool_result" and self.failed_shown))
        self.body = []
        self.body_chars = 0
        self.tail.clear()
        self.kind = None
        self.call_id = None
        self.exit_code = None
        self.failed_shown = False
        self.aider_prompt = False

    def _open(self, kind: str, line: int, first: str = "") -> None:
        self.kind = kind
        self.body_line = line
        self.body_timestamp = self.timestamp
        self.body = [first] if first else []
        self.body_chars = len(first)
        self.tail.clear()

    def _command(self, command: str, line: int, host: str | None, *, new_message: bool,
                 flags_may_follow: bool = False, cwd: str | None = None, user: str | None = None,
                 bare_root: bool = False) -> Iterator[Event]:
        """``flags_may_follow``: the command was written without a prompt (in prose or a block),
        where its flags may go on over the next lines without a backslash (:data:`_FLAG_LINE`).
        ``bare_root``: typed at a root shell's bare ``# `` prompt (any other prompt says the
        shell's prompt is not that: Logins.prompt_shown)."""
        shape, self.prompt_shape = self.prompt_shape, None
        if self.logins.stack and self.kind == "tool_result" and _left_at_eof(self.body):
            # Ctrl-D at the login's prompt: as `exit` typed there, once for each shell so left (ssh's
            # "Connection to gpu07 closed." after them: Logins.settle leaves the login)
            for _ in range(_shells_left(self.body[-2 * _MAX_SHELLS_LEFT:])[0]):
                self.logins.ran("exit", None)
        self.logins.settle(self.body if self.kind == "tool_result" else [])
        if not bare_root:
            self.logins.prompt_shown()
        yield from self.flush()
        if command.endswith(_CANCELLED):
            self.tracing = self.unprompted = False
            return  # the line was given up at the prompt (_CANCELLED): nothing ran
        if new_message:
            self._new_message()
        command = command.strip()
        typed = TypedCommand(command, line, host, cwd, user)
        flags_may_follow = flags_may_follow and _LAUNCHER.match(command) is not None
        if typed.waiting() or flags_may_follow or self.pasting:
            self.typing = typed  # the lines after it finish it (see _continue; feed_pasted)
            self.typing_shape = shape
            self.flags_follow = flags_may_follow and not typed.waiting()
            return
        self.unprompted = False
        yield from self._call(command, line, host, line + 1, cwd, user, shape)

    def _call(self, command: str, line: int, host: str | None, output_line: int,
              cwd: str | None = None, user: str | None = None,
              shape: re.Pattern | None = None) -> Iterator[Event]:
        self.calls += 1
        call_id = f"text-call-{self.calls}"
        shown, host = host, self.logins.where(host, carried=shape is _THEME_PROMPT or shape is _POWERLINE_PROMPT
                                              or shape is _IPYTHON_PROMPT)
        container = self.logins.container() if self.logins.containers else None  # its `exit` too
        traced, self.tracing = self.tracing, False
        if traced:
            # A script's own commands ran where the script did: its `ssh gpu01 <<EOF` (xtrace
            # shows no redirection) or `exit` opens or leaves no shell of the log's
            self.traced_call = call_id
        else:
            self.logins.ran(command, shown)
        call = self._event("tool_call", "assistant", line, tool_name="shell", call_id=call_id,
                           command=command, text=command, host=host, cwd=cwd, user=user)
        if container is not None:
            call.container = container  # typed in a container's shell (docker exec -it sglang bash)
        if not self.numbered and shell_history.is_listing(command):
            self.listing = call  # its output lists commands that ran before it (see _listed)
        else:
            yield call
        self._open("tool_result", output_line)
        self.call_id = call_id
        self.open_command = command
        self._note_shown_files(command, shape)

    def _note_shown_files(self, command: str, shape: re.Pattern | None) -> None:
        """Whether the output that opens is the text of files (:attr:`showing`): only for a
        command typed at a prompt of a terminal log, outside any block of a Markdown note (there
        the block's closing fence ends the output)."""
        self.showing, self.shown_fence = None, False
        self.msg_showing = self.numbered and self.fence is None and any(p in command for p in _FILE_SHOWERS) \
            and _shows_files(command) is not None
        if shape is None or self.fence is not None or self.numbered or self.aider:
            return
        shown = _shows_files(command)
        if shown is not None:
            self.showing = (shape, shown)

    def _shown_file_line(self, line: str) -> bool:
        """``line`` is a line of the files the open command prints (:attr:`showing`). A file's
        Markdown (a ``# Heading``, a fence, a ``> `` quote), a script's ``# comment`` and launch
        line are its text, no heading or command of the log; so is a document's ``$ pip install``
        under a command typed at another kind of prompt (printing a file opens no shell). A
        prompt of the kind the command was typed at ends it (the host may differ in a note that
        gathers the commands run on several hosts), as does any prompt after a file that is no
        document (a config, a script: a note may mix prompts), and ``script(1)``'s closing line.
        Inside a fence of a document printed whole even the first is the file's (a README's
        ``me@gpu01:~$ ...`` example); ``head`` may cut a file inside a fence, so there it is the
        log's."""
        pattern, shown = self.showing
        if _FENCE.match(line):
            self.shown_fence = not self.shown_fence
            return True
        if line.startswith("Script ") and typescript_marks.parse(line) is not None:
            return False
        m = _TOOL_MARK.match(line) or _prompt(line)
        if m is None:
            return True
        if m.re is not pattern:
            return shown.documents
        return shown.documents and shown.program in _WHOLE_FILE_SHOWERS and self.shown_fence

    def _listed(self) -> Iterator[Event]:
        """The commands a ``history`` listing shows (its output, now complete), as the calls they
        were, with no output, then the listing itself: they ran before it."""
        listing, self.listing = self.listing, None
        self.block = listing.block  # the listing's place goes to the first command it lists
        for n, (command, stamp) in enumerate(shell_history.listing_entries(self.body, listing.command), 1):
            yield self._event("tool_call", "assistant", listing.line, tool_name="shell",
                              call_id=f"{listing.call_id}-entry-{n}", command=command, text=command,
                              host=listing.host, timestamp=stamp)
            self._new_message()
        listing.seq, listing.block = self.seq, self.block
        self.block += 1
        yield listing

    def _typed(self, output_line: int) -> Iterator[Event]:
        typed, self.typing = self.typing, None
        self.unprompted = self.flags_follow = False
        shape, self.typing_shape = self.typing_shape, None
        if typed is not None:
            yield from self._call(typed.text, typed.line, typed.host, output_line, typed.cwd, typed.user, shape)

    def _continue(self, line: str, lineno: int):
        """A line after a command the shell was still reading: the shell prompts for the rest with
        PS2 (:data:`shell_typing.PS2`; bash(1), PROMPTING) after a trailing backslash, an open
        quote, a trailing pipe or ``&&``, and for each line of a here-document; in a shell code
        block the lines simply follow. True when the line was part of the command."""
        typed = self.typing
        if self.flags_follow:
            if not _FLAG_LINE.match(line):
                yield from self._typed(lineno)  # the command ended with its line
                return False
            flags = line.strip()
            typed.text, typed.shell = f"{typed.text} {flags}", f"{typed.shell} {flags}"
            typed.lines += 1
            if typed.waiting():  # an open quote, a backslash: the shell's own rules go on
                self.flags_follow = False
            elif typed.lines >= MAX_TYPED_LINES or len(typed.text) > MAX_BODY_CHARS:
                yield from self._typed(lineno + 1)
            return True
        in_block = self.fence in _SHELL_LANGS or (self.fence is not None and self._transcript_fence()) or self.unprompted
        if in_block and _FENCE.match(line):
            yield from self._typed(lineno)  # the block ends: the command is what was written
            return False
        ps2 = PS2.match(line)
        if self.held is not None or (typed.heredocs and not ps2 and not in_block
                                     and not self.numbered and not self.aider):
            return (yield from self._hold_heredoc(line, lineno))
        if ps2 and line.endswith(_CANCELLED):
            # Ctrl-C at PS2: the whole command is given up, none of its lines ran
            self.typing, self.typing_shape = None, None
            self.unprompted = self.flags_follow = False
            return True
        if ps2:
            part = line[ps2.end():]
        elif in_block:
            part = line
        elif typed.shell[-1:] == "\\" and _FLAG_LINE.match(line) and ends_escaped(typed.shell):
            # A backslash-newline with the next line's flags shown without PS2 (a log whose shell
            # sets PS2 empty, or a launch command pasted into a note from its README): the shell
            # reads that line as the rest of the command (bash(1), QUOTING), so it is no output.
            part = line
        else:
            yield from self._typed(lineno)  # no PS2: what follows is output
            return False
        typed.add(part)
        if not typed.waiting() or typed.lines >= MAX_TYPED_LINES or len(typed.text) > MAX_BODY_CHARS:
            yield from self._typed(lineno + 1)
        return True

    def _hold_heredoc(self, line: str, lineno: int):
        """A line after a here-document's opening line that shows no PS2: a log whose shell sets
        PS2 empty, or copied into a note without it. The shell reads the body to its delimiter
        line before it runs anything (bash(1), Here Documents), so up to that line nothing is
        output or a command, even a ``$ pip install`` of the README the heredoc writes: the lines
        are held until the delimiter shows, then are the body. A ``^C`` (the heredoc abandoned),
        the log's end, a prompt of the kind the command was typed at (but ``$ ``, as common in a
        README's text as at a prompt), or more than a command's lines without it, and they were
        what followed the command's first line after all: fed again as any line. True when the
        line was held."""
        held = self.held = self.held if self.held is not None else []
        prompt = _prompt(line) if self.typing_shape not in (None, _DOLLAR_PROMPT) else None
        if line.startswith("^C") or len(held) >= MAX_TYPED_LINES or self.held_chars > MAX_BODY_CHARS \
                or (prompt is not None and prompt.re is self.typing_shape):
            yield from self._release_held()
            return False
        held.append((line, lineno, self.timestamp))
        self.held_chars += len(line) + 1
        delimiter, tabs = self.typing.heredocs[0]
        if (line.lstrip("\t") if tabs else line).rstrip() != delimiter:
            return True
        self.held, self.held_chars = None, 0
        for text, _, _ in held:
            self.typing.add(text)
        typed = self.typing
        if not typed.waiting() or typed.lines >= MAX_TYPED_LINES or len(typed.text) > MAX_BODY_CHARS:
            yield from self._typed(lineno + 1)
        return True

    def _release_held(self) -> Iterator[Event]:
        """The held lines were no here-document body (:meth:`_hold_heredoc`): the command ended
        with its first line, and they are fed again as any line."""
        held, self.held, self.held_chars = self.held, None, 0
        yield from self._typed(held[0][1] if held else self.typing.line + 1)
        now = self.timestamp
        for text, number, stamp in held:
            self.timestamp = stamp
            yield from self.feed(text, number)
        self.timestamp = now

    def _quoting(self) -> bool:
        """A ``> `` line here is a Markdown block quote. Not in Aider's history, where it is tool
        output (:data:`_AIDER_RUNNING`), nor in a ``[msg N]`` transcript; in a terminal log only
        when no command's output is open (a ``> `` line of output, ``cat README.md``) or the log
        is Markdown (a fence or a heading was seen: the output ended with its block)."""
        return not self.aider and not self.numbered and (self.call_id is None or self.markdown)

    def _status_shown(self, m: re.Match) -> None:
        """The exit status of the command before, as the prompt after it shows (:data:`_STATUS`):
        once a prompt of the log has shown one, the same prompt without one says 0."""
        if m.re is not _USER_PROMPT:
            return
        status = m.group("status") or m.group("fish_own") or _fish_status(m.group("fish_status"))
        if status is None and self.status_style is None:
            return  # most logs: no prompt has shown a status
        style = _prompt_host(m) or ""
        if status is not None:
            self.status_style = style
        elif style != self.status_style:
            return
        if self.kind == "tool_result" and self.call_id is not None and self.exit_code is None:
            self.exit_code = int(status or 0)

    def _percent_output(self, m: re.Match, line: str) -> bool:
        """``m``, a zsh ``%m%#`` prompt (``gpu01% cmd``), is a line of the open command's output
        instead: ``df --output=pcent,target``'s ``Use% Mounted on``, a tool's ``progress% done``.
        A shell shows a new host in its prompt only after a command that opened a shell there
        (``ssh gpu02``, ``sudo -i``); so a ``word%`` line under a command that opened none, naming
        a host no prompt of the log has shown nor one of the same name but its digits, is what the
        command printed. Not ``node2% cmd`` after ``node1%`` ones: a note's block of the commands
        run on each node of a multi-node launch. Noted otherwise."""
        host = _prompt_host(m)
        if host is None:
            return False
        if m.re is _HOST_PROMPT and line[:m.start("command")].rstrip().endswith("%") \
                and self.kind == "tool_result" and self.call_id is not None \
                and self.logins.pending is None and host not in self.prompt_hosts \
                and host != self.logins.where(None) \
                and _SHELL_CHANGERS.isdisjoint(self.open_command.replace("/", " ").split()) \
                and _host_stem(host) not in {_host_stem(h) for h in self.prompt_hosts}:
            return True
        self.prompt_hosts.add(host)
        return False

    def _transcript_fence(self) -> bool:
        """The open block may hold commands that ran: a plain or notebook block of a note or an
        issue body. Not in Aider's history, where it is a proposal. In a ``[msg N]`` transcript,
        where a block in a reply is mostly an example ("you could run ``$ nvidia-smi``"), only a
        plain block that showed a prompted line's output (:meth:`_held_prompt`)."""
        if self.aider:
            return False
        if self.numbered:
            return self.fence in _PLAIN_LANGS and self.block_ran
        return self.fence in _PLAIN_LANGS or self.fence in _NOTEBOOK_LANGS

    def _held_prompt(self, line: str, lineno: int) -> Iterator[Event] | None:
        """A line of a plain block in a ``[msg N]`` reply before it showed output. A prompted line
        (``$ ssh ops@gpu02 "tail …"``, ``ops@gpu02:~$ …``) is held; the first output line after
        one makes the block a run pasted into the reply, as a ```console block is read (was no
        command, and the readings it printed no host's): the held lines are fed again as its
        commands. None when the line is none of these (read as before)."""
        if _prompt(line) is not None and not _MSG.match(line):
            self.held_prompts.append((line, lineno))
            return iter(())
        if _MSG.match(line):
            self._held_as_text()  # a block left open: the message ends with it
            return None
        if not self.held_prompts or not line.strip():
            return None
        return self._run_held(line, lineno)

    def _run_held(self, line: str, lineno: int) -> Iterator[Event]:
        self.block_ran = True
        held, self.held_prompts = self.held_prompts, []
        for prompted, at in held:
            yield from self.feed(prompted, at)
        yield from self.feed(line, lineno)

    def _actions_line(self, line: str, lineno: int):
        """A line of a GitHub Actions job log's marks (:mod:`formats.actions_log`): a ``run:``
        step's group gives its script as the command, the output follows it, and the failed
        step's ``##[error]Process completed with exit code N.`` its status. True when taken."""
        if line.startswith(actions_log.GROUP_RUN):
            yield from self.flush()
            self.step_script, self.step_line, self.step_shell = [], lineno, False
            return True
        if self.step_script is not None:
            if line.startswith(actions_log.END_GROUP):
                script, self.step_script = self.step_script, None
                if self.step_shell and script:
                    typed = TypedCommand(script[0], self.step_line, None)
                    for part in script[1:]:
                        typed.add(part)  # a backslash-newline joins, as bash reads the script
                    self._new_message()
                    yield from self._call(typed.text.strip(), self.step_line, None, lineno + 1)
                return True
            if lineno - self.step_line > MAX_TYPED_LINES:
                self.step_script = None  # no end of the group (a log cut short): what follows is output
                return False
            if line.startswith(actions_log.SHELL_LINE):
                self.step_shell = True
            elif not self.step_shell:
                self.step_script.append(line)
            return True  # the group's script, shell and env: no output
        if line.startswith(actions_log.END_GROUP) or line.startswith("##[group]"):
            return True
        code = actions_log.failed_step(line)
        if code is not None and self.kind == "tool_result" and self.call_id is not None:
            self.exit_code = code
            return True
        if line.startswith("##[") and self.kind is not None:
            self._append(actions_log.annotation_text(line), lineno)
            return True
        return False

    def _right_prompt(self, line: str, m: re.Match) -> str | None:
        """``line`` without the right prompt a screen capture shows after the command
        (:func:`right_prompt_at`), outside quotes; None where it shows none."""
        if self.numbered or self.markdown:
            return None
        at = right_prompt_at(line)
        if at is None or open_quote(line[m.start("command"):at] if at > m.start("command") else ""):
            return None
        return line[:at]

    def _theme_top_row(self, framed: bool = False) -> tuple[str | None, str | None, str | None] | None:
        """The first row of a two-row theme prompt whose second row is the bare ``❯`` the command
        is typed after (powerlevel10k's lean style, pure), taken out of the open output, whose
        last line it was read as; with what its right part shows (:meth:`_right_segments`): the
        status of the command before, set on its output, and ``(user, host)`` of the context.
        Such a row starts with the folder (``~/sglang main``) after the blank line the theme
        prints before each prompt (powerlevel10k's ``POWERLEVEL9K_PROMPT_ADD_NEWLINE``), or is
        the left segments of powerlevel10k's classic or rainbow style with nothing typed after
        them (:func:`_bare_powerline`; the wizard's ``❯`` on the row after: ``internal/wizard.zsh``,
        a two-row prompt without a left frame). ``framed``: the second row was the frame's
        ``╰─`` (:data:`_FRAMED_BOTTOM`), and the first starts ``╭─``. None where the last
        line is none. Returns ``(user, host, folder)``: the folder the row starts with (or shows
        after its context), where it is a whole path."""
        body = self.body
        if self.kind not in ("text", "tool_result") or not body or self.tail.lines or self.numbered \
                or self.markdown:
            return None
        row = body[-1]
        context = None  # (pure: the context before the folder, _LEFT_CONTEXT)
        if framed:
            if not row.startswith("╭─"):
                return None
        elif not _bare_powerline(row):
            after_blank = not body[-2].strip() if len(body) >= 2 else self.kind == "text"  # or the log's first line
            # the folder first, or after its icon (a Nerd Font glyph, U+F115, as p10k's dir segment shows it)
            folder = row[2:3] if row[1:2] == " " and row[:1] > "\x7f" else row[:1]
            context = _LEFT_CONTEXT.match(row) if folder not in ("~", "/") and "@" in row[:64] else None
            if (folder not in ("~", "/") and context is None) or not after_blank:
                return None
        body.pop()
        self.body_chars -= len(row) + 1
        at = right_prompt_at(row)
        if framed and at is None:
            at = 2  # a gap filled with "·" or "─" (the wizard's dotted or solid connection): the whole row
        found = (self._right_segments(row[at:]) if at is not None else None) or (None, None)
        user_host = (context.group("user"), context.group("host")) if context is not None and found == (None, None) \
            else found
        return (*user_host, None if framed else _top_row_folder(row, context))

    def _framed_prompt(self, line: str, lineno: int) -> Iterator[Event]:
        """A framed prompt's second row (:data:`_FRAMED_BOTTOM`) after its first (``╭─``,
        :meth:`_theme_top_row`): the command typed on it, on the host the first row's context
        shows. A capture shows the right prompt after the command (powerlevel10k's frame corner
        ``─╯``, bira's ``3 ↵``: the status of the command before, :data:`_RETURN_CODE`); a ``╰─``
        with nothing typed ends the output. False where the row before is no ``╭─`` row (a box's
        corner in the output: rich's panels draw them too)."""
        if not self.body or not self.body[-1].startswith("╭─"):
            return False
        at = right_prompt_at(line)
        right = line[at:].strip() if at is not None and not open_quote(line[:at]) else ""
        typed = line[:at] if right else line
        bottom = _FRAMED_BOTTOM.match(typed) if not typed.endswith("╯") else None  # (a box's last row)
        if bottom is None and typed.rstrip() not in ("╰─", "╰─❯"):
            return False
        top = self._theme_top_row(framed=True)
        if top is None:
            return False
        if (status := _RETURN_CODE.match(right.removesuffix("─╯").rstrip())) is not None \
                and self.kind == "tool_result" and self.call_id is not None and self.exit_code is None:
            self.exit_code = int(status.group("code"))
        if bottom is not None:
            yield from self._command(bottom.group("command").rstrip(), lineno, top[1], new_message=not self.numbered,
                                     user=top[0])
        return True

    def _right_segments(self, right: str) -> tuple[str | None, str | None] | None:
        """What powerlevel10k's right segments (:data:`_P10K_STATUS`) on a prompt's row show: the
        status of the command before, set on its open output, and ``(user, host)`` of its context
        segment; None where they show neither."""
        if "@" not in right and "\u2718" not in right and "↵" not in right:
            return None
        status = _P10K_STATUS.search(right) if "\u2718" in right else None
        code = _p10k_status(status.group("before") or status.group("after")) if status else None
        if code is None and "↵" in right and (returned := _RIGHT_RETURN_CODE.search(right)) is not None:
            code = int(returned.group(1))  # zsh's RPROMPT='%(?..%? ↵) %*': "2 ↵ 17:35:06"
        if code is not None and self.kind == "tool_result" and self.call_id is not None and self.exit_code is None:
            self.exit_code = code
        context = _P10K_CONTEXT.search(right)
        return (context.group("user"), context.group("host")) if context else None

    def _note_prompt_mark(self, m: re.Match) -> None:
        """Keep ``user@host`` of a Debian/Ubuntu or RHEL prompt (:attr:`prompt_mark`)."""
        if m.re is _USER_PROMPT and not self.numbered:
            user, host = m.group("user") or m.group("bracket_user"), m.group("host") or m.group("bracket_host")
            self.prompt_mark = f"{user}@{host}" if user and host else None

    def _glued_prompt(self, line: str) -> int | None:
        """Where a prompt like the last one (:attr:`prompt_mark`) starts in ``line`` after other
        text: the output before it ended with no newline. None where it does not (a ``scp
        root@gpu01:/x .`` in the output is no prompt: the whole prompt must follow)."""
        at = line.find(self.prompt_mark, 1)
        if at < 0:
            return None
        start = at - 1 if line[at - 1] == "[" else at  # RHEL's [root@gpu-3 ~]# opens with its bracket
        if start < 1 or line[start - 1] in _QUOTING_BEFORE:
            return None
        m = _prompt(line[start:])
        return start if m is not None and m.re is _USER_PROMPT else None

    def _traced(self, line: str) -> str | None:
        """The command a ``set -x`` trace line shows (:data:`_TRACE_LINE`), where the log's own
        commands are traced: a CI job's or a Slurm batch script's output, which shows no prompt.
        Under a command typed at a prompt (``bash -x launch.sh``) the trace is that command's
        output, and a trace of what was typed after ``set -x`` would count it twice; a Markdown
        note's ``+`` is a list item."""
        if self.numbered or self.aider or (self.markdown and self.traced_call is None):
            return None  # (a script's `echo "### Launch ###"` made a traced log Markdown)
        if self.kind == "tool_result" and self.call_id != self.traced_call:
            return None
        m = _TRACE_LINE.match(line)
        if m is None or (line.startswith("+++ ") and (" " not in m.group("command") or "\t" in line)):
            return None  # a diff's header, `+++ b/launch.sh`, `+++ x.py\t2025-10-01 ...` (diff -u)
        if open_compounds(m.group("command")):
            return None  # `+ for h in gpu01 gpu02`: a loop's head, traced alone before each turn
        return m.group("command")

    def _held_as_text(self) -> None:
        """The block ended with its prompted lines and no output: an example, kept as text."""
        held, self.held_prompts = self.held_prompts, []
        for line, lineno in held:
            self._append(line, lineno)

    def _fenced_command(self, line: str) -> tuple[str | None, str | None]:
        """The command a line of a plain or notebook block runs, and the host its prompt shows."""
        if self.fence in _NOTEBOOK_LANGS:
            if line.startswith("!") and len(line) > 1 and not line.startswith("!="):
                return line[1:], None
            return None, None
        m = _prompt(line)
        if m:
            return m.group("command"), _prompt_host(m)
        return (line, None) if not self.numbered and self._bare_command(line) else (None, None)

    def _bare_command(self, line: str) -> bool:
        """``line`` of a block is a command typed without its prompt: a program engineers run
        (:data:`_LAUNCHER`) on the block's first line, or one of its first lines before any
        output, unless the block is the output of the command just before it (a launch or a
        benchmark is always a command)."""
        if self.fence_output or not _LAUNCHER.match(line):
            return False
        output_due = self.kind == "tool_result" and self.call_id is not None and not "".join(self.body).strip("`\n\t ")
        if not output_due:
            return True
        # (a launch under `ps ... | grep launch_server` is the line it printed; under `cd ~/sglang`
        # or `export CUDA_VISIBLE_DEVICES=0`, which print nothing, the next command)
        return shell.categorize(line) in ("launch_server", "benchmark") and not _prints_command_lines(self.open_command)

    def _transcript_mark(self, line: str, lineno: int):
        """A PowerShell transcript's banner or one of its times; True when ``line`` was one."""
        stamp = None
        if powershell_marks.is_banner(line):
            self.transcript = True
        elif self.transcript and (machine := powershell_marks.machine(line)) is not None:
            self.logins.home = machine  # the header's Machine: line; the header is no output
            return True
        else:
            found = powershell_marks.time_line(line)
            if found is None:
                return False
            which, stamp = found
            if which != "End":
                self.clock = self.timestamp = stamp
        yield from self.flush()
        self._new_message()
        yield self._event("system", "system", lineno, raw_type="transcript", text=line.strip(),
                          timestamp=stamp or self.timestamp)
        return True

    def _script_mark(self, mark: typescript_marks.ScriptMark, line: str, lineno: int) -> Iterator[Event]:
        """``script(1)``'s opening or closing line: the session's start or end time, and with
        ``script -c CMD`` the command the typescript holds the output of and its exit status."""
        if not mark.started:
            self.left_with(mark.exit_code)
        yield from self.flush()
        self._new_message()
        yield self._event("system", "system", lineno, raw_type="script", text=line.strip(),
                          timestamp=mark.timestamp or self.timestamp)
        if mark.command is not None:
            yield from self._command(mark.command, lineno, None, new_message=True)
            self.script_call = self.call_id

    def _last_rows(self) -> list[str]:
        """The open body's last three lines that are not blank (script(1) ends the output with an
        empty one before its closing line)."""
        rows = self.tail.lines if self.tail.lines else self.body
        end = len(rows)
        while end and not rows[end - 1].strip():
            end -= 1
        return [rows[i] for i in range(max(0, end - 3), end)]

    def run_recorded(self, command: str) -> Iterator[Event]:
        """The command a recording ran (:class:`RecordedCommand`): its call opens the log, the
        lines are its output, its status is given at the end (:meth:`left_with`)."""
        yield from self._command(command, 1, None, new_message=True)
        self.script_call = self.call_id

    def left_with(self, code: int | None) -> None:
        """The status the recording says it ended with (script(1)'s closing line, an asciicast's
        exit event): the recorded command's, where its output is still the one open; else the
        shell's. bash reads Ctrl-D at its prompt as `exit` with no n, whose status "is that of
        the last command executed" (bash(1), SHELL BUILTIN COMMANDS, exit): where the output
        open ends with that (:func:`_left_at_eof`) in the shell the recording started, the
        status is that of the command whose output it is. zsh leaves on Ctrl-D the same way,
        "use the exit status from the last command executed. An EOF condition will also cause
        the shell to exit" (zshbuiltins(1), exit), with no word: its prompt, nothing typed,
        ends the output. There only a status from 1 to 127 is read so: fish leaves the same way
        with 0 whatever ran last (fish 3.6.0 under util-linux script 2.38.1, after a command
        that exited 3), and one over 127 is a signal's that ended the shell."""
        if code is None or self.kind != "tool_result" or self.call_id is None:
            return
        if self.call_id == self.script_call:
            self.exit_code = code
        elif self.script_call is None and self.exit_code is None and not self.logins.stack \
                and 0 < code < 128 and self.open_command.strip() in ("exit", "logout"):
            # `exit` typed with no n at the last prompt: the status is the last command's, as at
            # Ctrl-D; the analysis gives it back to the command before the `exit` (was: no status)
            self.exit_code = code
            self.left_by_exit = True
        elif self.script_call is None and self.exit_code is None and not self.logins.stack \
                and ((rows := self._last_rows()) and _left_at_eof(rows)
                     or 0 < code < 128 and rows and rows[-1].rstrip()[-1:] in ("$", "#", "%", ">")
                     and _prompt(rows[-1].rstrip() + " x") is not None):
            self.exit_code = code

    def status_marked(self, code: int) -> None:
        """The shell marked the open command finished with status ``code`` (:data:`_COMMAND_FINISHED`):
        its exit status, as the shell knew it. Not an ``exit``'s or ``logout``'s: the mark after it
        is the outer shell's, for the command that opened the shell left (ssh's status is the remote
        shell's, that of the last command it ran)."""
        if self.kind == "tool_result" and self.call_id is not None and self.exit_code is None \
                and self.open_command.split(None, 1)[:1] not in (["exit"], ["logout"]):
            self.exit_code = code

    # -- one line -----------------------------------------------------------
    def feed_pasted(self, text: str, lineno: int) -> Iterator[Event]:
        """A prompt's row and the other lines pasted with it (:func:`_pasted_rows`): one command
        of several lines, as bash reads them (bash(1), Lists: newlines separate commands as ``;``
        does), its output what follows. Where the row reads as no command typed, each line is
        read as it would be alone."""
        first, *rest = text.split("\n")
        before = self.typing
        self.pasting = True
        try:
            yield from self.feed(first, lineno)
        finally:
            self.pasting = False
        typed = self.typing
        if typed is None or typed is before:
            for line in rest:
                yield from self.feed(line, lineno)
            return
        for part in rest:
            typed.add(part)
        self.flags_follow = False
        if not typed.waiting():
            yield from self._typed(lineno + 1)

    def feed(self, line: str, lineno: int) -> Iterator[Event]:
        if self.top is not None:
            top, text, top_line, top_time = self.top
            self.top = None
            if top.re is _STARSHIP_TOP:
                bottom = _STARSHIP_BOTTOM.match(line) if line[:1] == "❯" else None
                if bottom is not None:
                    folder = top.group("dir")
                    yield from self._command(bottom.group("command"), lineno, top.group("host"),
                                             new_message=not self.numbered, user=top.group("user"),
                                             cwd=folder if folder[0] in "~/" else None)
                    return
            else:
                bottom = _TWO_LINE_BOTTOM.match(line) if line[:1] == "└" else None
            if bottom is not None:
                kali = top.group("host") is not None
                folder = top.group("dir") if kali else top.group("p_dir")
                yield from self._command(bottom.group("command"), lineno, top.group("host" if kali else "p_host"),
                                         new_message=not self.numbered, user=top.group("user" if kali else "p_user"),
                                         cwd=folder if folder and "…" not in folder and folder[0] in "~/" else None)
                return
            self.released, now = top_line, self.timestamp  # no prompt after all: the line as any other
            self.timestamp = top_time
            yield from self.feed(text, top_line)
            self.timestamp = now
        if line[:1] == "┌" and self.fence is None and self.typing is None and lineno != self.released \
                and (top := _TWO_LINE_TOP.match(line)):
            self.top = (top, line, lineno, self.timestamp)
            return
        if "🌐" in line and self.fence is None and self.typing is None and lineno != self.released \
                and (top := _STARSHIP_TOP.match(line)):
            self.top = (top, line, lineno, self.timestamp)
            return
        if line[:1] == "└" and self.fence is None and self.typing is None and (bottom := _TWO_LINE_BOTTOM.match(line)):
            # the second line alone (a log cut after the first): the command, where unknown
            yield from self._command(bottom.group("command"), lineno, None, new_message=not self.numbered)
            return
        if self.kind == "quote" and line[:1] != ">":
            yield from self.flush()  # the quote ends
        if self.typing is not None:
            part_of_command = yield from self._continue(line, lineno)
            if part_of_command:
                return
        if self.showing is not None:
            if self.kind == "tool_result" and self.call_id is not None and self._shown_file_line(line):
                self._append(line, lineno)
                return
            self.showing = None
        if self.aider_prompt and line.strip() and not line.startswith("#### "):
            yield from self.flush()  # the reply begins: it was read as the prompt's last lines
        if self.msg_showing and self.kind == "tool_result" \
                and not ("[" in line[:8] and (_MSG.match(line) or _TOOL_MARK.match(line))):
            # a README's ```console example in the tool message of `[bash] cat README.md`: the
            # file's text (was a command that ran, and the file's output cut there)
            self._append(line, lineno)
            return
        if self.fence is not None and self.numbered and line[:1] == "[" and (msg := _MSG.match(line)):
            self._held_as_text()
            if int(msg.group(1)) != self.msg_last + 1:
                # "[msg 1] user: ..." or "[msg 40] ..." in a block of message 3: a transcript the
                # message quotes (a colleague's session pasted in), its lines the block's text, its
                # prompted run a pasted run's; no message of this one (was one, numbered from there)
                self._append(line, lineno)
                return
            # the next message: a block its message left open (unclosed, or the export cut it)
            # ends with it (was open on, so the next "```" closed it and the one after opened a
            # block that swallowed the messages after it, their commands and output)
            self.fence = None
        fence = _FENCE.match(line)
        if fence:
            if self.fence is None and not self.numbered and not self.aider:
                text = line.strip()[3:]
                if text.endswith("```") and text.strip("`").strip():
                    # ```cmd```, a one-line block (GitHub shows it as code): the command of an
                    # issue body's "Reproduction" (sgl-project/sglang issue #13352)
                    for part in ("```", text[:-3].strip(), "```"):
                        yield from self.feed(part, lineno)
                    return
                if (text[:1] in " \t" and " " in text.strip()) or text.startswith("$ "):
                    # ```  File "...", line 88: the block's first line written after the fence
                    # (an info string, ```python title="x.py", starts at the backticks)
                    for part in ("```", text.strip()):
                        yield from self.feed(part, lineno)
                    return
            if self.fence is not None and len(fence.group("ticks")) < self.fence_ticks:
                # ```bash inside a ````markdown block: an example of a block, the outer block's
                # text (CommonMark, "Fenced code blocks": the closing fence is at least as long
                # as the opening one); was its end, the example's commands read as run
                self._append(line, lineno)
                return
            if self.fence is None:
                self.fence = fence.group("lang").lower() or "text"
                self.fence_ticks = len(fence.group("ticks"))
                self.markdown = True
                self.fence_output = False
                self.block_ran = False
                if self.aider:
                    self.fence = "text"  # a command the reply proposes: run only when "> Running" says so
                if self.fence in _SHELL_LANGS:
                    return
                if self.kind is None and not self.numbered and not self.aider:
                    # A block no note is open for is a note of its own, not more of the heading's
                    # message; its seq is taken as it is emitted (flush), so a block that only
                    # shows a run leaves neither a "```" note nor a seq behind.
                    self.role, self.role_given = "assistant", False
                    self.unsequenced = True
            else:
                # The block's end after a command that ran in it (a shell block's, or a plain
                # one's: _transcript_fence) is no line of that command's output: kept, its
                # "```" was the output's last line, so an `echo $?` read "1\n```" (no status)
                ran = self.fence in _SHELL_LANGS or (
                    self._transcript_fence() and self.kind == "tool_result" and self.call_id is not None)
                self._held_as_text()
                self.block_ran = False
                self.fence = None
                if ran:
                    if self.kind == "tool_result" and self.call_id is not None \
                            and "".join(self.body).strip("`\n\t "):
                        # The output the block showed ends with it: the prose after is the note's
                        # ("the paper reports accept length: 3.1"), no line the command printed.
                        # A block of commands alone keeps its call open for an output block after.
                        self.logins.settle(self.body)
                        yield from self.flush()
                    return
            self._append(line, lineno)
            return
        if self.fence in _SHELL_LANGS:
            m = _prompt(line)
            if m and self._percent_output(m, line):
                m = None
            if m:
                self.fence_output = False
                self._status_shown(m)
                yield from self._command(m.group("command"), lineno, _prompt_host(m), new_message=not self.numbered,
                                         cwd=_prompt_dir(m), user=_prompt_user(m))
            elif self.fence in ("bash", "sh", "zsh") and line.strip() and not line.lstrip().startswith("#") \
                    and self.kind != "tool_result":
                yield from self._command(line, lineno, None, new_message=not self.numbered, flags_may_follow=True)
            elif not self.numbered and not self.aider and self._bare_command(line):
                # ```shell / ```console in an issue body: the launch command without a prompt,
                # then its log (sgl-project/sglang issue reports)
                self.fence_output = False
                yield from self._command(line, lineno, None, new_message=True, flags_may_follow=True)
            elif self.fence in ("bash", "sh", "zsh") and not self.fence_output and line.lstrip()[:1] == "#":
                # A comment of a script block (bash(1), COMMENTS), before or between its commands:
                # no output, so a launch or a benchmark after it is still a command
                if self.kind == "tool_result" and not "".join(self.body).strip("`\n\t "):
                    return
                self._append(line, lineno)
            else:
                self.fence_output = self.fence_output or bool(line.strip())
                self._append(line, lineno)
            return
        if self.numbered and self.fence in _PLAIN_LANGS and not self.aider and not self.block_ran \
                and (held := self._held_prompt(line, lineno)) is not None:
            yield from held
            return
        if self.fence is not None and self._transcript_fence():
            if line.endswith("```") and self.fence in _PLAIN_LANGS:  # text```: the block ends after the text
                for part in (line[:-3], "```"):
                    yield from self.feed(part, lineno)
                return
            command, host = self._fenced_command(line)
            if command is not None:
                self.fence_output = False
                m = _prompt(line)
                yield from self._command(command, lineno, host, new_message=not self.numbered,
                                         flags_may_follow=self.fence in _PLAIN_LANGS and m is None,
                                         cwd=_prompt_dir(m) if m else None, user=_prompt_user(m) if m else None)
            else:
                self.fence_output = self.fence_output or bool(line.strip())
                self._append(line, lineno)
            return
        m = _MSG.match(line)
        if m:
            yield from self.flush()
            self.numbered = True
            n = int(m.group(1))
            if n < self.msg_last:
                # The numbers start again: a second transcript pasted after the first. Its
                # messages come after the first's (seq unique and in reading order), not among them.
                self.msg_shift = self.seq_next - self.cursor.seq_base - n
            self.msg_last = n
            self._new_message(n + self.msg_shift + self.cursor.seq_base)
            role = (m.group(2) or "").lower()
            self.role_given = bool(role)
            self.role = _ROLE.get(role, role) or "assistant"
            kind = {"user": "prompt", "tool": "tool_result", "system": "system"}.get(self.role, "text")
            if kind != "tool_result":
                self.msg_showing = False
            rest = m.group(3)
            tool = _TOOL_MARK.match(rest)
            if tool:
                yield from self._command(tool.group(1), lineno, None, new_message=False)
                return
            prompted = _prompt(rest) if kind == "tool_result" and not self.msg_showing else None
            if prompted:
                # "[msg 2] tool: $ ssh gpu01 nvidia-smi", its output on the lines below: the command
                # the tool ran, as on a line of its own (was the output's first line, and no command)
                self._status_shown(prompted)
                yield from self._command(prompted.group("command"), lineno, _prompt_host(prompted), new_message=False)
                return
            inline = _INLINE_TOOL.search(rest)
            if inline:  # "... to get the forward pass right: [bash] ssh ..." (INCIDENT.md style)
                self._open(kind, lineno, rest[:inline.start()])
                yield from self._command(rest[inline.end():], lineno, None, new_message=False)
            else:
                self._open(kind, lineno, rest)
            return
        if self.fence is None and not self.numbered and (line[:3] == "##[" or self.step_script is not None):
            handled = yield from self._actions_line(line, lineno)
            if handled:
                return
        if self.fence is None and not self.numbered and (self.transcript or line.lstrip("\ufeff").startswith(
                ("Windows PowerShell transcript", "PowerShell transcript"))):
            if (yield from self._transcript_mark(line, lineno)):
                return
        if self.fence is None:
            if line[:1] == ">" and line[1:2] in _QUOTE_NEXT and self._quoting():
                # A Markdown block quote (an issue comment quoting an earlier message, its
                # traceback or launch command): someone else's words, not a command or output
                if self.kind != "quote":
                    yield from self.flush()
                    self._new_message()
                    self._open("quote", lineno)
                self._append(line, lineno)
                return
            if line[:1] == "\u276f" and not line[1:].strip() and self.kind == "tool_result" \
                    and self._theme_top_row() is not None:
                return  # the theme's prompt with nothing typed (a capture's last row): the output ends
            if line[:2] == "╰─" and self.typing is None:
                handled = yield from self._framed_prompt(line, lineno)
                if handled:
                    return
            m = _TOOL_MARK.match(line) or _prompt(line)
            if m and self._percent_output(m, line):
                m = None
            if m and m.re is not _TOOL_MARK and (drawn := self._right_prompt(line, m)) is not None:
                self.right_context = self._right_segments(line[len(drawn):])
                yield from self.feed(drawn, lineno)  # the line as typed, without the right prompt
                self.right_context = None
                return
            if m:
                self._status_shown(m)
                if m.re is _THEME_PROMPT and lineno in self.failed_prompts and self.kind == "tool_result" \
                        and self.call_id is not None and self.exit_code is None:
                    self.failed_shown = True  # (the success colour sets no status, as powerlevel10k's "✔" sets none)
                self.prompt_shape = m.re
                self._note_prompt_mark(m)
                host, user = _prompt_host(m), _prompt_user(m)
                cwd = _prompt_dir(m)
                if line[:1] == "\u276f" and m.re is _THEME_PROMPT and (top := self._theme_top_row()) is not None:
                    user, host, cwd = top[0] or user, top[1] or host, top[2] or cwd
                if self.right_context is not None:
                    if host is None:
                        user, host = self.right_context[0] or user, self.right_context[1]
                    self.right_context = None
                yield from self._command(m.group(m.lastindex), lineno, host, new_message=not self.numbered,
                                         cwd=cwd, user=user)
                return
            if self.prompt_mark is not None and self.kind == "tool_result" and self.call_id is not None \
                    and (at := self._glued_prompt(line)) is not None:
                # output with no final newline, the next prompt after it on the same line (a
                # terminal copied or captured: `curl -s .../health` prints its JSON so)
                self._append(line[:at], lineno)
                yield from self.feed(line[at:], lineno)
                return
            if line[:1] == "+" and (traced := self._traced(line)) is not None:
                self.tracing = self.unprompted = True  # an open quote goes on over the next lines
                yield from self._command(traced, lineno, None, new_message=True)
                return
            if line.startswith("#### "):  # Aider user line
                if self.aider_prompt and lineno == self.aider_line + 1:  # the next line of one input
                    self._append(line[5:].rstrip(), lineno)
                    self.aider_line = lineno
                    return
                if self.aider and self.aider_prompt and self.kind == "prompt" and self.body \
                        and self.body[0][:1] == "/" and _aider_resent(self.body[0]) == line[5:].rstrip():
                    # `/ask X`'s X, written again as the input of the coder it started: one prompt, X
                    self._open("prompt", self.body_line, line[5:].rstrip())
                    self.aider_line = lineno
                    return
                run = _AIDER_RUN.match(line[5:].rstrip()) if self.aider else None
                if run:  # the user ran a shell command; Aider keeps no output of it in the history
                    yield from self._command(run.group("command"), lineno, None, new_message=True)
                    return
                yield from self.flush()
                self._new_message()
                self.role, self.role_given = "user", True
                self._open("prompt", lineno, line[5:].rstrip())
                self.aider_prompt, self.aider_line = True, lineno
                return
            if line.startswith("Script ") and not self.numbered:
                mark = typescript_marks.parse(line)
                if mark is not None:
                    yield from self._script_mark(mark, line, lineno)
                    return
            if self.aider and line.startswith(_AIDER_RUNNING):
                yield from self._command(line[len(_AIDER_RUNNING):], lineno, None, new_message=True)
                return
            if line[:2] == "# " and (line[2:3].islower() or line[2:3] in "./~") and not self.markdown \
                    and not self.numbered and not self.aider and not _remark(line[2:]) \
                    and self.logins.in_opened_shell(self.body if self.kind == "tool_result" else []):
                # A root shell's bare prompt (dash's default PS1 "# " as root: dash(1), PS1; the `sh`
                # of many images, `docker exec -it c sh`), in a shell the log opened and before any
                # Markdown: a command, run in that shell, no heading (its commands, and the `exit`
                # back to the outer prompt, were lost, and later commands stayed in the container)
                yield from self._command(line[2:], lineno, None, new_message=True, bare_root=True)
                return
            heading = _HEADING.match(line)
            if heading and not self.numbered:
                # a writer's remark between a terminal's commands (`# now on gpu07, checking the
                # server`) says nothing of Markdown: a root shell's bare `# cmd` later in the log is
                # still a command (was read as a heading, its `exit` lost with it)
                self.markdown = self.markdown or not (self.calls and line[2:3].islower() and _remark(line[2:]))
                # the output the heading ends says whether a shell opened (`docker exec -it nope sh`:
                # "Error response from daemon"), as a prompt after it would (_command)
                self.logins.settle(self.body if self.kind == "tool_result" else [])
                yield from self.flush()
                self._new_message()
                started = _AIDER_STARTED.match(line)
                if started:
                    self.aider = True
                yield self._event("system", "system", lineno, raw_type="heading", text=heading.group(2).strip(),
                                  timestamp=f"{started.group(1)}T{started.group(2)}" if started else self.timestamp)
                return
            if line.startswith("> ") and self.kind != "tool_result" and not self.numbered:
                yield from self.flush()
                self._new_message()
                self._open("tool_result", lineno, line[2:])
                return
            if self.kind == "tool_result" and not self.numbered and not self.role_given and self.call_id is None \
                    and not line.startswith(">"):
                yield from self.flush()
            if self.kind != "tool_result" and not self.numbered and not self.aider \
                    and ("sglang" in line or "vllm" in line) and _LAUNCHER.match(line.lstrip()) \
                    and not line.rstrip().endswith(":") and shell.categorize(line) in ("launch_server", "benchmark"):
                # The launch command pasted as a line of prose ("run command :\nCUDA_VISIBLE_DEVICES=0,1
                # python3 -m sglang.launch_server ...", sgl-project/sglang issues #3362, #5448), its
                # flags continued on the next lines after a backslash or, indented, without one
                # (vllm-project/vllm issue #26328); not a line of output, nor the line that
                # introduces it ("vllm serve command:")
                self.unprompted = True
                self.markdown = True
                yield from self._command(line, lineno, None, new_message=True, flags_may_follow=True)
                return
        if self.kind is None:
            if not line.strip():
                return
            if not self.numbered:
                self._new_message()
                self.role, self.role_given = "assistant", False
            self._open("text" if self.role != "user" or not self.numbered else "prompt", lineno, line)
            return
        self._append(line[2:] if line.startswith("> ") and self.kind == "tool_result" and self.call_id is None else line, lineno)

    def _append(self, line: str, lineno: int) -> None:
        if self.kind is None:
            self._open("text", lineno, line)
            return
        if self.body_chars < MAX_BODY_CHARS:
            self.body.append(line)
            self.body_chars += len(line) + 1
            return
        # Past the cap the last lines are kept, no more: the traceback that ends a 2 MB launch log
        # (the JSON formats keep a whole output; here it was cut after its first MB, and lost)
        self.tail.add(line)

    def _body_text(self) -> str:
        """The body's text: its first lines, and past the cap its last ones (:meth:`_append`)."""
        return "\n".join(self.tail.after(self.body)).strip("\n")
