"""The PATH our own helper commands on a host look in: the login's PATH, then the POSIX places.

A login whose rc file clobbers PATH (`export PATH=/opt/miniconda3/bin` instead of
`...:$PATH`, in ~/.bashrc, $BASH_ENV, ~/.zshenv or ~/.ssh/environment) finds none of `cat`,
`sleep`, `stat`, `mv` by name, while `ssh HOST /bin/echo hi` still works there. Appended, not
`command -p` or /bin/cat: a host where the standard tools live elsewhere (NixOS keeps only
/bin/sh and /usr/bin/env there) finds them through its own PATH first, and the login's own
choice of a tool still wins. Set only inside our helper scripts or a `$(...)` subshell: the
step itself keeps the PATH its login gave it, as `ssh HOST CMD` does.
"""

from __future__ import annotations

WITH_STANDARD_PATH = 'PATH="${PATH:+$PATH:}/usr/bin:/bin"; '
"""Prefix for a POSIX sh script (or subshell) that runs standard tools by name."""
