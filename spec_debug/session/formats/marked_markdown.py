"""What the readers of Markdown transcripts with marked turns share: OpenCode's export
(:mod:`formats.opencode_export`), Cline's and Roo Code's export (:mod:`formats.cline_export`) and
SpecStory's history (:mod:`formats.specstory`). Each reads the file's decoded lines once, a turn a
record: a turn line starts the next record (its blocks numbered from 0), the lines before the first
turn are the file's head, and a block's text is kept up to a bound (an endless paste or tool output
costs bounded memory). What a turn line and a block look like is each reader's own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from spec_debug.session.events import Event, ReadStats
from spec_debug.session.formats import text_log
from spec_debug.session.formats.common import Cursor

MAX_CHARS = 1 << 20
"""A block's text is kept up to this many characters, and then its last lines
(:data:`text_log.TAIL_CHARS`): a long tool output ends with the traceback that ended it."""


class TurnReader:
    """A reader's state: the cursor, the turn being read (its record's seq, the next block, its
    role, agent and time) and the block's lines gathered so far."""

    def __init__(self, cursor: Cursor) -> None:
        self.cursor = cursor
        self.seq = cursor.seq_base - 1
        self.block = 0
        self.role = ""
        self.agent = cursor.agent
        self.timestamp: str | None = None
        self.lines: list[str] = []
        self.chars = 0
        self.tail = text_log.Tail()
        self.first_line = 0

    @classmethod
    def read_file(cls, path: Path, cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
        return cls(cursor).read(text_log.decoded_lines(path, stats))

    def read(self, lines: Iterator[tuple[int, str, str | None]]) -> Iterator[Event]:
        raise NotImplementedError

    def next_turn(self, role: str) -> None:
        self.seq += 1
        self.block = 0
        self.role = role

    def keep(self, line: str) -> None:
        """The line, while the block is under :data:`MAX_CHARS`; past it the last lines are kept."""
        if self.chars < MAX_CHARS:
            self.lines.append(line)
            self.chars += len(line) + 1
            return
        self.tail.add(line)

    def take(self) -> list[str]:
        """The block's lines (past :data:`MAX_CHARS` its first and last ones), the block emptied."""
        lines, self.lines, self.chars = self.lines, [], 0
        return self.tail.after(lines)

    def event(self, kind: str, role: str, line: int, **kw) -> Event:
        ev = Event(session=self.cursor.session, seq=self.seq, agent=self.agent, role=role, kind=kind,
                   block=self.block, timestamp=self.timestamp, file=self.cursor.file, line=line, **kw)
        self.block += 1
        return ev

    def count_records(self) -> None:
        """At the end: the file's records are its turns."""
        self.cursor.records = self.seq - self.cursor.seq_base + 1
