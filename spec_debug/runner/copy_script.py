"""A file copied by a shell command: the SSH transport's copies where sshd has no SFTP, and every
local fetch (in a child process, so a file on a hung mount never blocks the controller itself).

POSIX sh, run as `sh -c GET_SCRIPT sh PATH [LIMIT]`, the file's bytes on stdout. A missing,
unreadable or folder source is reported by an exit code of its own (refusal() turns each into
the OSError subclass an SFTP copy raises). With a byte limit, a regular file's size is read
first (GNU and BusyBox stat; wc -c elsewhere, which coreutils answers from fstat without
reading) and a larger one is refused with its size on stderr; a file that is longer all the
same is read one byte past the limit, so the caller can tell it was cut (fetch_limit).
"""

from __future__ import annotations

import errno
import os

from spec_debug.runner.fetch_limit import check_size

GET_SCRIPT = (
    '[ -d "$1" ] && exit 21; [ -e "$1" ] || exit 2; [ -r "$1" ] || exit 13; [ -z "$2" ] && exec cat -- "$1"; '
    'if [ -f "$1" ]; then s=$(stat -L -c %s -- "$1" 2>/dev/null || wc -c < "$1"); s=${s##* }; '
    '[ "$s" -gt "$2" ] 2>/dev/null && { echo "$s" >&2; exit 27; }; fi; exec head -c "$(($2 + 1))" -- "$1"'
)

_TOO_LARGE = 27  # EFBIG, "File too large"
_REFUSALS: dict[int, type[OSError]] = {
    errno.ENOENT: FileNotFoundError, errno.EACCES: PermissionError, errno.EISDIR: IsADirectoryError,
}


def refusal(code: int, said: str, where: str, max_bytes: int | None) -> None:
    """Raise what GET_SCRIPT's exit code stands for (nothing for 0 or a code of its own):
    FetchTooLarge for a file over max_bytes, else FileNotFoundError and the like, worded as
    `where: No such file or directory`."""
    if code == _TOO_LARGE and max_bytes is not None and said.isdigit():
        check_size(int(said), max_bytes)
    if code in _REFUSALS:
        raise _REFUSALS[code](code, f"{where}: {os.strerror(code)}")
