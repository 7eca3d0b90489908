"""Phases of a session, each with a title: the trunk is cut at each prompt someone typed, at
each change of approach (pivot), at a context compaction and at Markdown headings; a phase
that runs long is cut where the kind of command changes. Each sub-agent is one phase."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from spec_debug.session.cut_text import cut_at_word
from spec_debug.session.events import MAIN_AGENT, Event
from spec_debug.session.formats.common import only_attachments
from spec_debug.session.records import SegmentRecord
from spec_debug.session.shell import CATEGORY_TITLES

SEGMENT_SPLIT_EVENTS = 400
"""A phase longer than this is split at the next change of the kind of command."""
MAX_SEGMENTS = 2000
COMPACTION_TITLE = "After context compaction"
VERSION_CHECK_TITLE = "Checking installed versions"
"""How a look at an installed version is titled (a pivot to one, a phase of nothing else)."""
"""How the phase a context compaction starts is titled (the postmortem finds compactions by it)."""
_SUPPORTING = frozenset({"edit", "transfer", "other"})
"""Kinds of command that serve the others; they name a phase only when nothing else ran."""


@dataclass
class _Segment:
    start_seq: int
    reason: str
    """start | prompt | pivot | compaction | heading | split | agent"""
    label: str = ""
    end_seq: int = 0
    events: int = 0
    commands: int = 0
    errors: int = 0
    categories: Counter = field(default_factory=Counter)
    kind_hosts: Counter = field(default_factory=Counter)
    """(kind of command, host or None where it ran here) -> tool calls: a title's host is that
    of the commands of the kind it names."""
    checks: Counter = field(default_factory=Counter)
    """kind of command ("python", "other") -> those of its calls that were a look at an installed
    version (`python -c "import sglang; print(sglang.__version__)"`, `pip show sglang`)."""
    kind: str | None = None
    """A pivot's kind of command: what its title names."""
    timestamp: str | None = None


class PhaseTracker:
    def __init__(self, session: str, describe_agent: Callable[[str], str]) -> None:
        self.session = session
        self.describe_agent = describe_agent
        self.current: _Segment | None = None
        self.closed: list[SegmentRecord] = []
        self.agents: dict[str, _Segment] = {}
        self.dropped = 0

    def segment_for(self, ev: Event, category: str | None = None, stretch: bool = True) -> _Segment:
        """The phase ``ev`` belongs to (a tool call passes its kind of command); ``stretch=False``
        for an event read in another agent's file, which counts in the phase but is no line of it."""
        if ev.agent != MAIN_AGENT:
            seg = self.agents.get(ev.agent)
            if seg is None:
                description = self.describe_agent(ev.agent)
                label = f"Sub-agent {ev.agent}" + (f": {description}" if description else "")
                seg = self.agents[ev.agent] = _Segment(ev.seq, "agent", label, end_seq=ev.seq, timestamp=ev.timestamp)
            if stretch and ev.seq > seg.end_seq:
                seg.end_seq = ev.seq
            return seg
        seg = self.current
        if seg is None:
            seg = self.current = _Segment(ev.seq, "start", timestamp=ev.timestamp)
        elif category is not None and seg.events >= SEGMENT_SPLIT_EVENTS and seg.categories and \
                category != seg.categories.most_common(1)[0][0]:
            self.boundary(ev.seq, "split", "", ts=ev.timestamp)
            seg = self.current
        if stretch and ev.seq > seg.end_seq:  # max() without the call: this runs for every event
            seg.end_seq = ev.seq
        return seg

    def boundary(self, seq: int, reason: str, label: str, pivot_from: int | None = None,
                 ts: str | None = None, kind: str | None = None) -> None:
        """A new trunk phase starts at ``seq``; ``kind``: the kind of command a pivot turns to."""
        if reason == "prompt" and only_attachments(label):
            return  # a screenshot pasted alone ("[Image #1]") starts nothing: the words after it do
        seg = self.current
        # Nothing happened yet, or only earlier blocks of this same message did (a Claude Code
        # prompt whose first block is a <system-reminder>): retitle instead of leaving a
        # one-block "Conversation" phase before it.
        if seg is not None and seg.commands == 0 and (seg.events == 0 or seg.start_seq == seq):
            seg.reason, seg.label, seg.kind = reason, label, kind
            seg.timestamp = seg.timestamp or ts
            return
        if seg is not None:
            if seg.start_seq < seq <= seg.end_seq:
                seg.end_seq = seq - 1  # earlier blocks of this message stay with the old phase
            self._close(seg, MAIN_AGENT)
        if pivot_from is not None:
            label = f"{label} (pivot after [msg {pivot_from}])"
        self.current = _Segment(seq, reason, label, end_seq=seq, timestamp=ts, kind=kind)

    def pivot_at_call(self, seq: int, label: str, pivot_from: int, ts: str | None, kind: str, host: str | None,
                      command: bool, errors: int, check: bool = False) -> None:
        """A pivot found only once the output of the call at ``seq`` was read (analysis holds a
        look at the server the agent waited for until then): the call, counted in the phase it was
        typed in (``kind`` of command run on ``host``; ``command``: it was a shell command), and
        the ``errors`` its output showed move to the new phase with it (``check``: it was a look
        at an installed version)."""
        seg = self.current
        moved = seg is not None and seg.start_seq < seq <= seg.end_seq
        if moved:
            _count(seg, kind, host, command, errors, -1)
            seg.checks[kind] -= check
        self.boundary(seq, "pivot", label, pivot_from=pivot_from, ts=ts, kind=kind)
        if moved and self.current is not None:
            _count(self.current, kind, host, command, errors, 1)
            self.current.checks[kind] += check

    def finish(self) -> list[SegmentRecord]:
        """All phases: the trunk's in order, then one per sub-agent."""
        if self.current is not None:
            self._close(self.current, MAIN_AGENT)
            self.current = None
        for agent, seg in self.agents.items():
            self._close(seg, agent)
        self.agents = {}
        return self.closed

    def _close(self, seg: _Segment, agent: str) -> None:
        # Three edits of a notes file beside one command on the GPU host are "Running Python on
        # gpu01", not "Editing code on gpu01": the serving kinds win whenever one ran.
        leading = [c for c in seg.categories if c not in _SUPPORTING] or list(seg.categories)
        top_cat = max(leading, key=lambda c: seg.categories[c], default=None)
        # "Running commands" of a phase that ran none (its tool calls spawned agents or called
        # MCP tools) would be a wrong claim; such a phase is named by its prompt alone.
        activity = CATEGORY_TITLES[top_cat] if top_cat and (top_cat != "other" or seg.commands) else ""
        if activity and seg.checks and seg.checks[top_cat] == seg.categories[top_cat]:
            # its calls of that kind only looked at installed versions: "Which sglang is installed?
            # — Checking installed versions", as a pivot to them is titled, not "— Running Python"
            activity = VERSION_CHECK_TITLE
        # The host of the commands of the kind the title names, not of the phase's other
        # commands: three local reads of SGLang's source beside two ssh commands are "Reading
        # source code", not "Reading source code on gpu01".
        top_host = _host_of(seg, top_cat)
        if activity and top_host:
            activity += f" on {top_host}"
        if seg.reason in ("prompt", "heading", "agent"):
            # a sub-agent's description says what it did; one without (no meta.json sidecar, a
            # Codex sub-agent) is named by what it ran
            described = seg.reason == "agent" and seg.label != f"Sub-agent {agent}"
            title = seg.label + (f" — {activity}" if activity and not described else "")
        elif seg.reason == "pivot":
            host = _host_of(seg, seg.kind) if seg.kind is not None else top_host
            title = seg.label + (f" on {host}" if host else "")
        elif seg.reason == "compaction":
            title = COMPACTION_TITLE + (f" — {activity}" if activity else "")
        else:
            title = activity or "Conversation"
        if len(self.closed) >= MAX_SEGMENTS:
            self.dropped += 1
            return
        self.closed.append(SegmentRecord(self.session, 0, seg.start_seq, seg.end_seq, title or "Conversation",
                                         agent, seg.events, seg.commands, seg.errors, seg.timestamp))


def _count(seg: _Segment, kind: str, host: str | None, command: bool, errors: int, step: int) -> None:
    """Count one call of ``kind`` on ``host`` in ``seg`` (``step`` 1), or take it out (-1)."""
    seg.events += step
    seg.commands += step if command else 0
    seg.errors += step * errors
    for counter, key in ((seg.categories, kind), (seg.kind_hosts, (kind, host))):
        counter[key] += step
        if counter[key] <= 0:
            del counter[key]


def _host_of(seg: _Segment, kind: str | None) -> str | None:
    """The host most of ``seg``'s tool calls of ``kind`` ran on; None where most ran here (the
    first seen wins a tie)."""
    best, most = None, 0
    for (category, host), count in seg.kind_hosts.items():
        if category == kind and count > most:
            best, most = host, count
    return best


_FILLER_WORDS = 3
"""A sentence of fewer words ("ok.", "Thanks!", "Great, thanks.") says nothing as a title."""


def first_sentence(text: str, limit: int = 70) -> str:
    """A prompt's first sentence that says something, as a phase title."""
    text = " ".join(text.split())
    if only_attachments(text):
        return text  # whole, as PhaseTracker.boundary tells it ('[file <a 70-character name>]' cut was a title)
    for _ in range(4):  # skip "ok. ", "Thanks! " before the request; bounded for a pasted log of "ok. ok. …"
        cut = min((at for at in (text.find(stop) for stop in (". ", "? ", "! ")) if at > 0), default=-1)
        if cut < 0 or len(text[:cut].split()) >= _FILLER_WORDS:
            break
        text = text[cut + 2:]
    for stop in (". ", "? ", "! ", "\n"):
        at = text.find(stop)
        if 0 < at < limit:
            return text[:at + 1]
    return cut_at_word(text, limit)
