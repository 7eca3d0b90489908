"""Writing a whole document (a report, a postmortem, JSON) to standard output.

A document's encoding is UTF-8 whatever the terminal's: the HTML says charset=utf-8, and
`spec-debug report RUN > report.md` under an ASCII or latin-1 locale must give the file its
"·", "→" and the hosts' own text, not the \\u escapes the CLI's console streams fall back to
(cli.main sets them to escape what they cannot encode, for tables and messages).
"""

from __future__ import annotations

import codecs
import sys


def write_document(text: str) -> None:
    """``text`` on stdout: as it is on a UTF-8 stream, else as UTF-8 bytes."""
    stream = sys.stdout
    encoding = getattr(stream, "encoding", None) or "utf-8"
    buffer = getattr(stream, "buffer", None)
    try:
        utf8 = codecs.lookup(encoding).name == "utf-8"
    except LookupError:
        utf8 = False
    if utf8 or buffer is None:
        stream.write(text)
        return
    stream.flush()
    # "replace": a lone surrogate (a hand-edited record's "\udce8") cannot be UTF-8
    buffer.write(text.encode("utf-8", "replace"))
    buffer.flush()
