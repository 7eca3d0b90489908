"""A file copied by a shell command: the SSH transport's copies where sshd has no SFTP, and every
local fetch (in a child process, so a file on a hung mount never blocks the controller itself).

POSIX sh, run as `sh -c GET_SCRIPT sh PATH [LIMIT]`, the file's bytes on stdout. A missing,
unreadable or folder source is reported by an exit code of its own (refusal() turns each into
the OSError subclass an SFTP copy raises). With a byte limit, a regular file's size is read
first (GNU and BusyBox stat; wc -c elsewhere, which coreutils answers from fstat without
reading) and a larger one is refused with its size on stderr. The bytes then come from `cat`,
limit or not: the caller reads one byte past the limit and stops there (fetch_limit.copy_capped,
ssh_sftp._ShellCopies), so a file longer than its size said is cut all the same.

Not `head -c LIMIT+1`, as it was: GNU head writes through stdio (coreutils: src/head.c,
xwrite_stdout calls fwrite), which holds up to a pipe buffer's 4 KiB until the next read or
exit. A copy given up at the step's deadline while the file had stopped coming (a log on a FUSE
or NFS mount that hangs, a FIFO written line by line) lost those last bytes, the last lines
before the hang; a file that trickles a line at a time lost all of them. `cat` writes each read
at once (coreutils: src/cat.c, simple_cat; BusyBox: bb_copyfd_eof).
"""

from __future__ import annotations

import errno
import os

from spec_debug.runner.fetch_limit import check_size

# A file named `-` (`python bench.py > -` meant for stdout, a `wget -O -` in a script run with
# the wrong quoting) is standard input to cat and GNU stat even after `--` (POSIX cat: "If a file
# is '-', the cat utility shall read from the standard input"): the copy read the child's empty
# stdin and kept an empty artifact, and the step passed. `./-` names the file.
# A FIFO is said on stderr before cat opens it (FIFO_MARK): with no process writing, cat waits in
# open() for a writer, and the stall limit blamed a hung file system ("a dead NFS server?").
FIFO_MARK = "spec-debug: the source is a FIFO"
GET_SCRIPT = (
    '[ "$1" = - ] && set -- ./- "$2"; '
    '[ -d "$1" ] && exit 21; [ -e "$1" ] || exit 2; [ -r "$1" ] || exit 13; '
    f'[ -p "$1" ] && echo "{FIFO_MARK}" >&2; '
    'if [ -n "$2" ] && [ -f "$1" ]; then s=$(stat -L -c %s -- "$1" 2>/dev/null || wc -c < "$1"); s=${s##* }; '
    '[ "$s" -gt "$2" ] 2>/dev/null && { echo "$s" >&2; exit 27; }; fi; exec cat -- "$1"'
)

_TOO_LARGE = 27  # EFBIG, "File too large"
_REFUSALS: dict[int, type[OSError]] = {
    errno.ENOENT: FileNotFoundError, errno.EACCES: PermissionError, errno.EISDIR: IsADirectoryError,
}


def fifo_stalled(stall_s: float) -> str:
    """The stall of a copy whose GET_SCRIPT said FIFO_MARK."""
    return (f"no data read from it for {stall_s:g} s: it is a FIFO (named pipe) and no process wrote to it "
            "(a reader waits until a writer opens it); the copy was given up")


def said_lines(stderr: bytes) -> list[str]:
    """A copy's stderr as lines, less the FIFO mark, which is no error."""
    return [line for line in stderr.decode("utf-8", "replace").strip().splitlines() if line.strip() != FIFO_MARK]


def refusal(code: int, said: str, where: str, max_bytes: int | None) -> None:
    """Raise what GET_SCRIPT's exit code stands for (nothing for 0 or a code of its own):
    FetchTooLarge for a file over max_bytes, else FileNotFoundError and the like, worded as
    `where: No such file or directory`."""
    if code == _TOO_LARGE and max_bytes is not None and said.isdigit():
        check_size(int(said), max_bytes)
    if code in _REFUSALS:
        raise _REFUSALS[code](code, f"{where}: {os.strerror(code)}")
