"""Events in, one :class:`SessionAnalysis` out: every extractor runs in a single streaming
pass, keeping only per-agent state and the (capped) records.

The text scans of one event are :func:`spec_debug.session.extract.extract` (done here for
a small file, by worker processes for a large one, see :mod:`spec_debug.session.parallel`);
this module holds what needs the session's order: pairing, loops, pivots, phases."""

from __future__ import annotations

import gc
import re
from collections import Counter, OrderedDict, deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from difflib import SequenceMatcher
from pathlib import Path

from spec_debug.diagnose.catalog import CATALOG
from spec_debug.diagnose.checks.perf import THROUGHPUT_TOLERANCE
from spec_debug.record import SEVERITY_RANK
from spec_debug.session import (checkpoints_seen, docker_contexts, failures, metrics, reasoning, shell, slurm_jobs,
                                source_workers, spec_facts, touched)
from spec_debug.session.agents import AgentInfo, AgentTree
from spec_debug.session.baselines import BaselineBook, named_host
from spec_debug.session.checkpoints_seen import CheckpointSeen
from spec_debug.session.cut_text import cut_at_word
from spec_debug.session.events import MAIN_AGENT, Event, ReadStats
from spec_debug.session.file_edits import FileEdit
from spec_debug.session.formats import claude_code
from spec_debug.session.formats import shell_logins
from spec_debug.session.formats.instants import instant
from spec_debug.session.host_changes import changes_host, starts_service
from spec_debug.session.job_ends import backgrounded, ended_job, job_ends, log_key, reports_job_end, written_paths
from spec_debug.session.keyboard_stop import CTRL_C, SIGINT_STATUS, ended_by_the_key, stopped_output
from spec_debug.session.login_hops import LoginHops
from spec_debug.session.metric_tables import NO_SPEC
from spec_debug.session.nesting import deep_values
from spec_debug.session.records import (
    MAX_COMMAND_CHARS, MAX_RECORDS, Bounded, CommandRecord, ErrorRecord, FindingRecord, HypothesisRecord, LoopRecord,
    MetricRecord, PivotRecord, PromptRecord, SegmentRecord,
)
from spec_debug.session.records import as_json as _as_json
from spec_debug.session.python_exit import python_said_failure
from spec_debug.session.script_failure import script_said_failure
from spec_debug.session.extract import LAST_WORDS, QUOTE_REACH, Extracted, extract
from spec_debug.session.segments import VERSION_CHECK_TITLE, PhaseTracker
from spec_debug.session.shell_words import pipefail_after
from spec_debug.session.sources import SessionSource, discover, iter_events
from spec_debug.session.status_echo import echoed_exit, timed_exit, typed_echo_status, without_echoed_exit
from spec_debug.session.stopped_servers import OwnServers, named_port
from spec_debug.session.timeout_limit import timed_follow_ends_line
from spec_debug.session.traced_hosts import TRACE_LEAD, traced_error_host
from spec_debug.session.version_checks import checked_packages, may_print_toolchain_version, printed_modules
from spec_debug.session.versions_seen import VersionSeen, printed_versions

LOOP_MIN = 3
"""The same failing command template this many times in a row is a loop (Bouzenia & Pradel,
arXiv:2506.18824: failing trajectories show repetitive cycles)."""
PIVOT_WINDOW = 5
"""A pivot is a command of a kind not among the agent's last few, right after a trigger."""
_SLOWER = 1 - THROUGHPUT_TOLERANCE
"""A reading under this share of its baseline is slower (SD501), as the playbooks' check says:
a 2 % dip (259 vs 260 tok/s, "1.00x") is noise, not a regression."""
_BACKGROUND_END = claude_code.BACKGROUND_END
SD401_GAP_POINTS = 20.0
"""Standalone accuracy this many points under the claimed one fires SD401."""


@dataclass
class SessionAnalysis:
    format: str = "unknown"
    sessions: list[dict] = field(default_factory=list)
    agents: list[dict] = field(default_factory=list)
    stats: dict = field(default_factory=dict)
    commands: list[CommandRecord] = field(default_factory=list)
    errors: list[ErrorRecord] = field(default_factory=list)
    metrics: list[MetricRecord] = field(default_factory=list)
    pivots: list[PivotRecord] = field(default_factory=list)
    findings: list[FindingRecord] = field(default_factory=list)
    segments: list[SegmentRecord] = field(default_factory=list)
    hypotheses: list[HypothesisRecord] = field(default_factory=list)
    loops: list[LoopRecord] = field(default_factory=list)
    prompts: list[PromptRecord] = field(default_factory=list)
    concat_orders: list[dict] = field(default_factory=list)
    checkpoints_seen: list[CheckpointSeen] = field(default_factory=list)
    """Checkpoint folders seen with no command naming them (a listed server's, a file tool's
    read): distill's defaults for its checks' vars; no part of the JSON contract."""
    file_edits: list[FileEdit] = field(default_factory=list)
    """Edits made with a file tool (the postmortem's changes); no part of the JSON contract."""
    versions_seen: list[VersionSeen] = field(default_factory=list)
    """The installed versions a version check printed (the postmortem's words for a turn to it);
    no part of the JSON contract."""

    @property
    def hosts(self) -> list[str]:
        seen: dict[str, None] = {}
        for c in self.commands:
            if c.host:
                seen.setdefault(c.host)
        return list(seen)

    def to_json(self, plain: bool = True) -> dict:
        """The JSON contract as a dict. ``plain=False`` leaves the records as dataclasses, for
        a writer that serializes them itself (orjson does, in one pass: see
        :func:`spec_debug.session.json_text.json_text`)."""
        as_json = _as_json if plain else _same
        return {
            "format": self.format,
            "sessions": self.sessions,
            "agents": self.agents,
            "stats": self.stats,
            "hosts": self.hosts,
            "commands": [as_json(r) for r in self.commands],
            "errors": [as_json(r) for r in self.errors],
            "metrics": [as_json(r) for r in self.metrics],
            "pivots": [as_json(r) for r in self.pivots],
            "findings": [as_json(r) for r in self.findings],
            "segments": [as_json(r) for r in self.segments],
            "hypotheses": [as_json(r) for r in self.hypotheses],
            "loops": [as_json(r) for r in self.loops],
            "prompts": [as_json(r) for r in self.prompts],
            "concat_orders": self.concat_orders,
        }


# What a launch says of speculation: any speculative flag (SGLang --speculative-*, vLLM
# --speculative-config / -sc / --speculative-model), a drafter's name, or flags it does not show
# (a --config file, a shell variable, --help) leave it unknown.
_MAY_SPECULATE = re.compile(r"spec|eagle|draft|mtp|nextn|ngram|medusa|--config\b|\$|(?:^|\s)(?:-h|--help|-sc)(?:[\s=]|$)",
                            re.I)
# Where a benchmark sends its requests: bench_serving's --host / --base-url, vllm bench's --base-url.
_BENCH_HOST = re.compile(r"--(?:host(?:name)?|base[-_]url|url)(?:=|\s+)['\"]?(?:https?://)?(?:[^@\s/'\"]*@)?"
                         r"(\[[^\]\s]+\]|[^\s:/'\"]+)")
_LOCAL = frozenset({"localhost", "127.0.0.1", "0.0.0.0", "::1", "[::1]"})


_KEEPS_SERVER = frozenset({"benchmark", "health", "logs", "gpu_status", "read_source", "inspect_config", "process",
                           "stop_process", "transfer", "edit"})
"""Kinds of command that put no other server up on a host (any other may start one: a
script, ``docker compose up``, ``systemctl restart``); a kill stops one at most."""
_ATTEMPTS = frozenset({"edit", "launch_server"})
"""Kinds of call that try something (with host_changes.changes_host: a restart, a kill, an
install): a reading after one that does not improve says the attempt did not work."""
_WAITS_FOR_SERVER = frozenset({"health", "logs", "process", "gpu_status"})
"""Kinds of command an agent waits for its server to come up with: a /health poll, a look at
its log, its process or the GPU memory its weights fill."""
# A port nothing listens on yet: "[Errno 111] Connection refused" (Python, ssh -L), aiohttp's
# "Cannot connect to host localhost:30000 ssl:default [Connect call failed ...]" (what
# sglang.bench_serving and vllm bench serve raise), the OpenAI client's "APIConnectionError",
# curl's "(7) Failed to connect to host" (failures.curl_unreached). Not ssh's own ("ssh: connect
# to host gpu01 port 22: Connection refused"): that host's sshd, no server of the agent's.
_REFUSED = re.compile(r"Connection refused|Cannot connect to host |Connect call failed|APIConnectionError|"
                      r"Failed to connect to host")


def not_up_yet(err: failures.ErrorInfo | ErrorRecord) -> bool:
    """``err`` says a server's port refused the connection (no server listens there yet). The
    postmortem asks it of the kept errors too."""
    return err.kind == "connection" and not err.message.lstrip().startswith("ssh:") \
        and " port 22:" not in err.message and _REFUSED.search(err.message) is not None


_IDLE = frozenset({"sleep", "echo", "true", "date", "wait", "cd", "pwd", "export", "hostname", "uptime", "whoami"})


VERSION_CHECK = "version_check"
"""The pivot logic's own kind of a command that prints an installed package's version
(:func:`version_checks.checked_packages`); ``commands[]`` and ``pivots[]`` call it "other"."""
PYTHON_VERSION_CHECK = "python_version_check"
"""The same look made by Python printing it (`python -c "import sglang; print(sglang.__version__)"`):
titled as the version check it is (was "Running Python"), "python" in ``commands[]`` and ``pivots[]``."""
_STEP_TITLES = {**shell.CATEGORY_TITLES, VERSION_CHECK: VERSION_CHECK_TITLE, PYTHON_VERSION_CHECK: VERSION_CHECK_TITLE}
_STEP_CATEGORY = {VERSION_CHECK: "other", PYTHON_VERSION_CHECK: "python"}


def _may_check_version(command: str) -> bool:
    """The cheap test before :func:`checked_packages` parses the command."""
    return "pip" in command or "__version__" in command or "conda" in command or "mamba" in command \
        or may_print_toolchain_version(command)


def _idle(command: str) -> bool:
    # `cd /root/sglang` alone has no sole program (cd is setup): idle too, else the `cd` between
    # a failure and the agent's new approach ended the wait for it and the pivot was lost
    program = shell.sole_program(command)
    return program in _IDLE or (not program and shell.only_setup(command))


_SLURM_LAUNCHERS = frozenset({"srun", "salloc"})
"""Slurm's programs that run a command on a node and say why they could not under their own
name: "srun: error: Unable to allocate resources: Requested node configuration is not
available" (slurm src/srun: error() writes "srun: error: ...")."""


def _wrapper_refused(record: CommandRecord, text: str) -> failures.ErrorInfo | None:
    """The failure the program that took a command elsewhere (into a container, onto a Slurm
    node) wrote when it could not run it there: the command's own program never ran, so its
    name is not on the line."""
    if record.container is not None and (said := failures.container_refused(text, record.container)) is not None:
        return said
    launcher = shell.sole_program(record.command)
    return failures.program_said_failure(text, launcher) if launcher in _SLURM_LAUNCHERS else None


def _plain_launch(command: str) -> bool:
    """The launch runs its server without speculation, as its own words say: those of the
    commands that run the server (a backgrounded launch's ``> /tmp/nospec.log 2>&1 & echo $!``
    names neither a flag nor a variable of it); the whole line where none is recognised."""
    words = shell.launch_words(command)
    return _MAY_SPECULATE.search(command if words is None else words) is None


# The agent's words just before a benchmark that say it measures the run without speculation:
# "Let me verify that the baseline is lower without the draft", "Now the no-spec run".
_BASELINE_RUN_SAID = re.compile(r"\bbaseline\b|" + NO_SPEC, re.I)


def _says_baseline_run(why: str) -> bool:
    """Whether the last sentence of the words before a command names the baseline run."""
    if "aseline" not in why and "spec" not in why and "draft" not in why and "eagle" not in why.lower():
        return False
    last = why.rstrip().rstrip(".:!").rsplit(". ", 1)[-1]
    return _BASELINE_RUN_SAID.search(last) is not None


_NO_SPEC_SAID = re.compile(NO_SPEC, re.I)
_DRAFTER_NAMED = re.compile(r"eagle|specul|draft|\bmtp\b", re.I)


def _says_plain_run(why: str) -> bool:
    """Whether the last sentence before a benchmark says it measures the run without speculation
    and nothing else: "First the baseline without speculation on gpu01 (port 30001)", not "Now
    EAGLE-3, to compare with the no-spec run" (the drafter named outside the "no ..." phrase), nor
    "Let me get a baseline before changing anything" (the current deployment, EAGLE-3 and all)."""
    low = why.lower()
    if "spec" not in low and "draft" not in low and "eagle" not in low:
        return False
    last = why.rstrip().rstrip(".:!").rsplit(". ", 1)[-1]
    rest = _NO_SPEC_SAID.sub(" ", last)
    return rest != last and _DRAFTER_NAMED.search(rest) is None


def _bench_default_port(command: str) -> str | None:
    """The port a benchmark that names none sends to, where its engine says: `vllm bench serve`,
    8000 (vllm/benchmarks/serve.py); sglang.bench_serving with its sglang backend, 30000 (both
    the servers' defaults too: stopped_servers._DEFAULT_PORTS). None where unsure (another backend)."""
    low = command.lower()
    if "vllm" in low and "sglang" not in low and "bench" in low:
        return "8000"
    if "sglang" in low and "bench_serving" in low and ("--backend" not in low or _SGLANG_BACKEND.search(low)):
        return "30000"
    return None


_SGLANG_BACKEND = re.compile(r"--backend(?:=|\s+)['\"]?sglang(?![\w-])")


def _bench_target(command: str) -> str | None:
    """The host a benchmark command sends its requests to; None for the machine it runs on."""
    m = _BENCH_HOST.search(command)
    host = m.group(1) if m else None
    return None if host is None or host.lower() in _LOCAL else host


def _printed_by(call: _Call | None) -> str:
    """The command whose output held a reading ("" for prose): its flags name the batch size and model."""
    record = call.record if call is not None else None
    return (record.inner or record.command) if record is not None else ""


def _same(record):
    return record


def _restates(stated: float, measured: float) -> bool:
    """``stated`` is ``measured`` as a report writes it: equal, or rounded to the stated
    number's decimals (2.31 measured, "2.3" reported)."""
    if stated == measured:
        return True
    text = repr(stated)
    decimals = len(text) - text.index(".") - 1 if "." in text and "e" not in text else 0
    if text.endswith(".0"):
        decimals = 0
    return round(measured, decimals) == stated


TOPIC_MATCH = 2
"""Topic words an outcome must share with an older hypothesis (and more than with the newest)
to settle that one instead of the newest."""


def _settled_index(st: _Agent, outcome: str) -> int | None:
    """Which open hypothesis an outcome settles: the newest, as an outcome mostly answers the
    last guess ("That fixed it."), unless the outcome names the topic of another one. An
    agent holding two suspects ("the d2t mapping", then "the hidden-state order") confirms
    the first in its own words; one that settles a suspect already settled ("Confirmed again:
    the d2t mapping ...") settles nothing still open."""
    topic = reasoning.topic_words(outcome)
    newest = len(st.open_hypotheses) - 1
    if len(topic) < TOPIC_MATCH:
        return _changed_guess(st, topic, newest)
    shared_newest = len(topic & st.open_hypotheses[newest][1])
    best, best_shared = newest, shared_newest
    for i in range(newest - 1, -1, -1):
        shared = len(topic & st.open_hypotheses[i][1])
        if shared > best_shared:
            best, best_shared = i, shared
    if best != newest and best_shared >= TOPIC_MATCH:
        return best
    if best != newest and shared_newest == 0 and len(topic - _SYMPTOM_WORDS) >= TOPIC_MATCH:
        # "Confirmed: the draft weights are fine; the serving path is the problem" after "my code
        # computes attn_input before the concat": an outcome naming subjects of its own, none of
        # the newest guess's and one of an older guess's ("... between training and serving"), is
        # about that older one, not a confirmation of a guess it does not mention
        return best
    if shared_newest == 0 and any(len(topic & done) >= TOPIC_MATCH for done in st.settled_topics):
        return None
    return _changed_guess(st, topic, newest)


def _changed_guess(st: _Agent, topic: frozenset, newest: int) -> int:
    """The open hypothesis an outcome naming none of theirs ("That fixed it: 96.8 tok/s now")
    answers: the newest, unless the launches and edits since the newest was said changed what an
    older one is about and nothing of the newest's. "I suspect --speculative-num-steps 8", then
    "Maybe the CUDA graph capture is off", a grep of the log for cuda, a relaunch with
    ``--speculative-num-steps 3`` and "That fixed it": the fix was of the steps guess."""
    if newest < 1 or not st.changes:
        return newest
    since = max(h.seq for h, _ in st.open_hypotheses)
    changed = touched.changed_words([c for c in st.changes if c.seq > since])
    if not changed or changed & touched.parts(st.open_hypotheses[newest][1]):
        return newest
    # the outcome's words that name the newest guess must name the other too ("the draft now
    # does 96.8 tok/s" after two guesses about the draft): else it is the newest it speaks of
    named_newest = topic & st.open_hypotheses[newest][1]
    best, best_shared = newest, 0
    for i in range(newest - 1, -1, -1):
        if not named_newest <= st.open_hypotheses[i][1]:
            continue
        shared = len(changed & touched.parts(st.open_hypotheses[i][1]))
        if shared > best_shared:
            best, best_shared = i, shared
    return best


def _restated(st: _Agent, sentence: str) -> int | None:
    """The index of the open hypothesis ``sentence`` says again: the same words in the same order,
    but for those every guess has ("I still suspect the d2t map"); numbers count ("layer 3" is
    no "layer 4"). None for a new guess."""
    said = None
    for i, (hyp, _) in enumerate(st.open_hypotheses):
        if hyp.text == sentence:
            return i
        if said is None:
            said = reasoning.guess_words(sentence)
        if said and reasoning.guess_words(hyp.text) == said:
            return i
    return None


def _settle(st: _Agent, i: int, status: str, ev: Event | _Outcome, outcome: str) -> None:
    """Close ``st``'s open hypothesis ``i`` as ``status`` by ``outcome``, said at ``ev`` (an event,
    or the outcome of the agent that spawned ``st``'s)."""
    hyp, topic = st.open_hypotheses.pop(i)
    hyp.status, hyp.outcome_seq, hyp.outcome = status, ev.seq, outcome
    hyp.outcome_timestamp = ev.timestamp
    # what was established is the suspect in the words of both: "the vocab map", confirmed as
    # "d2t holds absolute ids", is restated as "the export wrote d2t as absolute ids"
    st.settled_topics.append(topic | reasoning.topic_words(outcome))


_SYMPTOM_WORDS = frozenset((
    "accept", "acceptance", "accepted", "length", "len", "rate", "throughput", "tok", "token", "tps", "speed",
    "speedup", "faster", "slower", "latency", "baseline", "back", "normal", "expected",
))
"""Topic words of an outcome that name the symptom measured, not a suspect: "That fixed it: accept
length is 3.2 now" settles whatever was suspected last."""


_EITHER_OR = re.compile(r"\beither\b(.+?)\bor\b(.+)", re.I | re.S)


def _other_suspect(hypothesis: str, ruled_out: str) -> frozenset | None:
    """The topic words of the suspect still open when ``ruled_out`` names one of the two of an
    "either A or B" ``hypothesis`` and not the other; None when it names both, neither, or the
    hypothesis offers no choice."""
    m = _EITHER_OR.search(hypothesis)
    if m is None:
        return None
    first, second = reasoning.topic_words(m.group(1)), reasoning.topic_words(m.group(2))
    first, second = first - second, second - first
    said = reasoning.topic_words(ruled_out)
    if said & first and not said & second:
        return second or None
    if said & second and not said & first:
        return first or None
    return None


def analyze_path(path: Path, input_format: str | None = None) -> SessionAnalysis:
    """Analyze every session under ``path`` (a file, a session folder or a directory)."""
    with _without_cyclic_gc(), deep_values():  # a value nested as deep as orjson reads (nesting.py)
        return _analyze(Path(path), input_format)


def _earlier(a: str, b: str) -> bool:
    """Whether time ``a`` is before time ``b``. UTC times of one length (``...Z``, what most
    tools write) order as text; any other pair is compared as instants ("12:00:00Z" is after
    "12:00:00.5Z" as text); a non-time keeps text order."""
    if len(a) == len(b) and a[-1:] == "Z" == b[-1:]:
        return a < b
    x, y = instant(a), instant(b)
    return a < b if x is None or y is None else x < y


@contextmanager
def _without_cyclic_gc() -> Iterator[None]:
    """The pass allocates millions of short-lived containers (decoded JSON, events) while the
    kept records grow, so the cyclic collector runs over and over for nothing: with it, a
    100 MB session took 12% longer, and unpickling worker results 5x longer. Nothing in the
    pass makes a cycle per event (each session's state holds one, freed after the run), so
    memory stays bounded; the collector is switched back on at the end."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _analyze(path: Path, input_format: str | None) -> SessionAnalysis:
    copies: list[Path] = []  # identical copies of a session in two folders: read once
    sources = discover(path, input_format, copies)
    out = SessionAnalysis()
    totals: Counter = Counter()
    formats = {s.format for s in sources}
    out.format = formats.pop() if len(formats) == 1 else "mixed"
    for part in source_workers.parts_in_order(sources, analyze_source):
        _merge(out, totals, part)
    out.stats = {
        "events": totals["events"], "lines_skipped": totals["lines_skipped"],
        "tool_calls": totals["tool_calls"], "errors": totals["errors"], "lines": totals["lines"],
        "broken_json": totals["broken_json"], "non_object": totals["non_object"],
        "too_long": totals["too_long"], "binary": totals["binary"], "unknown_types": totals["unknown_types"],
        "missing_files": totals["missing_files"], "compactions": totals["compactions"],
        "records_dropped": totals["records_dropped"], "sessions": len(sources),
        "interrupts": totals["interrupts"], "damaged_files": totals["damaged_files"],
        "copies_skipped": len(copies),
    }
    return out


@dataclass
class SourcePart:
    """One session's share of the analysis: its records (segments indexed from 0), agents,
    ``sessions[]`` entry and counts. Sessions are independent, so each can be worked out in a
    process of its own (:mod:`spec_debug.session.source_workers`) and merged in order."""

    analysis: SessionAnalysis
    counts: Counter


def analyze_source(source: SessionSource) -> SourcePart:
    """The pass over one session."""
    part = SessionAnalysis()
    stats = ReadStats()
    tree = AgentTree()
    state = _SessionState(source, part, tree)
    for event in iter_events(source, stats, tree):
        state.feed(event)
    state.finish()
    tree.finish()
    main = tree.agents.get(MAIN_AGENT)
    if main is not None and not main.events and len(tree.agents) > 1:
        # no trunk read (a sub-agent's file read as a session of its own: its trunk gone, or the
        # file named alone): "main" is left out of agents[], so an agent it would have spawned is
        # a root (was "parent": "main", an agent not in the list), and the file read is that
        # agent's own (was "file": null)
        for a in tree.agents.values():
            if a.parent == MAIN_AGENT:
                a.parent = None
                if a.file is None and main.file is not None and source.path.name.startswith(f"agent-{a.id}."):
                    a.file = main.file
    part.agents.extend(a.as_dict(source.id) for a in tree.agents.values()
                       if a.id != MAIN_AGENT or a.events or len(tree.agents) == 1)
    read = stats.as_dict()
    part.sessions.append({
        "id": source.id, "file": str(source.path), "format": source.format, "title": state.title(),
        "events": state.events, "first_timestamp": state.first_ts, "last_timestamp": state.last_ts,
        "agents": len(tree.agents), **read, "missing_agent_files": list(stats.missing_files),
        "damaged": list(stats.damaged), "interrupted_seqs": state.interrupted_seqs,
    })
    counts = Counter(read)
    counts.update(events=state.events, tool_calls=state.tool_calls, errors=state.error_count,
                  compactions=state.compactions, records_dropped=state.dropped, interrupts=state.interrupts)
    return SourcePart(part, counts)


def _merge(out: SessionAnalysis, totals: Counter, part: SourcePart) -> None:
    base = len(out.segments)
    for seg in part.analysis.segments:
        seg.index += base
    for name in ("sessions", "agents", "segments", *_KEPT):
        getattr(out, name).extend(getattr(part.analysis, name))
    totals.update(part.counts)


INTERRUPTS_KEPT = 3
"""How many commands stopped by hand a session's ``interrupted_seqs`` names (its count is
``stats.interrupts``)."""

_KEPT = ("prompts", "hypotheses", "commands", "errors", "metrics", "concat_orders", "findings", "pivots", "loops",
         "checkpoints_seen", "file_edits", "versions_seen")


@dataclass
class _Call:
    category: str
    seq: int
    template: str
    record: CommandRecord | None
    tool_name: str | None
    spawn: bool = False
    """The call started a sub-agent: its result is the sub-agent's final report."""
    pipefail: bool = False
    """A terminal log's shell had ``set -o pipefail`` on: a pipeline's status is its last failure's."""
    typed_at: str | None = None
    """The host whose prompt the command was typed at (the call's own, not its target's)."""
    web: bool = False
    """A fetch or web search of others' pages (shell.reads_the_web): its result holds no error of the session."""
    notes: bool = False
    """A file tool read a prose document (shell.is_notes_path: NOTES.md, a summary): what it holds was
    written before, its numbers stated as a report's are, not measured, its errors quoted."""


_TRACED_SSH = re.compile(TRACE_LEAD + r"(?:\S+ )*?(?:\S*/)?ssh ", re.M).search
"""A ``set -x`` trace line that runs ssh, behind a wrapper or not (``+ timeout 30 ssh gpu02 ...``,
``+ /usr/bin/ssh ...``, zsh's ``+launch.sh:2> ssh ...``): the gate of :func:`traced_hosts.traced_error_host`."""

_PIPEFAIL = "(set -o pipefail)"
"""The key under which a terminal log's shell variables note that ``pipefail`` is on."""
_SLURM_NODES = "(salloc nodes)"
"""The key under which a terminal log's shell variables hold the nodes of the interactive
``salloc`` it is in (:meth:`SessionAnalysis._slurm_allocation`)."""


def _shows_errors(text: str) -> bool:
    """``text`` (a stretch of a terminal log's output, no status known) shows an error."""
    return bool(failures.extract_errors(text, None, False, status_known=False))


def _quotes_others(call: _Call) -> bool:
    """The call's result is text whose errors are not the session's: a sub-agent's report is its
    prose, as an agent's own text (what it hit is in its own lines; was a second error of the
    parent, the spawn a failed call); an edit tool's answer is a snippet of the edited file
    (Claude Code's Edit shows `cat -n` of the change: its `raise RuntimeError("CUDA out of
    memory")` is the edit); a web page or search result (WebFetch of a GitHub issue,
    WebSearch's titles, a docs MCP tool) quotes others' reports (was a failed call, and the
    postmortem's first error a stranger's); so does a notes file read (NOTES.md's pasted traceback)."""
    return call.spawn or (call.record is None and call.category == "edit") or call.web or call.notes


def _host_argument(call: _Call) -> bool:
    """The call's tool took the host as an argument and ran the command there itself: an MCP
    server's SSH tool (``{host, command}``: formats.common.remote_host), whose result is the
    command's output alone, with no exit status (tenox7/ssh-mcp ``README.md``), and whose
    ``is_error`` says the tool call failed, not the command. The host was not the command's own
    (an ``ssh`` line's inner command differs from it; a Bash call names no host)."""
    record = call.record
    return record is not None and record.host is not None and record.inner == record.command \
        and call.tool_name is not None and call.tool_name.startswith("mcp__")


_TYPO_EDITS = 2
"""The characters a retyped command may differ by (a swapped pair, one left out or added)."""


def _retyped(failed: str, command: str) -> bool:
    """Whether ``command`` is ``failed`` with a typo put right: at most :data:`_TYPO_EDITS`
    characters inserted, removed or replaced (``nvidai-smi``/``nvidia-smi``,
    ``config.jsn``/``config.json``)."""
    if failed == command or abs(len(failed) - len(command)) > _TYPO_EDITS or len(command) > 2000:
        return False
    edits = 0
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, failed, command, autojunk=False).get_opcodes():
        if tag != "equal":
            edits += max(i2 - i1, j2 - j1)
            if edits > _TYPO_EDITS:
                return False
    return True


@dataclass
class _Trigger:
    seq: int
    kind: str
    summary: str
    category: str
    recent: tuple[str, ...]
    command: str = ""
    """The failed command as typed, "" for none (a metric, a tool that is no command)."""
    not_up: bool = False
    """The error is a server's port refusing the connection (:func:`not_up_yet`)."""
    host: str | None = None
    """Where the failed command ran."""


# The path an error says is missing: Python's FileNotFoundError / OSError ("[Errno 2] No such
# file or directory: '/data/x.pt'"), coreutils' "cat: /data/x.pt: No such file or directory".
_LOOKS_IN_FOLDERS = frozenset({"ls", "find", "tree", "du", "stat", "fd"})
_MISSING_PATH = re.compile(r"No such file or directory: '([^'\n]+)'|([^\s:'\"]+): No such file or directory")


def _looks_for_missing(error: str, command: str) -> bool:
    """Whether ``command`` looks in the folder of the path ``error`` says is missing (a listing
    or a search there), as an agent does before it runs the failed command again."""
    m = _MISSING_PATH.search(error) if "No such file" in error else None
    if m is None:
        return False
    folder = (m.group(1) or m.group(2)).rstrip("/").rsplit("/", 1)[0]
    if len(folder) < 2:
        return False
    words = shell.split_words(command)
    return any(w.rsplit("/", 1)[-1] in _LOOKS_IN_FOLDERS for w in words) and any(w.rstrip("/") == folder or
                                                                     w.startswith(folder + "/") for w in words)


_CONNECT_TO = re.compile(r"connect to host (\S+) port \d+|Could not resolve hostname ([^\s:]+):")
"""ssh's refusal or time-out, or its failed name lookup, naming the host it was connecting to
(openssh sshconnect.c: "ssh: connect to host %s port %s: %s"; ssh.c: "ssh: Could not resolve
hostname %s: %s")."""


def _refusing_hop(jump: str, message: str) -> str | None:
    """The jump host of ``jump`` (``-J a,b``, ``user@bastion:2222``) that ssh's connection
    failure ``message`` names, else None."""
    m = _CONNECT_TO.search(message)
    if m is None:
        return None
    for hop in jump.split(","):
        name = hop.rpartition("@")[2]
        name = name[1:].partition("]")[0] if name.startswith("[") else name.partition(":")[0]
        if name and name == (m.group(1) or m.group(2)):
            return name
    return None


def _not_found_here(command: str, message: str) -> bool:
    """``message`` is the prompt's shell saying it found no program ``command`` runs first (bash
    "bash: ssh: command not found", zsh "zsh: command not found: ssh", dash "sh: 1: ssh: not
    found"): the program that would have reached another host is missing on this one."""
    program = shell.sole_program(command)
    return bool(program) and (message in (f"bash: {program}: command not found",
                                          f"zsh: command not found: {program}", f"sh: 1: {program}: not found")
                              # PowerShell's (failures._SHELL_REFUSED): 5.1 "rsync : The term 'rsync' ...", 7 "rsync: ..."
                              or message.startswith((f"{program} : The term '{program}' is not recognized",
                                                     f"{program}: The term '{program}' is not recognized",
                                                     # cmd.exe's (failures._CMD_REFUSED)
                                                     f"'{program}' is not recognized as an internal")))


_SILENT_WAITS = frozenset({"sleep", "wait"})
"""Programs typed to wait that print nothing of their own: their output in a terminal log is a
background job's (bash(1), ``wait``: it prints nothing; coreutils ``sleep`` neither)."""


def _job_printing(background: OrderedDict, output: str) -> CommandRecord | None:
    """The background job whose output a silent wait's ``output`` is: the one whose end the shell
    reported there (job_ends), else the one job still running; None where it cannot be told."""
    for end in job_ends(output) if reports_job_end(output) else ():
        if (key := ended_job(background, end)) is not None:
            return background[key]
    return next(iter(background.values())) if len(background) == 1 else None


_PRINT_NO_TRACEBACK = _SILENT_WAITS | frozenset({
    "curl", "wget", "nvidia-smi", "ps", "ls", "top", "htop", "free", "df", "du", "ping", "ss", "netstat",
    "lsof", "pgrep", "echo", "date", "uptime", "jobs", "nc", "kill", "pkill", "watch", "dmesg"})
"""Programs (none of them Python) whose output never holds a Python traceback of their own: in
a terminal log, one there is a background job's, written to the same terminal."""
_READ_FILES = frozenset({"tail", "cat", "head", "less", "more", "grep"})
"""Programs that print no traceback of their own but may show a file's (a log's)."""


def _traceback_printer(background: OrderedDict, command: str, output: str) -> CommandRecord | None:
    """The background job whose traceback ``output`` (``command``'s, typed while jobs ran) shows:
    None where ``command`` may print one itself. A file reader's output may be a log's
    traceback, so for ``tail -f srv.log`` only a job whose end the shell reported there."""
    names = shell.program_names(command)
    if not names or not all(n in _PRINT_NO_TRACEBACK or n in _READ_FILES for n in names):
        return None
    if any(n in _READ_FILES for n in names):
        ended = (ended_job(background, end) for end in job_ends(output)) if reports_job_end(output) else ()
        return next((background[key] for key in ended if key is not None), None)
    return _job_printing(background, output)


def _job_logged(job_logs: dict, command: str, cwd: str | None = None) -> CommandRecord | None:
    """The background job whose log file ``command`` (``cat srv.log``, ``tail -n 50
    logs/srv.log``), run in the folder ``cwd``, reads: the job typed with ``nohup python3 srv.py >
    srv.log 2>&1 &``, whose ``[1]+ Exit 1`` says only that it failed, not why. The file is the
    one at the same path (:func:`job_ends.log_key`) where both folders are known, else the one of
    the same name (the newest job writing one)."""
    words = [word for word in shell.split_words(command) if word[:1] != "-"]
    for word in words:
        if (job := job_logs.get(log_key(word, cwd))) is not None \
                or (job := job_logs.get(word.rstrip("/").rsplit("/", 1)[-1])) is not None:
            return job  # the same path, or a job whose folder is not known writing a file so named
    for word in words:
        name = word.rstrip("/").rsplit("/", 1)[-1]
        if not name:
            continue
        read = log_key(word, cwd)
        for key in reversed(job_logs):
            # the reading's folder unknown, or one path under ~ and one from / (the home's path is
            # not known: ~/srv.log may be /root/srv.log); otherwise another folder's file is another
            if key.rsplit("/", 1)[-1] == name and (read == name or key[:1] != read[:1]):
                return job_logs[key]
    return None


def _job_log_failure(job_logs: dict, command: str, output: str,
                     cwd: str | None = None) -> tuple[CommandRecord, failures.ErrorInfo] | None:
    """The failed background job whose log ``command`` (run in ``cwd``) reads, and the failure the
    log's last line states, which the job ended on (:func:`python_exit.python_said_failure`)."""
    job = _job_logged(job_logs, command, cwd)
    if job is None or not job.is_error:
        return None
    said = python_said_failure(job.inner, output)
    return (job, said) if said is not None else None


@dataclass(slots=True)
class _Agent:
    pending: OrderedDict = field(default_factory=OrderedDict)
    recent: deque = field(default_factory=lambda: deque(maxlen=PIVOT_WINDOW))
    trigger: _Trigger | None = None
    last_why: str | None = ""
    """The reasoning shown with a command: of the agent's last text (or thinking) block;
    None until a command asks for it (then worked out from ``last_text``)."""
    last_text: str = ""
    last_text_seq: int = -1
    failing: OrderedDict = field(default_factory=OrderedDict)
    """Command template -> its current streak of failures."""
    streak_before: tuple[str, int] | None = None
    """The template of the last failure counted in a streak and the streak's ``last_seq`` before
    it (0: it began one): a terminal log's ``echo $?`` of 0 after it undoes that step."""
    open_hypotheses: list[tuple[HypothesisRecord, frozenset]] = field(default_factory=list)
    """Each open hypothesis with its :func:`reasoning.topic_words`, oldest first."""
    settled_topics: deque = field(default_factory=lambda: deque(maxlen=20))
    """The topic words of the hypotheses settled last."""
    outcomes: deque = field(default_factory=lambda: deque(maxlen=50))
    """The agent's last outcomes (:class:`_Outcome`): a sub-agent's reported cause is settled by
    what its parent found after the report (see :meth:`_SessionState._reported_causes`)."""
    changes: deque = field(default_factory=lambda: deque(maxlen=8))
    """The agent's last relaunches and edits (:class:`touched.Change`): what its fixes changed."""
    written: OrderedDict = field(default_factory=OrderedDict)
    """Path -> the lines the agent's last whole-file Write of it wrote (bounded, as kept): a Write
    again changed only the lines that differ (:func:`touched.rewritten`)."""
    last_launch: str | None = None
    """The agent's last server launch, as its host ran it: what a relaunch changed is the difference."""
    last_launch_host: str | None = None
    """Where it ran (None: the session's own machine)."""
    held_pivot: tuple | None = None
    """A look at the agent's new server after it refused a command (``_pivot_check``'s event,
    trigger, kind, target): a pivot only if its output shows a failure other than a refusal."""
    typed_into: OrderedDict = field(default_factory=OrderedDict)
    """Call id -> the :class:`_Call` of a command typed into a shell a tool keeps open (Codex's
    ``write_stdin``, its result's raw type ``typed``): later polls of that shell show more of its
    output, under ``<call>#running`` after the call's own result closed it."""
    commands_typed: deque = field(default_factory=lambda: deque(maxlen=2))
    """The last two commands run: in a terminal log, an ``echo $?`` reports on the one before it
    (even one whose empty output the log shows no result for)."""
    quiet_typed: tuple | None = None
    """The last command typed whose output showed no error and no failure, and that output's
    event: an ``echo $?`` of 1 after it makes it fail, and the error its output shows is kept then
    (as a prompt's status shown after it gives one)."""
    unreadable_only: CommandRecord | None = None
    """The last command typed whose output is a find(1)'s over folders it may not read and
    nothing worse (:func:`failures.only_unreadable_folders`): an ``echo $?`` of 1 after it is
    that find's answer, no failure."""
    background: OrderedDict = field(default_factory=OrderedDict)
    """Commands typed with ``&`` in a terminal log, by their job's command line (:mod:`job_ends`):
    the shell reports their end in the output of a later command."""
    job_logs: dict = field(default_factory=dict)
    """The path of a file a command typed with ``&`` writes its output to (``> srv.log`` in the
    folder the prompt showed; its name where it showed none: :func:`job_ends.log_key`) -> that
    command: the errors a later reading of the file shows are the job's (:func:`_job_logged`)."""
    stopped_typed: CommandRecord | None = None
    """The last command typed that the person stopped with Ctrl-C (:mod:`keyboard_stop`): an
    ``echo $?`` of 130 after it is the signal's status (128 + SIGINT, bash(1) EXIT STATUS), no
    failure."""
    gave_up_typed: CommandRecord | None = None
    """The last command typed whose output ends in its tool's last words that it failed (pip's
    give-up line, make's ``*** ... Error 2``: :func:`failures.pip_gave_up`, :func:`failures.build_gave_up`; a
    traceback a program died on, :func:`failures.died_in_traceback`):
    an ``echo $?`` of 0 after it is the pipeline's (``make 2>&1 | tail -5``: tail's), the failure stands."""
    own_servers: OwnServers | None = None
    """The servers the agent started itself (made at its first launch)."""
    spawn_waits: list | None = None
    """Sub-agent reports (:class:`_SpawnWait`) the agent has made no call since."""
    last_read: int | None = None
    last_read_host: str | None = None
    """The host of the command :attr:`last_read` is the output of."""
    """The result seq of the command whose output the agent read last, while it has only
    written or thought since (no other call, no prompt): what its words next speak of."""


@dataclass(slots=True)
class _Outcome:
    seq: int
    timestamp: str | None
    kind: str
    """confirmed | ruled_out"""
    sentence: str
    topic: frozenset
    """Its topic words, with those of the agent's own hypothesis it settled."""
    settled: bool
    """It settled a hypothesis of the agent's own."""


@dataclass(slots=True)
class _SpawnWait:
    seq: int
    call_id: str
    category: str
    recent: tuple[str, ...]


_AGENT_FAILURE_LINES = frozenset({"turn.failed", "error", "msg:error", "event_msg:error", claude_code.RESULT_ERROR})
"""Codex's own failure lines: ``codex exec --json``'s ``turn.failed{error}`` and ``error{message}``
(its ``error`` items are warnings: formats.codex_exec), and a rollout's ``error`` event (CLI 0.43 and older: ``msg:error``). A
``stream_error`` is a reconnect notice the turn survives (openai/codex codex-rs/protocol
``StreamErrorEvent``), so it is not one. Claude Code's ``claude -p --output-format stream-json``
ends a failed run with a ``result`` line that says so (``error_max_turns``, or ``is_error``)."""


STRUCTURED_OUTPUT = "StructuredOutput"
"""The tool a Claude Code agent given a JSON schema ends on, its report the call's input (``claude -p
--json-schema``, a Workflow script's ``agent(prompt, {schema})``: anthropics/claude-code issues #36033,
#80848 "subagent completed without calling StructuredOutput"): no text follows it."""


# A report that says, in the agent's own voice, that it could not do what it was asked. Only
# the first person: "the server failed to start" may be what the agent found out.
_GAVE_UP = re.compile(r"(?:^|[.!:]\s+)unable to\b|\bI(?:\s+was|'m|\s+am)\s+(?:not\s+able|unable)\s+to\b"
                      r"|\bI\s+(?:could\s*not|couldn't|cannot|can't|failed\s+to|wasn't\s+able\s+to)\b",
                      re.IGNORECASE)


class _SessionState:
    def __init__(self, source: SessionSource, out: SessionAnalysis, tree: AgentTree) -> None:
        self.source = source
        self.session = source.id
        self.out = out
        self.tree = tree
        self.agents: dict[str, _Agent] = {}
        self.events = self.tool_calls = self.error_count = self.compactions = self.dropped = self.interrupts = 0
        self.interrupted_seqs: list[int] = []
        """The first few commands stopped by hand (their call's seq): the postmortem links them."""
        self.last_failure: tuple[str, str] | None = None
        self.first_ts: str | None = None
        self.last_ts: str | None = None
        self.first_utc = self.last_utc = 0
        """The length of first_ts (last_ts) when it ends in "Z", else 0: see feed."""
        self.findings: dict[str, FindingRecord] = {}
        self.index_listing: tuple[int, str] | None = None
        """(seq, evidence) of the first listing that showed a stale model.safetensors.index.json."""
        self.no_weights: list[tuple[Event, str, str | None, int | None]] = []
        """The draft's "Cannot find any model weights" seen before any such listing (see _observed)."""
        self.answered: tuple[Event, str] | None = None
        """(tool result, the command it answers) of the result read last: a finding its output
        shows names that command (FindingRecord.evidence_commands)."""
        self.stated: set[tuple[str, str]] = set()
        """(agent, code) of each finding an agent has shown or said: only its first statement in
        words names the check it had just read (FindingRecord.read_seqs)."""
        self.concat_seen: dict[tuple[int, str], tuple[tuple[str, ...], int, tuple]] = {}
        self.layer_ids_seen: dict[int, tuple[tuple[int, ...], int]] = {}
        self.config_reads: dict[int, str] = {}
        """A file tool's reads of a config.json, by the call's seq, until its result: what it shows
        says whether the folder is a drafter's (checkpoints_seen.shown_draft)."""
        self.command_hosts: dict[str, str] = {}
        """The hosts the session's commands ran on so far, by lower-cased name: a reading stated in
        prose that names one of them ("gpu01 now does 88 tok/s") is that host's."""
        self.unnamed_prose: deque[MetricRecord] = deque(maxlen=MAX_RECORDS)
        """Prose readings that named none of command_hosts, asked since it last grew: the end
        (_prose_hosts) asks again only the others. named_host reads nothing but the reading's
        context and value, which no one changes, and the hosts, which only grow (new keys, never
        a changed value): asked again with the same hosts, these would name none again (the bench
        session's every text, whose sentence names no host, was scanned twice). Bounded: one
        that falls out is asked again, as all were."""
        self.baselines = BaselineBook()
        """The baselines read so far, each with its row and model (SpecForge#339's table by batch size)."""
        self.best_throughput: dict[str | None, float] = {}
        self.unsaid: dict[str, list[MetricRecord]] = {}
        """Each agent's throughputs printed since it last wrote: a baseline it then states with the
        same number names one of them (MetricRecord.baseline)."""
        """The best throughput read so far on each host (the key: the reading's host)."""
        self.read_at: dict[str | None, int] = {}
        """The seq of the last throughput read on each host (of the drafter, not a baseline)."""
        self.changed_at: dict[str | None, int] = {}
        """The seq of the last attempt on each host (None: the session's own machine, where a
        local edit is made): an edit, a launch, a command that changes the host, a sub-agent."""
        self.served: dict[str | None, dict[str | None, CommandRecord | None]] = {}
        """Per host (lower-cased; None: the session's own machine), per port its launch names
        (None: none named), its last server launch when it plainly ran without speculation, None
        when with (or when its flags cannot say); the last launch is the dict's last entry."""
        self.claimed_accuracy: MetricRecord | None = None
        self.standalone_accuracy: list[MetricRecord] = []
        self.last_words: dict[str, str] = {}
        """Per agent, the start of the text it wrote after its last tool call (its report, once
        it has ended): a sub-agent that says there it could not do the task did not complete it."""
        self.api_failed: set[str] = set()
        """Sub-agents whose last word so far is an API error the CLI wrote in their place."""
        self.reports: dict[str, list[MetricRecord]] = {}
        self.sub_readings: dict[str, list[MetricRecord]] = {}
        """Per sub-agent, its first readings: a report read after its agent's lines (written
        inline in the trunk by CLI 2.0.x) restates them, as _drop_report_copy finds the other way."""
        """Per spawning call id: the readings its sub-agent's report gave the parent."""
        # Over the tree, not self: a closure over self was a cycle (state -> phases -> lambda ->
        # state) that kept each session's state and records alive until a collection, which
        # the pass switches off; a worker analysing a folder's sessions grew with each one.
        self.phases = PhaseTracker(self.session, lambda agent, tree=tree: tree.get(agent).description)
        self.kept = {name: Bounded() for name in _KEPT}
        self.kept_metrics, self.kept_commands = self.kept["metrics"], self.kept["commands"]
        """The two lists fed most often, without the dict lookup."""
        self.titles: dict[str, str] = {}
        """The session's name as its own lines give it (Claude Code's custom-title, ai-title)."""
        self.status_known = source.format != "text"
        """False for a plain-text log: no exit status was recorded."""
        self.spawns_answered: list[tuple] = []
        """(agent, :class:`_SpawnWait`, then the seq, category, text and time of its next call)."""
        self.spawn_reports: dict[str, int] = {}
        """Spawning call id -> the seq of its result: where the sub-agent's report reached its parent."""
        self.shell_variables: dict[str | None, dict[str, str | None]] | None = {} if source.format == "text" else None
        self.login_hops = LoginHops() if source.format == "text" else None
        """A terminal log's variables, per host whose shell set them (None: the log's own); None for
        an agent's transcript, whose tool runs each command in a fresh shell (Claude Code: "Environment
        variables do NOT persist", anthropics/claude-code#2508)."""
        self.slurm_nodes: dict[str, str | None] = {}
        """Slurm job id -> the node it ran on, as squeue/scontrol/sacct output said (slurm_jobs)."""

    def title(self) -> str | None:
        """What the session is called: the source's title (a ChatGPT conversation's), else the
        name it was renamed to, else the one its CLI gave it."""
        return self.source.title or self.titles.get("custom-title") or self.titles.get("ai-title")

    # -- bookkeeping --------------------------------------------------------
    def _keep(self, items: Bounded, record) -> None:
        if items.add(record):
            self.dropped += 1

    def _errors_seen(self, ev: Event, info: AgentInfo, stretch: bool, found: tuple | list, host: str | None,
                     call_seq: int | None) -> None:
        """Count and keep the errors ``found`` in ``ev``'s output, on ``host``, of the call ``call_seq``."""
        for err in found:
            self.error_count += 1
            info.errors += 1
            self.phases.segment_for(ev, stretch=stretch).errors += 1
            self._keep(self.kept["errors"], ErrorRecord(
                self.session, ev.seq, ev.agent, err.kind, err.exception, err.message[:500], err.file, err.line,
                host, call_seq, ev.timestamp, ev.file, ev.line))

    def _agent(self, agent_id: str) -> _Agent:
        st = self.agents.get(agent_id)
        if st is None:
            st = self.agents[agent_id] = _Agent()
        return st

    # -- the pass -----------------------------------------------------------
    def feed(self, ev: Event) -> None:
        x = ev.extracted
        if x is None:
            x = extract(ev, self.status_known)
        self.events += 1
        ts = ev.timestamp
        if ts:  # sub-agents are read after the trunk, so compare rather than take the last
            # _earlier's first case inline (UTC times of one length): it runs twice per event.
            # The length of a time ending in "Z" (0: other) is taken once for ts, and kept for
            # first_ts and last_ts, so the test costs no len() and no slice of theirs.
            utc = len(ts) if ts[-1:] == "Z" else 0
            first, last = self.first_ts, self.last_ts
            if first is None or (ts < first if utc and utc == self.first_utc else _earlier(ts, first)):
                self.first_ts, self.first_utc = ts, utc
            if last is None or (last < ts if utc and utc == self.last_utc else _earlier(last, ts)):
                self.last_ts, self.last_utc = ts, utc
        agent = ev.agent
        info = self.tree.agents.get(agent) or self.tree.get(agent)
        info.events += 1
        # info is the tree's entry for ev.agent: the handlers below are given it (and stretch)
        # instead of looking it up again. stretch: the event is a line of the agent's own file.
        # A background command's end the reader gave the agent that launched it from another
        # agent's file (claude_code.settle_background_ends: a sub-agent's end the CLI wrote into
        # the trunk, the trunk's server polled by a sub-agent) counts for that agent, but its line
        # is not one of the agent's own: it stretches neither the agent's span nor its phase.
        stretch = ev.raw_type != _BACKGROUND_END or info.file is None or ev.file == info.file
        if info.first_seq is None:
            info.first_seq = info.last_seq = ev.seq
        elif ev.seq > info.last_seq and stretch:
            info.last_seq = ev.seq
        st = self.agents.get(agent) or self._agent(agent)
        kind = ev.kind
        if kind == "prompt":
            if ev.agent == MAIN_AGENT and ev.text.strip():
                self.phases.boundary(ev.seq, "prompt", x.first_sentence, ts=ev.timestamp)
            self._keep(self.kept["prompts"], PromptRecord(self.session, ev.seq, ev.agent, ev.text[:500], ev.timestamp))
            st.last_read = None
            self._prose(ev, x)
            # A person's message ends the agent's turn: what it said before ("Should I restart the
            # server?") is no reason for the first command it runs on the answer ("No, read the
            # log"); that command was shown with it, and distill made it the step's why. Done here,
            # where both reads meet (a worker reads the same event the same way), not in a worker.
            st.last_why, st.last_text = "", ""
        elif kind == "text":
            if self.api_failed:
                self.api_failed.discard(ev.agent)
            if ev.agent != MAIN_AGENT and ev.agent not in self.last_words:
                self.last_words[ev.agent] = ev.text[:LAST_WORDS]
            self._prose(ev, x, st.last_read, st.last_read_host if st.last_read is not None else None)
            if self.unsaid:
                self.unsaid.pop(ev.agent, None)
            self._reasoning(ev, st, x)
            st.last_why, st.last_text, st.last_text_seq = x.why, ev.text, ev.seq
        elif kind == "thinking":
            if x.concat_orders or x.layer_ids:  # _concat's own test, here and below: most events have neither
                self._concat(ev, x)
            if st.last_text_seq != ev.seq:
                st.last_why, st.last_text, st.last_text_seq = x.why, ev.text, ev.seq
        elif kind == "tool_call":
            st.last_read = None
            if self.last_words:
                self.last_words.pop(ev.agent, None)
            if ev.tool_name == STRUCTURED_OUTPUT and ev.agent != MAIN_AGENT:
                self.last_words[ev.agent] = ""  # its report, in the form a schema asked for (AgentInfo.cut_off)
            # The phase _tool_call counted the call in: the lookup below would return it again
            # (nothing between moves a phase boundary, and its end already covers ev.seq).
            self._tool_call(ev, st, x, info).events += 1
            return
        elif kind == "tool_result":
            self._tool_result(ev, st, x, info, stretch)
        elif kind == "compaction":
            self.compactions += 1
            if ev.agent == MAIN_AGENT:
                self.phases.boundary(ev.seq, "compaction", "", ts=ev.timestamp)
        elif kind == "system":
            if ev.raw_type == "heading" and ev.agent == MAIN_AGENT:
                # cut after a whole word ("... on gpu01 after th" was a title)
                self.phases.boundary(ev.seq, "heading", cut_at_word(ev.text, 100), ts=ev.timestamp)
            elif ev.raw_type in claude_code.TITLE_LINES and ev.agent == MAIN_AGENT:
                self.titles[ev.raw_type] = ev.text[:300]  # the last one is the session's name now
            elif ev.raw_type in _AGENT_FAILURE_LINES and ev.text:
                self._agent_failure(ev)
            elif ev.role == "assistant" and ev.agent != MAIN_AGENT and (
                    ev.raw_type == claude_code.AGENT_API_ERROR or "API Error" in ev.text[:200]):
                # The CLI's "API Error: ..." written in the model's place (Claude Code's
                # isApiErrorMessage line): if nothing of the agent's own follows, it died of it.
                self.api_failed.add(ev.agent)
        self.phases.segment_for(ev, None, stretch).events += 1

    def _agent_failure(self, ev: Event) -> None:
        """A turn the agent itself could not finish (the model API refused, the context overflowed):
        an error of the session, with no command behind it, so it starts no pivot and no loop.
        ``codex exec --json`` prints the error, then ``turn.failed`` with the same message: once."""
        said = (ev.agent, ev.text)
        if ev.raw_type == "turn.failed" and said == self.last_failure:
            return
        self.last_failure = said
        self.error_count += 1
        self.tree.get(ev.agent).errors += 1
        self.phases.segment_for(ev).errors += 1
        self._keep(self.kept["errors"], ErrorRecord(
            self.session, ev.seq, ev.agent, "agent_error", None, ev.text[:500], None, None,
            None, None, ev.timestamp, ev.file, ev.line))

    def _prose(self, ev: Event, x: Extracted, read: int | None = None, read_host: str | None = None) -> None:
        """``read``: the result seq of the command whose output the agent had just read;
        ``read_host``: where that command ran."""
        # A reading stated next to one of the session's hosts is that host's, as the same reading
        # printed by a command there is: the impact rows and SD501 compare it with its host's
        # readings and baseline, not another host's. One named before any command ran there (the
        # prompt's "620 tok/s on gpu03") is given its host at the end (_prose_hosts).
        hosts = self.command_hosts
        if len(x.metrics) == 1:
            # One reading (most texts that state any): without a hint name_by_hint renames nothing
            # and sorting one item keeps it, and pairing_order leaves fewer than three as they are.
            m = x.metrics[0]
            self._prose_metric(ev, m, named_host(m.context, m.value, hosts) if hosts else None)
        elif x.metrics:
            for m in metrics.pairing_order(metrics.name_by_hint(list(x.metrics), "")):
                self._prose_metric(ev, m, named_host(m.context, m.value, hosts) if hosts else None)
        if x.concat_orders or x.layer_ids:
            self._concat(ev, x, read, read_host)
        for obs in x.observations:
            # "d2t holds absolute ids" said just after reading the checkpoint on a100-3: a100-3's
            self._observed(obs, ev, read_host, read)

    def _prose_metric(self, ev: Event, m: metrics.Metric, host: str | None) -> None:
        rec = self._metric(ev, m, host, "prose")
        if host is None and self.command_hosts:  # asked, and named none (unnamed_prose)
            self.unnamed_prose.append(rec)

    def _reasoning(self, ev: Event, st: _Agent, x: Extracted) -> None:
        settled = x.outcome
        closing = None
        if settled and len(settled) > 2:
            self._ruled_out_beside(ev, st, settled[2], settled[1])
        if settled:
            topic = reasoning.topic_words(settled[1])
            i = _settled_index(st, settled[1]) if st.open_hypotheses else None
            if i is not None and settled[0] == "confirmed" and not topic & st.open_hypotheses[i][1] \
                    and (reasoning.service_state(settled[1]) or reasoning.symptom_again(settled[1])
                         or reasoning.sound_subject(settled[1])):
                # "I confirmed the server is listening on port 30000" while the layer order is
                # suspected: a step of the check, naming nothing of the guess, settles none; so
                # does "Confirmed the regression: 55 tok/s", the symptom measured again, and "I
                # confirmed the tokenizer loads fine", another subject found sound
                i = None
            if i is not None and settled[0] == "ruled_out" and not topic & st.open_hypotheses[i][1] \
                    and reasoning.named_ruled_out(settled[1]):
                # "The server is fine." while the d2t map is suspected: another subject cleared
                i = None
            taken_back = reasoning.retracted_subject(settled[1]) if i is not None and settled[0] == "ruled_out" \
                else None
            if taken_back and not taken_back & st.open_hypotheses[i][1]:
                # "I was wrong about the port number" while the layer order is suspected: the
                # agent takes back something else it said, no guess of those open
                i = None
            if i is not None and topic & _SYMPTOM_WORDS and not (topic - _SYMPTOM_WORDS) & st.open_hypotheses[i][1] \
                    and reasoning.own_code(st.open_hypotheses[i][0].text):
                # "That fixed it: 96.8 tok/s" after a patch of the engine, the open guess "my code
                # computes attn_input before the concat" (the agent's standalone test): the served
                # model's throughput never ran that code, so it settles nothing of it: the newest
                # guess older than it about anything else, if one is open
                i = next((k for k in range(i - 1, -1, -1)
                          if not reasoning.own_code(st.open_hypotheses[k][0].text)), None)
            rest = _other_suspect(st.open_hypotheses[i][0].text, settled[1]) \
                if i is not None and settled[0] == "ruled_out" else None
            if rest is not None:
                # "either the layers or the vocab map", then "that rules out the layers": the vocab
                # map is still suspected, and what settles it next settles the hypothesis
                st.open_hypotheses[i] = (st.open_hypotheses[i][0], rest)
            elif i is not None:
                topic = topic | st.open_hypotheses[i][1]
                _settle(st, i, settled[0], ev, settled[1])
                closing = settled[1]
            st.outcomes.append(_Outcome(ev.seq, ev.timestamp, settled[0], settled[1], topic, closing is not None))
        for sentence in x.hypotheses:
            if sentence == closing:
                # "The sub-agent confirmed the root cause: d2t holds absolute ids" settles the open
                # suspect; its "root cause" words make it no new guess, open for ever after
                continue
            if reasoning.stated_cause(sentence) and self._stated_cause(ev, st, sentence):
                # "Fixed. Root cause: d2t held absolute ids": what the agent established, no guess
                # to leave open
                continue
            again = _restated(st, sentence)
            if again is not None:
                # "I suspect the num-steps flag", said again while still open: the same
                # guess, now the newest (was a second record; the outcome settled one of the two
                # and the other stayed an open question for ever)
                st.open_hypotheses.append(st.open_hypotheses.pop(again))
                continue
            hyp = HypothesisRecord(self.session, ev.seq, ev.agent, sentence, timestamp=ev.timestamp)
            self._keep(self.kept["hypotheses"], hyp)
            st.open_hypotheses.append((hyp, reasoning.topic_words(sentence)))
            del st.open_hypotheses[:-20]

    @staticmethod
    def _ruled_out_beside(ev: Event, st: _Agent, sentence: str, confirmed: str) -> None:
        """A suspect ruled out in the text of a confirmation ("... keeps up. The CUDA graph sizes
        were not the issue."): it settles the open guess it shares most topic words with and the
        ``confirmed`` sentence none ("Confirmed: the d2t map is absolute. The draft weights are
        not the issue." rules out no d2t guess), before the confirmation settles one; naming
        none, nothing. Its topic is its own words only: the guess's words would make it settle a
        sub-agent's guess on them (_reported_causes)."""
        topic = reasoning.topic_words(sentence)
        found = reasoning.topic_words(confirmed)
        # The guesses the confirmation names most are its own, not any it shares a word with:
        # "Confirmed: ... so the batch size is the cause. My theory about num_speculative_tokens
        # was wrong." rules out the theory "num_speculative_tokens=8 is too many for batch 64"
        # (was: its "batch" kept it open for ever)
        confirms = [len(found & t) for _, t in st.open_hypotheses]
        most = max(confirms, default=0)
        shared = [0 if most and c == most else len(topic & t) for c, (_, t) in zip(confirms, st.open_hypotheses)]
        if not shared or not max(shared):
            return
        i = max(range(len(shared)), key=shared.__getitem__)
        _settle(st, i, "ruled_out", ev, sentence)
        st.outcomes.append(_Outcome(ev.seq, ev.timestamp, "ruled_out", sentence, topic, True))

    def _stated_cause(self, ev: Event, st: _Agent, sentence: str) -> bool:
        """Whether a stated root cause is no new hypothesis: it confirms the open one it shares a
        topic word with (the one :func:`_settled_index` picks), or restates one settled before.
        A cause stated before anything on its topic was ("Found the root cause: d2t ..." and
        later "That fixed it") is a hypothesis, for what confirms it next."""
        if st.open_hypotheses and reasoning.pronoun_cause(sentence):
            # "That was the culprit." just after a guess: the agent names the open guess by a
            # pronoun, the newest (was: no outcome, the guess left an open question)
            _settle(st, len(st.open_hypotheses) - 1, "confirmed", ev, sentence)
            return True
        topic = reasoning.topic_words(sentence)
        if not topic:
            return True  # a heading "## Root cause" alone names no cause to confirm or keep
        i = _settled_index(st, sentence) if st.open_hypotheses else None
        if i is None or not topic & st.open_hypotheses[i][1]:
            # a restatement names the settled suspect: one shared word ("the draft's fc layer"
            # after "the draft's vocab map") is a new cause
            enough = min(TOPIC_MATCH, len(topic))
            return any(len(topic & done) >= enough for done in st.settled_topics)
        _settle(st, i, "confirmed", ev, sentence)
        return True

    def _tool_call(self, ev: Event, st: _Agent, x: Extracted, info: AgentInfo):
        """``info``: the tree's entry of ``ev.agent``. Returns the phase the call is counted in."""
        if self.api_failed:
            self.api_failed.discard(ev.agent)
        self.tool_calls += 1
        info.tool_calls += 1
        category = x.category
        target = x.target
        if self.shell_variables is not None and ev.command:
            target = self._shell_target(ev, target)
        if ev.container is not None and target is not None and target.container is None and target.host is None:
            # typed in a container's shell a terminal log saw opened: it ran in that container,
            # as `docker exec sglang CMD` would have (formats.shell_logins.Logins.containers)
            target = replace(target, container=ev.container)
            typed_in = True
        else:
            typed_in = False
        # the pivot logic's kind of step: a look at an installed version (`pip show sglang`) is
        # "other" in commands[], but no retry of a failed launch (was: the turn to it went unnoticed)
        step = category
        if (category == "other" or category == "python") and ev.command and _may_check_version(ev.command) \
                and checked_packages((target.inner if target is not None else None) or ev.command):
            step = VERSION_CHECK if category == "other" else PYTHON_VERSION_CHECK
        if st.spawn_waits:
            self._after_spawns(ev, st, step, target)  # the step's kind, as after a failure of its own
        cleanup = (category == "launch_server" or st.own_servers is not None) and ev.command and \
            self._own_server(ev, st, category, target)
        if not cleanup:  # stopping the agent's own test server is no change of approach
            self._pivot_check(ev, st, step, target)
        st.recent.append(step)
        seg = self.phases.segment_for(ev, category)
        seg.categories[category] += 1
        if step is not category:
            seg.checks[category] += 1
        record = None
        if ev.command:
            # (an ssh to a host named by a variable with no one value, `for h in gpu1 gpu2; do
            # ssh $h ...`: no host, not the prompt's)
            host = target.host or (None if target.unnamed else ev.host)
            # the user and folder of the shell the command was typed in (a log's prompt, Claude
            # Code's cwd), unless it went on through ssh or into a container. The folder a
            # container's own shell shows (`root@a1b2c3d4e5f6:/sgl-workspace#`) is the one the
            # command ran in there; its user is the container's, no login to the host (distill)
            here = target.host is None and target.container is None and not target.unnamed
            folder_here = here or typed_in
            port, jump = target.port or (ev.port if here else None), target.jump
            if self.login_hops is not None:
                # typed at the prompt of a host a login reached (through a bastion, on a port)
                port, jump = self.login_hops.route(ev.host, target)
                if target.host and shell_logins.opens_login(ev.command):
                    self.login_hops.opened(target, jump)
            # Positional, in CommandRecord's field order (a keyword call costs twice as much):
            # session, seq, agent, host, command, exit_code, is_error, category, inner, user,
            # port, jump, container, description, why, timestamp, file, line, result_seq, cwd.
            record = CommandRecord(
                self.session, ev.seq, ev.agent, host, ev.command[:MAX_COMMAND_CHARS], None, False, category,
                (target.inner or ev.command)[:MAX_COMMAND_CHARS], target.user or (ev.user if here else None),
                port, jump, target.container,
                ev.description, self._why(st) if 0 <= ev.seq - st.last_text_seq <= QUOTE_REACH else "", ev.timestamp,
                ev.file, ev.line, None, ev.cwd if folder_here else None)
            if self.kept_commands.add(record):  # _keep inline
                self.dropped += 1
            if self.source.format == "text":
                st.commands_typed.append(record)
                if "&" in record.command and (job := backgrounded(record.command)) is not None:
                    st.background[job] = record  # its end comes in a later command's output (job_ends)
                    if len(st.background) > 64:
                        st.background.popitem(last=False)
                    for path in written_paths(shell.split_words(record.command)):
                        name = log_key(path, record.cwd)  # srv.log in ~/a and ~/b: two files
                        st.job_logs.pop(name, None)  # the newest job that writes there, kept last
                        st.job_logs[name] = record
                        if len(st.job_logs) > 64:
                            del st.job_logs[next(iter(st.job_logs))]
            seg.commands += 1
            seg.kind_hosts[category, host] += 1
            if host:
                if len(self.command_hosts) < 4096 and (low := host.lower()) not in self.command_hosts:
                    self.command_hosts[low] = host
                    self.unnamed_prose.clear()  # asked of fewer hosts than the end has
            for obs in x.launch:
                self._finding(obs.code, ev, obs.evidence, host, severity=obs.severity)
            if category == "edit":  # sed -i, a patch: what a symptom's outcome next may be the fix of
                st.changes.append(touched.Change(ev.seq, record.inner, None))
            if category == "launch_server":  # the model it serves is that of the bare benchmarks after it
                self.baselines.launched(record.inner)
                if st.last_launch is not None:  # (a first launch changed nothing known)
                    st.changes.append(touched.Change(ev.seq, record.inner, st.last_launch))
                st.last_launch, st.last_launch_host = record.inner, host
                ports = self.served.setdefault(host.lower() if host else None, {})
                port = named_port(record.inner)
                ports.pop(port, None)  # the last launch last
                ports[port] = record if _plain_launch(record.inner) else None
            elif self.served and ((category not in _KEEPS_SERVER and not _idle(record.inner))
                                  or starts_service(record.inner)):
                # a script, a service or a container started there may have put another server up (a
                # restart behind an edit too: `sed -i ... sglang.env && systemctl restart sglang`)
                self.served.pop(host.lower() if host else None, None)
            if x.concat_orders or x.layer_ids:
                self._concat(ev, x, host=host)
        else:  # a file tool (Claude Code's Read, Grep): where the agent runs, as a command typed there
            seg.kind_hosts[category, ev.host] += 1
            if category == "edit" and ev.path:  # Edit of the draft's config.json: a change, as a `sed -i` is
                self._keep(self.kept["file_edits"], FileEdit(self.session, ev.seq, ev.agent, ev.host, ev.path,
                                                             ev.tool_name or "?"))
                if ev.text and ev.spawn is None:  # what it wrote, bounded, as a sed -i's words
                    wrote = touched.edit_text(ev.path, ev.text)
                    if ev.tool_name in touched.WHOLE_FILE_WRITERS:
                        wrote = touched.rewritten(st.written, ev.path, wrote)
                    st.changes.append(touched.Change(ev.seq, wrote, None))
            elif ev.path and checkpoints_seen.checkpoint_file(ev.path):
                # Read /ckpt/l31-eagle3/config.json: that draft, as a `cat` of it would name it
                self._keep(self.kept["checkpoints_seen"], CheckpointSeen(
                    self.session, ev.seq, ev.agent, ev.host, "read", path=ev.path))
                if ev.path.endswith("/config.json") and len(self.config_reads) < 64:
                    self.config_reads[ev.seq] = ev.path
        # (changes_host parses the line: asked only once a throughput was read, as only a reading
        # after an attempt is compared with one before it)
        if category in _ATTEMPTS or ev.spawn is not None or \
                (record is not None and self.best_throughput and changes_host(record.inner)):
            self.changed_at[record.host if record is not None else None] = ev.seq
        call = _Call(category, ev.seq, x.template, record, ev.tool_name, ev.spawn is not None,
                     self.shell_variables is not None and _PIPEFAIL in self.shell_variables.get(ev.host, ()),
                     ev.host, record is None and shell.reads_the_web(ev.tool_name, ev.path),
                     (record is None and ev.path is not None and shell.is_read_tool(ev.tool_name)
                      and shell.is_notes_path(ev.path))
                     # `cat NOTES.md` shows what the Read tool would (was: its numbers measured); a
                     # command without a "." names no notes file (each of shell._NOTES_SUFFIXES has
                     # one, and lower-casing makes none): most commands, asked with no call
                     or (record is not None and "." in record.inner and shell.shows_notes(record.inner)))
        key = ev.call_id or f"anon-{ev.seq}-{ev.block}"
        st.pending[key] = call
        if len(st.pending) > 4096:
            st.pending.popitem(last=False)
        return seg

    def _tool_result(self, ev: Event, st: _Agent, x: Extracted, info: AgentInfo, stretch: bool) -> None:
        """``info``: the tree's entry of ``ev.agent``; ``stretch``: ``ev`` is a line of its own (see feed)."""
        fmt = self.source.format  # asked up to a dozen times below
        call = st.pending.pop(ev.call_id, None) if ev.call_id else None
        if call is None and ev.call_id is None and st.pending:
            call = st.pending.popitem(last=True)[1]
        if ev.raw_type == "typed" and call is not None and call.record is not None:
            st.typed_into[ev.call_id] = call
            if len(st.typed_into) > 64:
                st.typed_into.popitem(last=False)
        record = call.record if call else None
        self.answered = (ev, record.command) if record is not None else None
        st.last_read = ev.seq if record is not None else None
        st.last_read_host = record.host if record is not None else None
        exit_code = ev.exit_code
        host_tool = call is not None and _host_argument(call)
        if exit_code is None and not ev.is_error and record is not None and fmt == "claude-code" \
                and ev.raw_type != "running" and not host_tool:
            exit_code = 0  # Claude Code reports a non-zero exit as is_error + "Exit code N"
        # Scanned with the event's own exit code: with a known status, 0 and None read the same.
        found = x.errors
        if exit_code is not None and fmt == "text" and record is not None and record.command in ("exit", "logout"):
            # script(1)'s closing status on an `exit` typed with no n: the shell left with the
            # status of the command before it (bash(1), exit), which no prompt showed
            self._status_before(record, exit_code, st, info)
            exit_code = None
            found = tuple(e for e in found if e.kind != "exit_code")
        stopped = False
        logged_by: CommandRecord | None = None  # a background job whose log file this output shows
        if exit_code in (None, 0) and not ev.is_error and record is not None and "$" in record.command \
                and (echoed := echoed_exit(record.command, ev.text)
                     # `ssh gpu02 'python x.py; echo $?'`: the echo is the remote shell's, inside
                     # the quotes ssh hands it; read it in the command the host ran (was exit 0)
                     or (echoed_exit(record.inner, ev.text) if record.host and record.inner != record.command
                         else None)):
            # The command printed its own failure (`...; echo "exit: $?"`): the tool's 0 is the echo's.
            # Its errors are in what the commands before the echo printed: the echo's own line is
            # no error message (`false; echo $?` was the error "1")
            exit_code = echoed
            printed = without_echoed_exit(record.command, ev.text)
            if printed is ev.text and record.inner != record.command:
                printed = without_echoed_exit(record.inner, ev.text)
            found = tuple(failures.extract_errors(printed, echoed, False, status_known=self.status_known))
        elif exit_code is None and not ev.is_error and record is not None and fmt == "text" \
                and ev.text and "C" in ev.text and (timed := timed_exit(record.inner, ev.text)) is not None:
            # `/usr/bin/time python3 load.py` in a terminal log: GNU time said how the command ended
            # ("Command exited with non-zero status 1"), the status no prompt shows
            exit_code = timed
            found = tuple(failures.extract_errors(ev.text, timed, False, status_known=False))
        elif not found and exit_code is None and not ev.is_error and record is not None \
                and fmt == "openai" and ev.text:
            # An OpenAI chat messages list records no exit status (a role "tool" message holds only
            # content): a command's None is "not recorded", as in a terminal log, not "succeeded",
            # so its output's own errors say it failed (curl's "Connection refused").
            found = tuple(failures.extract_errors(ev.text, None, False, status_known=False))
        unrecorded = not self.status_known or fmt == "openai" or host_tool
        if not found and exit_code is None and not ev.is_error and record is not None and ev.text and unrecorded \
                and (said := failures.program_said_failure(ev.text, shell.sole_program(record.inner),
                                                           shell.last_program(record.inner))):
            # No status recorded, and the program the command ran says it failed, in its own
            # name ("cat: /tmp/x: No such file or directory", git's "fatal: not a git repository")
            found = (said,)
        elif not found and exit_code is None and not ev.is_error and record is not None and ev.text \
                and record.inner != record.command \
                and (not self.status_known or fmt == "openai") \
                and (said := _wrapper_refused(record, ev.text)):
            # No status recorded, and docker or kubectl says it could not run the command in the
            # container ("Error: No such container: sglang", kubectl's "error: unable to upgrade
            # connection: container not found"), or srun on a node ("srun: error: Unable to
            # allocate resources: ..."): the command never ran there
            found = (said,)
        elif not found and exit_code is None and not ev.is_error and record is not None and ev.text \
                and unrecorded and (said := script_said_failure(record.inner, ev.text, call.pipefail)):
            # a shell script whose last command failed, in that command's name (script_failure)
            found = (said,)
        elif not found and exit_code is None and not ev.is_error and record is not None and ev.text \
                and unrecorded and (said := python_said_failure(record.inner, ev.text, call.pipefail)):
            # a Python program that ended on its own failure message: sys.exit("Error: ..."),
            # argparse's "prog: error: ..." (python_exit); in a terminal log, an OpenAI chat's
            # tool message, or an MCP SSH tool's result, none of which records a status
            found = (said,)
        elif not found and exit_code is None and not ev.is_error and record is not None and ev.text \
                and st.job_logs and fmt == "text" and call.category == "logs" \
                and (ended := _job_log_failure(st.job_logs, record.inner, ev.text, record.cwd)) is not None:
            # `cat srv.log` after the shell's `[1]+ Exit 1  nohup python3 srv.py > srv.log 2>&1`:
            # the log's last line is the failure the job ended on (sys.exit("Error: ..."), as
            # python_said_failure reads a program's own output), what its end did not say
            logged_by, found = ended[0], (ended[1],)
        job_found: tuple = ()  # the errors of a background job's traceback in this output
        job_printed: CommandRecord | None = None  # that job
        if found and exit_code is None and not ev.is_error and record is not None and st.background \
                and fmt == "text" and "Traceback (most recent call last)" in ev.text \
                and (job_printed := _traceback_printer(st.background, record.inner, ev.text)) is not None:
            # `tail -f srv.log`, `curl .../health`, `nvidia-smi` typed while `python3 srv.py &`
            # ran: the traceback the job wrote to the terminal meanwhile is the job's (those
            # programs print none); what else the output says is the command's own (curl's "(28)")
            tracebacks, rest = failures.split_tracebacks(ev.text)
            job_found = tuple(failures.extract_errors(tracebacks, None, False, status_known=False))
            theirs = {(e.kind, e.exception, e.message) for e in job_found}
            found = tuple(e for e in found if (e.kind, e.exception, e.message) not in theirs)
            if not found and rest.strip():
                # the traceback hid the rest's own errors (extract_errors gives the most specific)
                found = tuple(failures.extract_errors(rest, None, False, status_known=False))
                if not found and (said := failures.program_said_failure(
                        rest, shell.sole_program(record.inner), shell.last_program(record.inner))):
                    found = (said,)
        if fmt == "text" and record is not None and ev.text and call.tool_name != "Bash" \
                and (exit_code == SIGINT_STATUS  # (the reader's is_error is that status's)
                     or (exit_code in (None, 0) and not ev.is_error and "^" in ev.text and CTRL_C in ev.text)) \
                and (stop := stopped_output(record.inner, ev.text, exit_code)) is not None:
            # (A claude-code-log page is "text" too, but its Bash calls are Claude Code's: no key
            # was pressed there, and a 130 is the failure the session's JSONL reads.)
            # Ctrl-C after the Enter (keyboard_stop): what the command printed after the key is how
            # it stopped (a KeyboardInterrupt traceback, SGLang's "Received sigquit from a child
            # process"), no failure, and the 130 is the signal's (128 + SIGINT). An error it
            # printed before the key stands (a server hung after its OOM, then stopped).
            before = tuple(e for e in failures.extract_errors(stop[0], None, False, status_known=False)
                           if not ended_by_the_key(e)) if found else ()
            found = before or (failures.ErrorInfo("interrupted", None, stop[1][:200]),)
            st.stopped_typed = record if not before else None
        elif found and fmt == "text" and record is not None and ev.text and "^" in ev.text \
                and CTRL_C in ev.text and shell.opens_repl(record.inner):
            # `python3` at a prompt: a statement stopped with Ctrl-C raised KeyboardInterrupt there,
            # and the interpreter went on (keyboard_stop); the person's stop, not the session's error
            found = tuple(e for e in found if not ended_by_the_key(e))
        if found and call is not None and call.category == "read_source" and not ev.is_error \
                and exit_code in (None, 0) and (record is None or shell.reads_source_only(record.inner)):
            # The output is source code (cat model_runner.py, the Read tool): its "except
            # torch.cuda.OutOfMemoryError" or logger.error("NCCL error ...") is no error.
            found = ()
        elif found and call is not None and not ev.is_error and exit_code in (None, 0) and _quotes_others(call):
            # a sub-agent's report, an edit tool's snippet, a web page: text that quotes errors
            # the session did not hit (_quotes_others); a call that failed is is_error
            found = ()
        failed = ev.is_error or exit_code not in (None, 0) or (exit_code is None and bool(found)) \
            or (exit_code == 0 and bool(found) and record is not None and (failures.pip_gave_up(found[0], ev.text, record.inner)
                                                                          or failures.build_gave_up(ev.text, record.inner)
                                                                          or failures.died_in_traceback(ev.text, record.inner)))
        printed_for: CommandRecord | None = None  # a background job whose output this is
        if failed and record is not None and exit_code == 1 and shell.selects_lines(record.inner) \
                and all(e.kind in ("exit_code", "tool_error") for e in found):
            # grep(1): "the exit status is 1 if no lines were selected": a search that found
            # nothing is an answer, not a failure (ps aux | grep sglang with no server up)
            failed, found = False, ()
        elif failed and record is not None and exit_code == 1 and shell.last_program(record.inner) == "find" \
                and failures.only_unreadable_folders(ev.text) \
                and all(e.kind in ("exit_code", "tool_error") for e in found):
            # `find / -name '*.safetensors'` over folders it may not read: what it found is the
            # answer, its "Permission denied" noise no failure (Claude Code's Bash tool says "Some
            # directories were inaccessible" and does not fail it either)
            failed, found = False, ()
        elif failed and record is not None and exit_code == 124 and timed_follow_ends_line(record.inner) \
                and all(e.kind in ("timeout", "exit_code", "tool_error") for e in found):
            # `timeout 20 tail -f x.log`: the watch ended when it was meant to (timeout_limit)
            failed, found = False, ()
        elif failed and record is not None and all(e.kind in ("exit_code", "tool_error") for e in found) \
                and (unreached := failures.curl_unreached(exit_code)) is not None \
                and shell.sole_program(record.inner) == "curl":
            # a silent curl (-s) that reached no server says so by its status alone
            found = (unreached,)
        elif failed and exit_code is None and not ev.is_error and record is not None and len(found) == 1 \
                and found[0].kind == "tool_error" and (refused := failures.refused_program(found[0].message)) \
                and shell.ran_on_after(record.inner, refused):
            # `nvidia-smi -L; echo gpus` with no nvidia-smi in a terminal log: the shell said so and
            # went on; the list's status is its last command's (bash(1), Lists), which ran. The
            # refusal stays the session's error (the GPU tool is missing there).
            failed = False
        elif failed and exit_code is None and not ev.is_error and call is not None and call.category == "logs" \
                and (logged_by is not None or all(e.kind in failures.LOG_CONTENT or failures.port_taken(e) for e in found)
                     or failures.build_log_read(found, ev.text)):
            # `grep -n Error server.log`, `tail -n 50 server.log` in a terminal log: the errors are
            # the server's, which the log holds; the reading did not fail (a tool that records
            # the status has 0 for it). They stay the session's errors. A server's "address
            # already in use" is one too (a reader binds no port), though ssh's own "Connection
            # refused" on the way to the log is the reading's failure. So is a build's or a test
            # run's own verdict at the end of the log read (`tail build.log` ending in Maven's
            # BUILD FAILURE): the build failed, when it ran; the reading did not.
            failed = False
            if logged_by is None and st.job_logs and record is not None and fmt == "text":
                logged_by = _job_logged(st.job_logs, record.inner, record.cwd)
        elif failed and exit_code is None and not ev.is_error and record is None and call is not None \
                and shell.is_read_tool(call.tool_name):
            # Read or Grep of server.log: as `grep -n Error server.log` above, the errors are the
            # log's and stay the session's; the file tool did not fail (was a failed call a read)
            failed = False
        elif failed and exit_code is None and not ev.is_error and record is not None and ev.text \
                and shell.opens_repl(record.inner) and failures.repl_went_on(ev.text):
            # `python3` at a prompt, a statement typed there raised: the error stands, the
            # interpreter went on to its next prompt (was a failed call, counted in a loop)
            failed = False
        elif failed and exit_code is None and not ev.is_error and record is not None and st.background \
                and fmt == "text" and shell.sole_program(record.inner) in _SILENT_WAITS:
            # `sleep 30` typed while a server started with `&` loads: sleep prints nothing, so what
            # its output shows (the job's traceback, written to the terminal) is the job's, and
            # the wait did not fail (was: a failed `sleep`, its error the cause of the job's end)
            failed = False
            printed_for = _job_printing(st.background, ev.text)
        elif found and found[0].kind == "interrupted":
            # the person stopped it (a tail -f, a long benchmark): steering, not a failure
            failed, found, stopped = False, (), True
            self.interrupts += 1
            if len(self.interrupted_seqs) < INTERRUPTS_KEPT:
                self.interrupted_seqs.append(call.seq if call is not None else ev.seq)
        # A call a hook blocked, the person refused or the permission system denied never ran:
        # an error result (is_error, no exit code), but no evidence about the system, so it
        # neither prompts a change of approach nor counts in (or breaks) a loop of failing runs.
        not_run = bool(found) and found[0].kind in failures.NOT_RUN
        printed_by = printed_for or record
        if record is None and ev.raw_type == "running" and ev.call_id and "#running" in ev.call_id:
            # What a command still running printed so far (Codex's first output and each poll
            # before it ends, under ``<call>#running``): the command stays open for its end, but its
            # readings are its host's (were no host's)
            running_id = ev.call_id.partition("#running")[0]
            # (a command typed into a shell and polled there: the typed command's, its hint and host)
            owner = st.pending.get(running_id) or st.typed_into.get(running_id)
            printed_by = owner.record if owner is not None else None
        host = printed_by.host if printed_by else None
        if printed_by is not None and ("slurm-" in printed_by.inner or "--jobid" in printed_by.inner) \
                and (job := slurm_jobs.job_output(printed_by.inner)):
            # a batch job's output file read on the login host: what it holds ran on the job's node
            host = slurm_jobs.output_host(job, self.slurm_nodes)
        elif record is not None and fmt == "text" and ev.text and "+" in ev.text and "ssh " in ev.text \
                and _TRACED_SSH(ev.text) \
                and (traced := traced_error_host(ev.text, _shows_errors)) is not None:
            # `bash -x launch.sh` with a traced `+ ssh gpu02 ...`: an error printed after that line,
            # before the next trace line, ran on gpu02, as what an ssh traced last printed did
            # (traced_hosts); one the script printed itself stays here
            host = traced
        elif record is not None and fmt in ("text", "openai") and host is not None and len(found) == 1 \
                and ("not found" in found[0].message or "not recognized" in found[0].message) \
                and _not_found_here(record.command, found[0].message):
            # `rsync -e 'ssh -p 2222' ... gpu02:/w/` answered by the prompt's shell ("bash: rsync:
            # command not found"): the program is missing here and nothing ran on gpu02; the
            # error is the prompt host's (a remote shell says "bash: line 1: rsync: ...")
            host = call.typed_at
        elif record is not None and record.jump and found and found[0].kind == "connection" \
                and (hop := _refusing_hop(record.jump, found[0].message)) is not None:
            # `ssh -J bastion gpu02 ...` whose "ssh: connect to host bastion port 22: Connection
            # refused" is the jump host's: gpu02 was never reached, the bastion is what failed
            host = hop
        elif record is not None and ev.text and ("squeue" in record.inner or "scontrol" in record.inner
                                                 or "sacct" in record.inner or "sbatch" in record.inner):
            slurm_jobs.learn_nodes(record.inner, ev.text, self.slurm_nodes)
        if record is not None and fmt == "text":
            self._echoed_status(record, ev, st, info, stretch)
            st.quiet_typed = (record, ev) if not failed and not found and not job_found else None
            if ev.text and "salloc: " in ev.text and self.shell_variables is not None:
                self._slurm_allocation(record, ev.text)
            if failed and exit_code is None and found and ev.text \
                    and (failures.pip_gave_up(found[0], ev.text, record.inner) or failures.build_gave_up(ev.text, record.inner)
                         or failures.died_in_traceback(ev.text, record.inner)):
                st.gave_up_typed = record
            if ev.text and "find: " in ev.text and shell.last_program(record.inner) == "find" \
                    and failures.only_unreadable_folders(ev.text):
                st.unreadable_only = record
        if record is None and self.config_reads and call is not None \
                and (read := self.config_reads.pop(call.seq, None)) is not None and ev.text and not failed \
                and (drafter := checkpoints_seen.shown_draft(read, ev.text)) is not None:
            # Claude Code's Read of /models/run7/config.json showed "Eagle3DraftModel": as a `cat` of it
            self._keep(self.kept["checkpoints_seen"], CheckpointSeen(
                self.session, ev.seq, ev.agent, ev.host, "config", drafter, command_seq=call.seq))
        if record is not None:
            record.exit_code = exit_code
            record.is_error = failed
            record.result_seq = ev.seq
            if ev.text and not failed and "config.json" in record.inner \
                    and (drafter := checkpoints_seen.shown_draft(record.inner, ev.text)) is not None:
                # `cat /models/run7/config.json` printed "Eagle3DraftModel": run7 is the draft,
                # whatever its folder's name says (distill's checks had taken it for the target)
                self._keep(self.kept["checkpoints_seen"], CheckpointSeen(
                    self.session, ev.seq, ev.agent, record.host, "config", drafter, command_seq=record.seq))
            if call.category == "process" and ev.text and not failed \
                    and (served := checkpoints_seen.listed_server(ev.text)) is not None:
                # `ps aux | grep [s]glang` of a server up before the session: what it serves
                self._keep(self.kept["checkpoints_seen"], CheckpointSeen(
                    self.session, ev.seq, ev.agent, record.host, "listed", served[0], served[1],
                    command_seq=record.seq))
            elif (call.category == "other" or call.category == "python") and ev.text and not failed \
                    and _may_check_version(record.inner) \
                    and (checked := checked_packages(record.inner)):
                # `pip show sglang`: what it showed ("Version: 0.4.1") is what the postmortem says
                # the agent turned to (was "running commands")
                python = "__version__" in record.inner
                order = printed_modules(record.inner) if python and len(checked) > 1 else ()
                for package, version in printed_versions(checked, ev.text, python, order).items():
                    self._keep(self.kept["versions_seen"], VersionSeen(
                        self.session, record.seq, ev.agent, record.host, package, version[:40]))
        if st.background and ev.text and fmt == "text" and reports_job_end(ev.text):
            self._jobs_ended(ev, st, info, stretch)  # (after the call's own status: zsh reports at once)
        if failed and (ev.raw_type != "running" or record is not None):
            # (what a command still running printed is no end of a call: its end, when read, says
            # whether it failed; each poll that showed a traceback was one more failed call)
            info.failed_calls += 1
            info.not_run_calls += not_run
        if found and logged_by is not None:  # the errors the job wrote to its log: its own, on its host
            self._errors_seen(ev, info, stretch, found, logged_by.host, logged_by.seq)
        elif found:
            # (what a command still running printed is its command's: printed_by, see above)
            self._errors_seen(ev, info, stretch, found, host,
                              printed_for.seq if printed_for else call.seq if call
                              else printed_by.seq if printed_by is not None else None)
        if job_found:  # a background job's traceback: its host, and the command that started it
            self._errors_seen(ev, info, stretch, job_found, job_printed.host, job_printed.seq)
        if st.held_pivot is not None and call is not None and call.seq == st.held_pivot[0].seq:
            held, st.held_pivot = st.held_pivot, None
            if any(not not_up_yet(err) for err in found):
                # the log of the server the agent waited for ends in its crash: it was no wait
                self._emit_pivot(*held, errors=len(found))
        # An error the output shows prompts a change of approach as a failure does, whatever the
        # exit status: a server log read with `tail` (status 0) that ends in the engine's OOM.
        if (failed or found) and call is not None and not not_run:
            err = found[0] if found else None
            # cut after a word ("… (Caused by NewConnectionError(' [msg 4]" read as the whole error)
            summary = cut_at_word(failures.error_said(err.exception, err.kind, err.message), 160) if err \
                else "a failed command"
            st.trigger = _Trigger(ev.seq, "error", summary, call.category, tuple(st.recent),
                                  record.command if record is not None else "", err is not None and not_up_yet(err),
                                  record.host if record is not None else None)
        elif call is not None and call.spawn and ev.call_id and not not_run:
            # A sub-agent's report: its own lines are read after its parent's file, so whether
            # it ended in a failure is known at the end (see _spawn_pivots)
            if st.spawn_waits is None:
                st.spawn_waits = []
            st.spawn_waits.append(_SpawnWait(ev.seq, ev.call_id, call.category, tuple(st.recent)))
            if len(self.spawn_reports) < 4096:
                self.spawn_reports[ev.call_id] = ev.seq
        if not not_run and not stopped:
            # a run the person stopped neither failed nor succeeded: it leaves a streak of
            # failures of its command as it was (was: ended it, as a success does)
            self._loop(ev, st, call, failed, found)
        hint = printed_by.command if printed_by else ""
        if x.metrics:
            report = self.reports.setdefault(ev.call_id, []) if call is not None and call.spawn and ev.call_id else None
            read = self._read_by_spawned(ev) if report is not None and self.sub_readings else None
            # a benchmark of a server launched without speculation measures the baseline (SD501)
            plain = call is not None and call.category == "benchmark" and self._plain_server(call, x) is not None
            # a notes file the agent reads (Read NOTES.md): its numbers were written before, as a
            # report's are, no reading this session made (was: measured, the impact's "went from")
            source = "prose" if call is not None and call.notes else "output"
            for m in metrics.pairing_order(metrics.name_by_hint(list(x.metrics), hint)):
                rec = self._metric(ev, m, host, source, st, call, plain)
                if read and any(r.name == rec.name and _restates(rec.value, r.value) for r in read):
                    # the sub-agent's lines were read first (inline in the trunk): its own reading stands
                    self.kept_metrics.discard(rec)
                elif report is not None and len(report) < 50:
                    report.append(rec)
        for obs in x.launch:
            self._finding(obs.code, ev, obs.evidence, host, severity=obs.severity)
        for obs in x.observations:
            self._observed(obs, ev, host)
        if x.concat_orders or x.layer_ids:
            self._concat(ev, x, host=host)
        if record is not None and not x.layer_ids and "layer_ids" in record.inner and ev.text \
                and (ids := spec_facts.bare_layer_ids(ev.text)) is not None:
            # `jq .eagle_aux_hidden_state_layer_ids config.json`: the command names the key, the
            # output is the list alone (the scan of the output found no key to read it by)
            self._concat(ev, Extracted(layer_ids=(ids,)), host=host)

    def _after_spawns(self, ev: Event, st: _Agent, category: str, target: shell.Target | None) -> None:
        """The call an agent made after sub-agents reported: what it did next, for _spawn_pivots.
        ``category``: the pivot logic's kind of it (a version check is :data:`VERSION_CHECK`)."""
        shown = ((target.inner or ev.command) + (f" (on {target.host})" if target.host else "")) if ev.command \
            else f"{ev.tool_name} {ev.path or ''}".strip()
        for wait in st.spawn_waits:
            if wait.seq < ev.seq:
                self.spawns_answered.append((ev.agent, wait, ev.seq, category, shown, ev.timestamp))
        st.spawn_waits = [w for w in st.spawn_waits if w.seq >= ev.seq] or None
        del self.spawns_answered[:-256]

    def _spawn_pivots(self) -> None:
        """A sub-agent whose last command failed (it ran nothing after; its report says it could
        not finish) hands its failure to the agent that spawned it: what that agent did next
        instead is a change of approach, as after a failure of its own (was none: the report
        itself is no error). Known only at the end, so it starts no phase of the trunk."""
        spawned = {info.spawned_by: info.id for info in self.tree.agents.values() if info.spawned_by}
        pivoted = {(p.agent, p.seq) for p in self.kept["pivots"].values()}
        what = _STEP_TITLES
        for agent, wait, seq, category, shown, ts in self.spawns_answered:
            child = self.agents.get(spawned.get(wait.call_id, ""))
            trig = child.trigger if child is not None else None
            # The approach that failed is the sub-agent's (its failed launch), not the spawn call's
            # kind ("other"): the parent launching the server again itself is the ordinary retry
            # (was a pivot "from running commands to launching the server"), as after its own failure
            if trig is None or trig.kind != "error" or (agent, seq) in pivoted or category in wait.recent \
                    or category in trig.recent or category == trig.category or category in ("edit", "other"):
                continue
            summary = (f"After sub-agent {spawned[wait.call_id]}'s {trig.summary} [msg {wait.seq}], moved from "
                       f"{what[trig.category].lower()} to {what[category].lower()}: {shown[:240]}")
            self._keep(self.kept["pivots"], PivotRecord(self.session, seq, wait.seq, "error", summary, agent,
                                                        trig.category, _STEP_CATEGORY.get(category, category), ts))
            pivoted.add((agent, seq))

    def _reported_causes(self) -> None:
        """A sub-agent's hypotheses still open when it reported back ("Root cause: d2t holds
        absolute ids" ends its report) are settled by what its parent found after the report, as
        an agent's own outcome settles its own: an outcome on their topic (or that settled the
        parent's own suspect on it) settles the one it shares most words with; one that names only
        the symptom ("That fixed it: accept length is 3.2 now") the newest. Sub-agents are read
        after their parent, so this is known only at the end."""
        for agent_id, st in self.agents.items():
            info = self.tree.agents.get(agent_id)
            if not st.open_hypotheses or info is None or info.spawned_by not in self.spawn_reports:
                continue
            parent = self.agents.get(info.parent or "")
            if parent is None:
                continue
            reported = self.spawn_reports[info.spawned_by]
            for outcome in parent.outcomes:
                if not st.open_hypotheses:
                    break
                if outcome.seq <= reported:
                    continue
                named = outcome.topic - _SYMPTOM_WORDS
                if not named:
                    _settle(st, len(st.open_hypotheses) - 1, outcome.kind, outcome, outcome.sentence)
                    continue
                shared = [len(named & topic) for _, topic in st.open_hypotheses]
                best = max(range(len(shared)), key=shared.__getitem__)
                if shared[best]:
                    _settle(st, best, outcome.kind, outcome, outcome.sentence)

    def _shell_target(self, ev: Event, target: shell.Target) -> shell.Target:
        """Where a terminal log's command ran when it names the host by a variable an earlier
        command set in the same shell (``export GPU_HOST=10.1.2.3``, then ``ssh $GPU_HOST
        nvidia-smi``): the shell still holds it (bash(1), PARAMETERS). Was no host."""
        known = self.shell_variables.setdefault(ev.host, {})
        command = ev.command
        if target.host is None and target.container is None and "srun" in command and known.get(_SLURM_NODES):
            # `srun python3 bench.py` in an interactive salloc's shell: on the allocation's node
            target = shell.srun_in_allocation(command, known[_SLURM_NODES]) or target
        if target.host is None and target.container is None and known and "$" in command:
            target = shell.target_with(command, known)
        if target.host is None and target.container is not None and known:
            target = shell.with_daemon_host(command, target, known)  # export DOCKER_HOST=ssh://…
            # a context the log created: `docker context create gpu07 --docker host=ssh://…`
            target = docker_contexts.with_context_host(command, target, known)
        elif target.host is None and known and ("docker" in command or "podman" in command):
            # `docker run|logs|ps …` after `export DOCKER_HOST=ssh://gpu08`, or through a context
            # the log created (`docker --context gpu08 logs …`): the daemon's host ran it
            target = docker_contexts.run_on_context_host(command, shell.with_daemon_host(command, target, known), known)
        if "=" in command or "for " in command or "unset " in command or "export " in command or "+x" in command:
            shell.note_variables(command, known)  # (`export -n DOCKER_HOST`, `declare +x …`: no "=")
        if "context " in command:
            docker_contexts.note_contexts(command, known)
        if "pipefail" in command or "FAIL" in command or "_fail" in command:  # zsh: setopt PIPE_FAIL
            if pipefail_after(command, _PIPEFAIL in known):
                known[_PIPEFAIL] = "on"
            else:
                known.pop(_PIPEFAIL, None)
        return target

    def _slurm_allocation(self, record: CommandRecord, output: str) -> None:
        """An interactive ``salloc`` (no command): the shell it opens holds the allocation's nodes
        (``salloc: Nodes gpu-node-12 are ready for job``) until its ``exit`` gives it back
        (``salloc: Relinquishing job allocation 123``); an ``srun`` typed there runs on them
        (:meth:`_shell_target`). Was: on the login node the prompt shows."""
        if "Relinquishing job allocation" in output:
            # (typed at the node's own prompt where salloc opens the shell there: the login
            # shell's note goes too)
            for known in self.shell_variables.values():
                known.pop(_SLURM_NODES, None)
            return
        known = self.shell_variables.setdefault(record.host, {})
        if shell.program_names(record.inner)[:1] == ["salloc"] and (nodes := shell.allocated_nodes(output)):
            known[_SLURM_NODES] = nodes

    def _echoed_status(self, record: CommandRecord, ev: Event, st: _Agent, info: AgentInfo, stretch: bool) -> None:
        """A terminal log's ``echo $?``: its output is the exit status of the command before it
        in the same shell, which the log states nowhere else (bash(1), Special Parameters: "?
        expands to the exit status of the most recently executed foreground pipeline")."""
        if len(st.commands_typed) < 2 or st.commands_typed[1] is not record or "$" not in record.inner:
            return
        prev = st.commands_typed[0]
        if prev.exit_code is not None:
            return
        # `echo $?`, and `echo "status: $?"`, `echo rc=$?` (its words around the number)
        status = typed_echo_status(record.inner, ev.text or "")
        if status is None:
            return
        failed_before = prev.is_error
        self._status_of(prev, status, st, info)
        if prev.is_error and not failed_before:
            # the failure the status made is an error of the session, as a prompt's status gives
            # one (was: a failed call with no error: `false` then `echo $?` said nothing of it)
            quiet = st.quiet_typed
            shown = quiet[1] if quiet is not None and quiet[0] is prev else None
            found = failures.extract_errors(shown.text, status, False, status_known=False) \
                if shown is not None and shown.text else []
            found = found or (failures.ErrorInfo("exit_code", None, f"exit code {status}"),)
            self._errors_seen(shown or ev, info, stretch, found, prev.host, prev.seq)
            # and it prompts a change of approach as a prompt's status does (was: `python3 bench.py
            # > bench.log 2>&1`, `echo $?` printing 1, then `nvidia-smi` was no turn to the GPUs)
            err = found[0]
            st.trigger = _Trigger(prev.result_seq if prev.result_seq is not None else prev.seq, "error",
                                  cut_at_word(failures.error_said(err.exception, err.kind, err.message), 160),
                                  prev.category, tuple(st.recent), prev.command, not_up_yet(err), prev.host)

    def _status_before(self, record: CommandRecord, status: int, st: _Agent, info: AgentInfo) -> None:
        """``status``, that the shell left with at ``record`` (a bare ``exit``), is the status of
        the command typed before it in the same shell, where that has none."""
        if len(st.commands_typed) < 2 or st.commands_typed[1] is not record:
            return
        prev = st.commands_typed[0]
        # typed in the same shell: not the last of an ssh login's commands (`exit` there, then
        # here: the status is ssh's, that of the login), though a one-shot `ssh gpu02 cmd` is
        if prev.exit_code is None and prev.command not in ("exit", "logout") \
                and ((prev.host or "").lower() == (record.host or "").lower() or prev.inner != prev.command):
            self._status_of(prev, status, st, info)

    def _status_of(self, prev: CommandRecord, status: int, st: _Agent, info: AgentInfo) -> None:
        """``prev`` ended with ``status``, which the log gives after its output: the status, and
        the failure it makes or undoes."""
        prev.exit_code = status
        if prev.exit_code == 0 and prev.is_error and st.gave_up_typed is prev:
            return  # `pip install x | tail -1`: the 0 is tail's, pip's last words say it failed
        if prev.exit_code == 0 and prev.is_error:
            # the output alone read it as failed (a last "Error: ..." line a program went on from,
            # python_exit; a program's own failure line): the shell says it succeeded. What it
            # printed stays among the session's errors, as a server log's do.
            prev.is_error = False
            info.failed_calls -= 1
            self._loop_step_undone(st, prev)
            return
        # (a selector's 1, `grep` finding nothing, is an answer: as for a status the tool recorded)
        if prev.exit_code and not prev.is_error and not (prev.exit_code == 1 and (
                shell.selects_lines(prev.inner) or st.unreadable_only is prev)) \
                and not (prev.exit_code == SIGINT_STATUS and st.stopped_typed is prev):
            prev.is_error = True
            info.failed_calls += 1

    def _loop_step_undone(self, st: _Agent, prev: CommandRecord) -> None:
        """``prev`` succeeded after all (its ``echo $?`` said 0): the step it added to its
        template's streak of failures is taken back, and as a success of that template it ends
        what is left of the streak (_loop). Was: three runs that printed a last "Error: ..." line
        and exited 0 were a loop of failing runs."""
        step = st.streak_before
        streak = st.failing.get(step[0]) if step is not None else None
        st.streak_before = None
        if streak is None or streak.last_seq != prev.seq:
            return
        del st.failing[step[0]]
        if streak.count > 1:
            streak.count -= 1
            streak.last_seq = step[1]
            self._emit_loop(streak)

    def _jobs_ended(self, ev: Event, st: _Agent, info: AgentInfo, stretch: bool) -> None:
        """The background commands whose end the shell reported in ``ev``'s output (job_ends): a
        status or a signal their call failed with, its error theirs, on their host."""
        for end in job_ends(ev.text):
            key = ended_job(st.background, end)
            record = st.background.pop(key) if key is not None else None
            if record is None or record.is_error:
                continue
            record.exit_code = end.exit_code
            if not end.exit_code:
                continue
            record.is_error = True
            info.failed_calls += 1
            self.error_count += 1
            info.errors += 1
            self.phases.segment_for(ev, stretch=stretch).errors += 1
            kind = "signal" if end.signal else "exit_code"
            self._keep(self.kept["errors"], ErrorRecord(
                self.session, ev.seq, ev.agent, kind, end.signal, end.line[:500], None, None,
                record.host, record.seq, ev.timestamp, ev.file, ev.line))

    @staticmethod
    def _why(st: _Agent) -> str:
        if st.last_why is None:
            st.last_why = reasoning.why_text(st.last_text[-1000:])
            st.last_text = ""
        return st.last_why

    # -- extractors with session state -------------------------------------
    def _metric(self, ev: Event, m: metrics.Metric, host, source: str, st: _Agent | None = None,
                call: _Call | None = None, plain: bool = False) -> MetricRecord:
        """``plain``: read from a benchmark of a server launched without speculation, so its
        throughput is also a baseline, which later readings are compared with (not itself compared)."""
        rec = MetricRecord(self.session, ev.seq, ev.agent, m.name, m.value, m.unit, host, m.context, source,
                           ev.timestamp, ev.file, ev.line, plain and m.name in ("throughput", "accept_length"),
                           call.record.command if call is not None and call.record is not None else "")
        if self.kept_metrics.add(rec):  # _keep inline
            self.dropped += 1
        if ev.agent != MAIN_AGENT:
            if self.reports:
                self._drop_report_copy(rec)
            if len(said := self.sub_readings.setdefault(ev.agent, [])) < 50:
                said.append(rec)
        if m.name == "baseline_throughput":
            # The benchmark with EAGLE-3 often runs first, the one without speculation after (or
            # "without it we had 520 tok/s" is said later): the readings no baseline was there for
            # are compared now (was no SD501, while the postmortem said "410 tok/s against a 520
            # tok/s baseline").
            if source == "prose" and (printed := self.unsaid.get(ev.agent)):
                # "The speedup is 1.51x (61.0 vs 40.3 tok/s)" just after a benchmark printed 40.3:
                # that run was the baseline (it was the impact's "after": "went from 61 to 40.3")
                run = next((r.seq for r in reversed(printed) if r.name == "throughput" and _restates(m.value, r.value)), None)
                for r in printed:
                    if r.seq == run:  # its accept length too (1.0: no drafter), no "after" of the impact
                        r.baseline = True
            self._late_baseline(rec, ev, call)
        elif m.name == "throughput":
            if source == "output" and not plain and len(printed := self.unsaid.setdefault(ev.agent, [])) < 16:
                printed.append(rec)
            # The baseline of the reading's own row (batch size, model, engine), not the last one read.
            baseline = self.baselines.pair(rec, _printed_by(call)) if not plain else None
            if plain:
                # the server relaunched without speculation after the EAGLE-3 run: as a baseline
                # said later, the readings before it are compared now (its return was dropped,
                # and the 80.5 tok/s EAGLE-3 run before a 120 tok/s plain one had no SD501)
                self._late_baseline(rec, ev, call)
            if baseline is not None and m.value < baseline.value * _SLOWER:
                where = "" if baseline.seq == ev.seq else f" [msg {baseline.seq}]"
                self._finding("SD501", ev, f"{m.value:g} tok/s measured vs {baseline.value:g} tok/s baseline{where}",
                              host, extra_seqs=[baseline.seq])
            if source == "output" and st is not None and call is not None and not plain:
                # of the reading's own host: gpu01's 81 tok/s after a change did not fail to
                # "improve on" the 82 of gpu02, which that change never touched
                prev = self.best_throughput.get(host)
                # The first reading only measures the reported slowness: what comes next is the
                # investigation, not a change of approach. A later one that did not improve on the
                # best so far, or is still under the baseline, says the last attempt did not work.
                flat = prev is not None and m.value <= prev * 1.05
                below = baseline is not None and m.value < baseline.value * _SLOWER
                # "Not improving" only after something that may have changed the server since the
                # last reading: the decode log's 96 tok/s then bench_serving's 94.7 of the same
                # server, or a benchmark then the log of the fixed one, measure one state twice (no
                # attempt failed, and the kill that cleans up after it is no change of approach).
                flat = flat and max(self.changed_at.get(host, -1), self.changed_at.get(None, -1)) > \
                    self.read_at.get(host, -1)
                if prev is not None and (flat or below) and st.trigger is None:
                    if flat:
                        why = f"not improving on {prev:g}" + (f", baseline {baseline.value:g}" if below else "")
                    else:
                        why = f"still below the {baseline.value:g} tok/s baseline"
                    st.trigger = _Trigger(ev.seq, "metric", f"throughput {m.value:g} tok/s {why}",
                                          call.category, tuple(st.recent))
            if source == "output" and not plain:
                # the baseline is no attempt of the agent's: the EAGLE-3 run after it "did not
                # improve on" the last EAGLE-3 run, not on the server without speculation
                self.best_throughput[host] = max(self.best_throughput.get(host, 0.0), m.value)
                self.read_at[host] = ev.seq
        elif m.name == "speedup" and m.value < _SLOWER:
            self._finding("SD501", ev, f"{m.value:g}x speedup: slower than without speculation ({m.context})", host)
        elif m.name == "accept_length" and source == "output" and not plain and self.unsaid.get(ev.agent) \
                and len(printed := self.unsaid[ev.agent]) < 16:
            printed.append(rec)
        elif m.name == "validation_accuracy":
            self.claimed_accuracy = rec
            for standalone in self.standalone_accuracy:
                self._check_sd401(standalone, ev)
        elif m.name == "standalone_accuracy":
            self.standalone_accuracy.append(rec)
            del self.standalone_accuracy[:-50]
            self._check_sd401(rec, ev)
        return rec

    def _late_baseline(self, rec: MetricRecord, ev: Event, call: _Call | None) -> None:
        """Note the baseline ``rec``; SD501 for each earlier reading no baseline was there for that
        is slower than it."""
        for earlier in self.baselines.note(rec, _printed_by(call)):
            if earlier.value < rec.value * _SLOWER:
                self._finding("SD501", ev, f"{earlier.value:g} tok/s measured vs {rec.value:g} tok/s baseline "
                              f"[msg {ev.seq}]", earlier.host, seq=earlier.seq, extra_seqs=[ev.seq])

    def _plain_server(self, call: _Call, x: Extracted) -> CommandRecord | None:
        """The launch of the server a benchmark measured, when that server runs without speculation:
        the last launch on the host the benchmark's --host/--base-url names (its own host for
        localhost or none), which did not fail, and an output that shows no drafting."""
        bench = call.record
        if bench is None:
            return None
        accepts = [m for m in x.metrics if m.name in ("accept_length", "accept_rate")]
        target = _bench_target(bench.inner)
        key = (bench.host.lower() if bench.host else None) if target is None else target.lower()
        ports = self.served.get(key)
        if not ports:
            # Servers the session found running (the on-call engineer benchmarks the server
            # without speculation on 30001 beside the EAGLE-3 one on 30000): no launch to read, so
            # the words before the benchmark say which one it measured, and its output shows no
            # drafting (SGLang's bench_serving prints "Accept length" only for a server that
            # reports one: python/sglang/bench_serving.py `if accept_length:`). Was a reading
            # with speculation: the impact's "before" (throughput "rose from 90", the baseline,
            # "to 171.2"), and no SD501 for the 54.8 tok/s EAGLE-3 run beside it. With no accept
            # length printed the words must say "without speculation": "a baseline" alone is as
            # often the deployment as it is before a change.
            if all(m.name == "accept_length" and m.value == 1.0 for m in accepts) and \
                    (_says_baseline_run(bench.why) if accepts else _says_plain_run(bench.why)):
                return bench
            return None
        port = named_port(bench.inner)
        if port is not None and port not in ports and None not in ports and None in ports.values() \
                and _says_baseline_run(bench.why) and all(m.name == "accept_length" and m.value == 1.0 for m in accepts):
            # EAGLE-3 launched on 30000, then "Let me verify that the baseline is lower without the
            # draft" and a benchmark of 30001, a server the session did not launch: the run without
            # speculation beside it (was the "after" of the impact: "went from 61 to 40.3 tok/s").
            # An accept length of 1.0 is one token a step: nothing drafted was accepted.
            return bench
        if accepts:
            return None
        if port is None and (default := _bench_default_port(bench.inner)) is not None \
                and (default in ports or None in ports):
            # `vllm bench serve` with no --port sends to 8000: EAGLE-3 served there (or with no
            # --port), the plain server on 8001 launched last is not the one measured (the EAGLE-3
            # reading was a second baseline, and SD501 never fired)
            port = default
        # The server on the port the benchmark names (the baseline on 30001 beside EAGLE-3 on
        # 30000): else a launch that named none; a benchmark that names none, the last launch.
        launch = list(ports.values())[-1] if port is None else ports.get(port, ports.get(None))
        if launch is None or launch.is_error or launch.exit_code not in (None, 0):
            return None
        return launch

    def _read_by_spawned(self, ev: Event) -> list[MetricRecord]:
        """The readings read so far of the sub-agent whose report ``ev`` is: the agent its result
        names (``toolUseResult.agentId``; the tree links spawns once the file is read)."""
        if ev.agent_ref:
            return self.sub_readings.get(ev.agent_ref, [])
        for info in self.tree.agents.values():
            if info.spawned_by == ev.call_id:
                return self.sub_readings.get(info.id, [])
        return []

    def _drop_report_copy(self, rec: MetricRecord) -> None:
        """A sub-agent's reading restated in the report its parent received (the Task tool's
        result is the sub-agent's final text) is one reading, not two: the parent's copy is
        dropped and the sub-agent's own, with its host and command, kept. Sub-agent files are
        read after the trunk, so the copy is found when the reading arrives. A report whose
        sub-agent file is missing keeps its readings: they are all there is."""
        agent_id, depth = rec.agent, 0
        while agent_id is not None and agent_id != MAIN_AGENT and depth < 16:
            info = self.tree.agents.get(agent_id)
            if info is None:
                return
            report = self.reports.get(info.spawned_by) if info.spawned_by else None
            for i, copy in enumerate(report or ()):
                if copy.name == rec.name and _restates(copy.value, rec.value):
                    del report[i]
                    self.kept["metrics"].discard(copy)
                    break
            agent_id, depth = info.parent, depth + 1

    def _check_sd401(self, standalone: MetricRecord, ev: Event) -> None:
        claimed = self.claimed_accuracy
        if claimed is not None and standalone.value < claimed.value - SD401_GAP_POINTS:
            self._finding("SD401", ev, f"standalone accuracy {standalone.value:g}% [msg {standalone.seq}] vs claimed "
                          f"{claimed.value:g}% [msg {claimed.seq}]", standalone.host,
                          seq=max(standalone.seq, claimed.seq), extra_seqs=[standalone.seq, claimed.seq])

    def _concat(self, ev: Event, x: Extracted, read: int | None = None, host: str | None = None) -> None:
        """``read``: of a text, the result seq of the command whose output the agent had just
        read (a mismatch said in words was seen there: distill keeps that check); ``host``: where
        the command that printed or ran it ran (of a text, the one just read)."""
        if not x.concat_orders and not x.layer_ids:
            return
        for order in x.concat_orders:
            if all(o["order"] != list(order) for o in self.kept["concat_orders"].recent(50)):
                self._keep(self.kept["concat_orders"], {"seq": ev.seq, "agent": ev.agent, "order": list(order)})
            # Only a concatenation of target layers' hidden states is a draft input whose
            # order can disagree with training (SD201): two unrelated cat([a, b]) calls, or
            # the same layers spelled hs[3] and layer3, are no mismatch.
            layers = spec_facts.layer_sequence(order)
            if layers is None:
                continue
            # positions in the captured list (aux_hidden_states[0]) compare only with positions
            key = (len(order), "aux" if any(kind == "aux" for kind, _ in layers) else "layer")
            seen = self.concat_seen.get(key)
            if seen is None:
                self.concat_seen[key] = (order, ev.seq, layers)
            elif seen[2] != layers:
                first, second = f"cat([{', '.join(seen[0])}])", f"cat([{', '.join(order)}])"
                text = (f"[msg {ev.seq}] {first} vs {second}" if seen[1] == ev.seq else
                        f"[msg {seen[1]}] {first} vs [msg {ev.seq}] {second}")
                # the same layers, every index one apart: the +1 convention (hidden_states[3] of a
                # HF forward is layer 2's output), as for two lists of layer ids below
                shifts = {b[1] - a[1] for a, b in zip(seen[2], layers)} if \
                    all(a[0] == b[0] for a, b in zip(seen[2], layers)) else set()
                self._finding("SD202" if shifts in ({1}, {-1}) else "SD201", ev, text, host, extra_seqs=[seen[1]],
                              read=read)
        for ids in x.layer_ids:
            seen = self.layer_ids_seen.get(len(ids))
            if seen is None:
                self.layer_ids_seen[len(ids)] = (ids, ev.seq)
            elif seen[0] != ids:
                code = "SD202" if all(b - a in (1, -1) for a, b in zip(seen[0], ids)) and \
                    len({b - a for a, b in zip(seen[0], ids)}) == 1 else "SD201"
                self._finding(code, ev, f"[msg {seen[1]}] layer ids {list(seen[0])} vs [msg {ev.seq}] {list(ids)}",
                              host, extra_seqs=[seen[1]], read=read)

    def _observed(self, obs: spec_facts.Observation, ev: Event, host: str | None, read: int | None = None) -> None:
        """A finding of ``obs``; the engines' "Cannot find any model weights" for the draft is SD710
        only once the session has shown the stale index too (spec_facts.STALE_INDEX_LISTING),
        before or after it: the same error comes of a folder with only model.pth, only a trainer's
        state, or nothing, which SD710 names only where `diagnose` lists the folder (configs step,
        "The draft folder holds no weight file the engines load"); the error alone does not tell
        these apart, so it is no finding."""
        if obs.code == spec_facts.STALE_INDEX_LISTING:
            if self.index_listing is None:
                self.index_listing = (ev.seq, obs.evidence)
                for e, evidence, h, r in self.no_weights:
                    self._finding("SD710", e, evidence, h, extra_seqs=[ev.seq], read=r)
                    self._finding("SD710", e, f"[msg {ev.seq}] {obs.evidence}", h, extra_seqs=[ev.seq])
                self.no_weights.clear()
            return
        if obs.code == "SD710":
            if self.index_listing is None:
                if len(self.no_weights) < 5:
                    self.no_weights.append((ev, obs.evidence, host, read))
                return
            seq, listing = self.index_listing
            self._finding("SD710", ev, obs.evidence, host, extra_seqs=[seq], read=read)
            self._finding("SD710", ev, f"[msg {seq}] {listing}", host, extra_seqs=[seq])
            return
        self._finding(obs.code, ev, obs.evidence, host, severity=obs.severity, read=read)

    def _finding(self, code: str, ev: Event, evidence: str, host: str | None = None, *,
                 seq: int | None = None, extra_seqs: list[int] | None = None, severity: str | None = None,
                 read: int | None = None) -> None:
        """``severity``: where the observation sets it (None: the catalog's); ``read``: the output
        the agent had just read when it said it (FindingRecord.read_seqs). One record a code: the
        gravest severity of its observations is the record's."""
        seq = ev.seq if seq is None else seq
        line = evidence if evidence.startswith("[msg") else f"[msg {seq}] {evidence}"
        if read is not None and ((ev.agent, code) in self.stated or len(self.stated) >= 4096):
            read = None  # said again (the closing summary after a last `git commit`): that showed nothing
        self.stated.add((ev.agent, code))
        existing = self.findings.get(code)
        doc = CATALOG[code]  # severity, title and fix come from the finding catalog
        severity = severity or doc.severity
        if existing is None:
            existing = FindingRecord(self.session, code, seq, ev.agent, severity, doc.title, [], [], host,
                                     doc.fix)
            self.findings[code] = existing
            self._keep(self.kept["findings"], existing)
        elif SEVERITY_RANK.get(severity, -1) > SEVERITY_RANK.get(existing.severity, -1):
            # an n-gram launch's warning first, then an EAGLE-3 launch capped at one step: an error
            existing.severity = severity
        if host and host not in existing.hosts and len(existing.hosts) < 10:
            existing.hosts.append(host)  # was the first host's alone: gpu02's same launch went unsaid
        if len(existing.evidence) < 5 and line not in existing.evidence:
            existing.evidence.append(line)
        for s in [seq, *(extra_seqs or [])]:
            if s not in existing.evidence_seqs and len(existing.evidence_seqs) < 10:
                existing.evidence_seqs.append(s)
        if read is not None and read not in existing.read_seqs and len(existing.read_seqs) < 10:
            existing.read_seqs.append(read)
        answered = self.answered
        if answered is not None and answered[0] is ev and seq == ev.seq \
                and answered[1] not in existing.evidence_commands and len(existing.evidence_commands) < 10:
            existing.evidence_commands.append(answered[1])  # which of the calls its message answers

    @staticmethod
    def _own_server(ev: Event, st: _Agent, category: str, target: shell.Target | None) -> bool:
        """Note a server the agent starts; True for a command that stops one it started: a test
        server beside the one under investigation (`--port 30001`), benchmarked and killed. Cleaning
        up after an attempt is no change of approach: what the agent does next is."""
        # an ssh to a host no word names (`ssh $h` in a for loop) ran on no host we know: not
        # the prompt's (as its command record has it, shell.Target.unnamed)
        host = (target.host or (None if target.unnamed else ev.host)) if target is not None else ev.host
        host = host.lower() if host else None
        inner = (target.inner if target is not None else None) or ev.command
        if category == "launch_server":
            if st.own_servers is None:
                st.own_servers = OwnServers()
            st.own_servers.launched(host, inner)
            return False
        return st.own_servers.stop(host, inner)

    def _pivot_check(self, ev: Event, st: _Agent, category: str, target: shell.Target | None) -> None:
        trig = st.trigger
        if trig is None or ev.seq <= trig.seq:
            return
        if category == "other" and ev.spawn is None and (not ev.command or _idle(ev.command)):
            # a to-do list updated (TodoWrite), a `sleep 5` or an `echo`: no step of either
            # approach; what the agent runs next says whether it changed course (was: the change
            # after it went unnoticed). A sub-agent spawned still ends the wait, as before.
            return
        st.trigger = None
        # Editing after an error is the ordinary fix-and-retry loop, not a change of approach.
        if category in trig.recent or category == trig.category or category in ("edit", "other"):
            return
        if trig.command and ev.command and _retyped(trig.command, ev.command):
            # `nvidai-smi` (command not found), then `nvidia-smi`: the same command with its typo
            # put right is no change of approach, though the typo read as another kind ("other");
            # distill made the typo a step, and its correction "the first step of a change"
            return
        if trig.kind == "error" and ev.command and \
                _looks_for_missing(trig.summary, (target.inner if target is not None else None) or ev.command):
            # "No such file or directory: '/data/eagle3/freq.pt'", then `ls -la /data/eagle3/`: the
            # agent looks for the file it named wrong, to run the same command again
            return
        if trig.not_up and category in _WAITS_FOR_SERVER and "launch_server" in trig.recent \
                and trig.host == st.last_launch_host:
            # a benchmark refused a connection just after the agent launched its server there: it
            # is still loading the weights; polling /health, reading its log until "ready to roll"
            # (then running the benchmark again) is waiting for it, not a change of approach. (A
            # refusal on another host than the launch's is of another server.) Held until its
            # output is read: a log that shows the server died loading (an OOM) was a turn to it.
            st.held_pivot = (ev, trig, category, target)
            return
        self._emit_pivot(ev, trig, category, target)

    def _emit_pivot(self, ev: Event, trig: _Trigger, category: str, target: shell.Target | None,
                    errors: int | None = None) -> None:
        """``errors``: for a pivot held until the call's output was read, the errors that output
        showed (counted in the phase before; they move to the pivot's with the call)."""
        what = _STEP_TITLES
        if ev.command:
            shown = (target.inner or ev.command) + (f" (on {target.host})" if target.host else "")
        else:
            shown = f"{ev.tool_name} {ev.path or ''}".strip()
        title = what[category]
        summary = (f"After {trig.summary} [msg {trig.seq}], moved from {what[trig.category].lower()} to "
                   f"{title.lower()}: {shown[:240]}")
        check = category in _STEP_CATEGORY  # a look at an installed version
        category = _STEP_CATEGORY.get(category, category)  # commands[]' categories, as the JSON has them
        pivot = PivotRecord(self.session, ev.seq, trig.seq, trig.kind, summary, ev.agent, trig.category, category,
                            ev.timestamp, trig.command)
        self._keep(self.kept["pivots"], pivot)
        if ev.agent == MAIN_AGENT and errors is not None:
            host = (target.host or (None if target.unnamed else ev.host)) if target is not None else ev.host
            self.phases.pivot_at_call(ev.seq, title, trig.seq, ev.timestamp, category, host,
                                      bool(ev.command), errors, check)
        elif ev.agent == MAIN_AGENT:
            self.phases.boundary(ev.seq, "pivot", title, pivot_from=trig.seq, ts=ev.timestamp, kind=category)

    def _loop(self, ev: Event, st: _Agent, call: _Call | None, failed: bool, found) -> None:
        """Count failures per command template. Other commands in between (an edit, a copy)
        do not break the streak; a success of the same template ends it."""
        if call is None or call.record is None:
            return
        streak = st.failing.get(call.template)
        if not failed:
            if streak is not None:
                self._emit_loop(st.failing.pop(call.template))
            return
        st.streak_before = (call.template, streak.last_seq if streak is not None else 0)
        if streak is None:
            message = (found[0].exception or found[0].message) if found else ""
            st.failing[call.template] = LoopRecord(self.session, ev.agent, call.template, 1, call.seq, call.seq,
                                                   message[:200])
            if len(st.failing) > 64:
                self._emit_loop(st.failing.pop(next(iter(st.failing))))
        else:
            streak.count += 1
            # Background commands end in the order they finish, not the one they were started in
            # (and a sub-agent's end written in the trunk is read after its whole file).
            streak.first_seq = min(streak.first_seq, call.seq)
            streak.last_seq = max(streak.last_seq, call.seq)

    def _emit_loop(self, streak: LoopRecord) -> None:
        if streak.count >= LOOP_MIN:
            self._keep(self.kept["loops"], streak)

    def _prose_hosts(self) -> None:
        """The host of each reading stated in prose before a command ran on the host it names
        (a prompt's "slow on gpu03: 620 tok/s" read before ``ssh gpu03``), now that the session's
        hosts are all known. Its SD501 pairing was done without it, as before."""
        hosts = self.command_hosts
        asked = {id(rec) for rec in self.unnamed_prose}  # (alive: the deque holds them)
        for rec in (*self.kept_metrics.head, *self.kept_metrics.tail):
            if rec.source == "prose" and rec.host is None and id(rec) not in asked:
                rec.host = named_host(rec.context, rec.value, hosts)

    def _gave_up(self) -> None:
        """A sub-agent whose every call failed and whose report says it could not do the task
        ("I was unable to read the log: ssh failed") failed, though its parent's result says
        ``completed``: the Task tool's status says the agent returned, not that it succeeded
        (tokentelemetry PR #370 marks such an agent failed; AgentTree.finish does so only where no
        status was given)."""
        for agent_id, words in self.last_words.items():
            info = self.tree.agents.get(agent_id)
            if info is not None and info.status == "completed" and info.tool_calls \
                    and info.failed_calls == info.tool_calls and _GAVE_UP.search(words):
                info.status = "failed"

    def finish(self) -> None:
        if self.spawns_answered:
            self._spawn_pivots()
        for agent_id in self.api_failed:
            info = self.tree.agents.get(agent_id)
            if info is not None and info.status in ("unknown", "completed"):
                # the report it was spawned for never came: the CLI says "completed" all the same,
                # the error text as the agent's answer (anthropics/claude-code issue #84155, 2.1.220)
                info.status = "failed"
        if self.last_words:
            self._gave_up()
        if self.source.format == "claude-code":  # (a sub-agent's file holds its report: AgentInfo.cut_off)
            for agent_id, info in self.tree.agents.items():
                if agent_id != MAIN_AGENT and info.events:
                    # text after its last call is its report (last_words): none came, it was cut off
                    info.cut_off = info.tool_calls > 0 and agent_id not in self.last_words
        for st in self.agents.values():
            for streak in st.failing.values():
                self._emit_loop(streak)
        if self.command_hosts:
            self._prose_hosts()
        if self.spawn_reports:
            self._reported_causes()
        for name, items in self.kept.items():
            values = items.values()
            if name == "loops":
                values.sort(key=lambda lp: lp.first_seq)
            getattr(self.out, name).extend(values)
        base = len(self.out.segments)
        for i, seg in enumerate(self.phases.finish()):
            seg.index = base + i
            self.out.segments.append(seg)
        self.dropped += self.phases.dropped


