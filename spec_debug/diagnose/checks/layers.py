"""SD201-SD204: which target layers the engine feeds the draft, against training.

Layer ids are compared in one convention, "input-to-layer" (id i = the residual stream
entering 0-indexed decoder layer i; SGLang PR #25454), as spec_debug.eagle3.engines returns
them. The engine rules (+1 or not, which config key is read, default ids) live in that table.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Mapping, Sequence

from spec_debug.diagnose.checks.common import Where
from spec_debug.eagle3 import engines
from spec_debug.record import Finding


# How LayerAnalysis.trained_source names ids read from a misspelled key (engines.misspelled_layer_ids)
MISSPELLED = "a misspelling of"


@dataclass(frozen=True)
class LayerFix:
    """A draft config change after which the engine serves the trained ids."""

    key: str
    """Dotted key under which the ids go (``eagle_config.eagle_aux_hidden_state_layer_ids``)."""
    ids: list[int]
    """In the engine's own convention (SGLang adds 1 to what it reads on most targets)."""
    min_version: str | None
    """The first release that serves them; None when the running version already does."""
    before_version: str | None = None
    """Set when only releases older than the running one serve them: the first release that no
    longer does (min_version is then the oldest of that range, None = every older one)."""
    reads_back_as: list[int] | None = None
    """What this check reads from the config once the ids are written, with no training dump,
    when that is not the trained list: ids in SGLang's +1 convention starting at 2 or later,
    which PR #25454's rule (and this check) reads as input-to, or ids for an older release that
    adds 1 where the newest does not (a DeepSeek-family list starting at 0 before 0.5.13). A
    config alone cannot tell the two apart, so the remediation says so instead of leaving the
    re-run to contradict it."""
    nested: tuple[list[int], list[int] | None] | None = None
    """A top-level fix in a plain config whose eagle_config ids read as other layers: (the ids
    there now, what to write there instead; None = remove them). This check (and SpecForge)
    reads a plain config's trained layers from the nested key before the top-level one
    (engines.trained_layer_ids), so left stale they are what a re-run without the training
    dump compares the engine against, and it would propose the old ids back."""
    sglang_serves: list[int] | None = None
    """With `nested` applied, the layers the newest SGLang serves on this target from the fixed
    config when they are not the trained ones: SGLang reads that key too (models/llama.py adds 1
    to every id; a list it no longer holds gives its default), and no list there may read as the
    trained layers both in this check's reading and in SGLang's (Llama path ids from 2 on)."""
    vllm_serves: list[tuple[str, str | None, list[int]]] | None = None
    """For an SGLang fix (eagle_config ids in SGLang's reading): the vLLM release ranges
    [since, until) (until None = the newest read) that read that key too, raw, and so serve
    other layers than the trained ones from the fixed config, with what they serve. vLLM's V1
    runner reads eagle_config's ids after the top-level key from 0.22.0 (v1/worker/
    gpu_model_runner.py `_get_eagle3_aux_layers_from_config`) and never adds 1, where SGLang's
    models/llama.py adds 1 to each: the [0, 2, 4] written for layer-inputs [1, 3, 5] is served
    by vLLM 0.22 as [0, 2, 4] (the config_keys rows say which runner, target and release)."""
    angelslim: tuple[list[int], list[int]] | None = None
    """A plain config whose AngelSlim key (engines.ANGELSLIM_KEY) reads as other layers: (the
    ids there now, what to write there instead, the trained ids - 1 in AngelSlim's output-of
    convention). This check reads the trained layers from that key before any engine key
    (engines.trained_layer_ids), so left stale it is what a re-run without the training dump
    compares the engine against, whichever key the fix writes."""
    num_aux: tuple[str, int] | None = None
    until_version: str | None = None
    """For a fix that needs a later release (min_version, no before_version): the first release
    after it that no longer serves the trained ids from the fixed config (a rule of the table
    changes against it: SGLang's DeepSeek files stop adding 1 to ids not starting at 1 in
    0.5.13), so the fix names the range it holds for; None when every later release read does."""
    """(dotted key, count) to write beside the ids when the engine would otherwise build fc for
    another number of aux states than it then captures: vLLM (0.22.0 on) and SGLang (0.5.12 on)
    size fc from ``num_aux_hidden_states``, else the length of eagle_config's ids, else 3
    (vllm and sglang models/llama_eagle3.py), never from vLLM's top-level ids, so a 4-layer
    draft written there alone fails to load fc.weight (the fc_fan_in rows)."""

    def remediation(self, engine: str) -> str:
        return (self._change(engine) + self._stale_nested() + self._stale_angelslim()
                + self._vllm_reads_too() + self._ambiguity())

    def _vllm_reads_too(self) -> str:
        if not self.vllm_serves:
            return ""
        ranges = "; ".join(f"vLLM >= {lo}" + (f" and < {hi}" if hi else "") + f" serves {ids}"
                           for lo, hi, ids in self.vllm_serves)
        return (f" vLLM reads {self.key} too, raw (it never adds 1), when the top-level "
                f"{engines.TOP_LEVEL_KEY} is absent: {ranges} from this config on this target, "
                "not the trained layers; if vLLM also serves this draft, give it a config of "
                f"its own with {engines.TOP_LEVEL_KEY} set to the trained layer-inputs.")

    def _stale_angelslim(self) -> str:
        if self.angelslim is None:
            return ""
        stale, write = self.angelslim
        return (f" Also set {engines.ANGELSLIM_KEY} = {write} (AngelSlim's own key, output-of "
                f"ids: the same layers): it holds {stale}, which reads as other trained layers, "
                "and a re-run without the training dump takes the trained layers from it before "
                "any engine key.")

    def _stale_nested(self) -> str:
        if self.nested is None:
            return ""
        stale, write = self.nested
        same = "" if self.sglang_serves is not None else " (the same layers as SGLang reads that key)"
        change = (f"set {engines.NESTED_KEY} = {write} beside it{same}" if write is not None else
                  f"remove {engines.NESTED_KEY} (no list there reads as these layers; SGLang "
                  "then serves its default)")
        other = ("" if self.sglang_serves is None else
                 f" SGLang (the newest release, on this target) then serves {self.sglang_serves} "
                 "from this config, not the trained layers: serve this draft with the engine "
                 "this fix is for, or give SGLang a config of its own.")
        return (f" Also {change}: it holds {stale}, which reads as other trained layers, and a "
                f"re-run without the training dump takes the trained layers from it.{other}")

    def _ambiguity(self) -> str:
        if self.reads_back_as is None:
            return ""
        return (" A config alone cannot tell these ids, written for the engine's +1, from input-to ids: "
                "in an EAGLE-format config (no speculators record of the trained ids) re-run "
                f"without the training dump, this check reads them as {self.reads_back_as} and "
                "calls the fixed draft SD202; re-run it with the training dump (its layer_ids) or "
                "trust the layout probe's served layers.")

    def _change(self, engine: str) -> str:
        if self.before_version:
            since = f">= {self.min_version} and " if self.min_version else ""
            upgrade = (f" and run an older {engine}, {since}< {self.before_version} (from "
                       f"{self.before_version} {engine} reads these ids another way; retraining on "
                       f"layers the running release serves is the other way out)")
        else:
            upgrade = f" and run {engine} >= {self.min_version}" if self.min_version else ""
            if self.min_version and self.until_version:
                upgrade += (f" and < {self.until_version} (from {self.until_version} {engine} reads these ids "
                            "another way)")
        beside = f" and {self.num_aux[0]} = {self.num_aux[1]}" if self.num_aux else ""
        # A fix for an embedding-trained draft starts at -1, which puzzles a reader who knows 0 as
        # the embedding output: the engine adds 1 to each id it reads there (SGLang's Llama path,
        # models/llama.py `[val + 1 for val in layer_ids]`; engines.trained_layer_ids), the only
        # reading that makes -1 a layer, which is why find_layer_fix found it.
        why = (f" ({engine} adds 1 to each id it reads there, so -1 is the embedding output)"
               if self.ids and self.ids[0] == -1 else "")
        return (f"Set {self.key} = {self.ids}{why}{beside} in the draft's config.json{upgrade}; restart the server "
                f"and confirm the served layers with the layout probe (hidden_state_format playbook).")


@dataclass(frozen=True)
class LayerAnalysis:
    engine: str
    engine_version: str | None
    num_target_layers: int
    trained: list[int]
    trained_source: str
    served: list[int]
    served_source: str
    configured: list[int] | None
    config_key: str | None
    used_default: bool
    unreachable: list[int]
    fc_fan_in: int | None
    shift: int | None
    """The common offset served - trained when every slot differs by the same amount."""
    sources: list[str]
    target_architecture: str | None = None
    fix: LayerFix | None = None
    """How to make the engine serve the trained ids (None: no release in the table can, or no
    mismatch); see :func:`find_layer_fix`."""
    other_reading: list[int] | None = None
    """The trained ids had the config's nested ids (read input-to, as the newest SGLang reads
    them on this target) been written for the running release's +1 instead, when that is what
    it serves: a config alone cannot tell the two (LayerFix.reads_back_as is the same
    ambiguity)."""

    @property
    def mismatch(self) -> bool:
        return self.served != self.trained

    def to_facts(self) -> dict[str, Any]:
        facts = asdict(self)
        facts["mismatch"] = self.mismatch
        for said_if_set in ("reads_back_as", "nested", "sglang_serves", "vllm_serves", "angelslim",
                            "num_aux", "until_version"):  # only where the fix is ambiguous / has stale
            # ids / sets fc's count / holds for a bounded range of later releases
            if facts["fix"] is not None and facts["fix"][said_if_set] is None:
                del facts["fix"][said_if_set]
        return facts


def analyse_layers(engine: str, engine_version: str | None, draft_raw: Mapping[str, Any],
                   num_target_layers: int, *, trained_layer_ids: Sequence[int] | None = None,
                   measured_served_ids: Sequence[int] | None = None,
                   target_architecture: str | None = None) -> LayerAnalysis:
    """Trained vs served ids. `trained_layer_ids` (e.g. from the training dump's `layer_ids`
    metadata) overrides what the config implies; `measured_served_ids` (a serving-path dump)
    overrides the engine table. `target_architecture` (the target config.json
    `architectures[0]`) picks the engine rules for that model class (SGLang adds 1 to the
    configured ids on a Llama target, not on DeepSeek from 0.5.13)."""
    plan = engines.serve_plan(engine, engine_version, draft_raw, num_target_layers, target_architecture)
    # nested ids starting at 0 or 1 mean what the newest SGLang does with them on this target,
    # whatever release runs: a config does not say which release it was written for, and the
    # running one is the release under suspicion (a DeepSeek [0, 3, 5] written for 0.5.22 and
    # served by 0.5.12, which adds 1, must stay SD202); a fix for an older release, read
    # another way here, says so (LayerFix.reads_back_as)
    reading = {"target_architecture": target_architecture}
    misspelled = engines.misspelled_layer_ids(draft_raw)
    if trained_layer_ids is not None:
        trained, trained_source = [int(i) for i in trained_layer_ids], "training data layer_ids"
    elif misspelled is not None:
        # the ids the hand edit meant, read in the convention of the key it misspells; the
        # engine finds no key it reads (plan.used_default) and serves its default
        written, meant, ids = misspelled
        trained = engines.trained_layer_ids(with_layer_ids(draft_raw, meant, ids), num_target_layers,
                                            **reading)
        trained_source = f"draft config {written}, {MISSPELLED} {meant}"
    else:
        trained = engines.trained_layer_ids(draft_raw, num_target_layers, **reading)
        has_ids = engines.configured_layer_ids(
            draft_raw, (engines.TOP_LEVEL_KEY, engines.NESTED_KEY)) is not None
        angelslim = engines.configured_layer_ids(draft_raw, (engines.ANGELSLIM_KEY,)) is not None
        trained_source = (f"draft config (AngelSlim {engines.ANGELSLIM_KEY}, +1)" if angelslim
                          else "draft config" if has_ids else "trainer default [2, N//2, N-3]")
    if measured_served_ids is not None:
        served, served_source = [int(i) for i in measured_served_ids], "measured (serving dump)"
    else:
        served, served_source = list(plan.layer_ids), f"{engine} {engine_version or 'latest'} convention"
    shift = None
    if len(served) == len(trained) and served:
        deltas = {s - t for s, t in zip(served, trained)}
        if len(deltas) == 1:
            shift = deltas.pop()
    other = None
    if (trained_source == "draft config" and plan.config_key == engines.NESTED_KEY
            and not engines.is_speculators_format(draft_raw) and plan.configured == trained
            and served == sorted({i + 1 for i in trained})):
        other = served
    fix = None
    if served != trained:
        fix = find_layer_fix(engine, engine_version, draft_raw, num_target_layers, trained, target_architecture)
    return LayerAnalysis(
        engine=engine, engine_version=engine_version, num_target_layers=num_target_layers,
        trained=trained, trained_source=trained_source, served=served, served_source=served_source,
        configured=plan.configured, config_key=plan.config_key, used_default=plan.used_default,
        unreachable=list(plan.unreachable), fc_fan_in=plan.fc_fan_in, shift=shift,
        sources=list(plan.sources), target_architecture=target_architecture, fix=fix,
        other_reading=other)


def find_layer_fix(engine: str, engine_version: str | None, draft_raw: Mapping[str, Any],
                   num_target_layers: int, trained: Sequence[int],
                   target_architecture: str | None = None) -> LayerFix | None:
    """The config ids (and, if needed, the engine release) that make `engine` serve `trained`.

    Found by asking the engine table itself (:func:`engines.serve_plan`) rather than by
    inverting its rules here: each key the engine reads, with the trained ids as they are and
    shifted by one (the engines disagree on output-of vs input-to), first on the running
    version, then on each later release where a rule changes, and last on the older releases
    (nearest first): a rule can also change against a draft (SGLang's DeepSeek files stopped
    adding 1 to ids not starting at 1 in 0.5.13, so input-to ids starting at 1 are served only
    before it), and "no release serves them" would then be wrong. Engines capture in layer
    order, so trained ids out of layer order have no config fix (retrain instead)."""
    trained = [int(i) for i in trained]
    running = engines.parse_version(engine_version)
    later = [b for b in _release_boundaries(engine) if engines.parse_version(b) > running]
    # (the release asked, the fix's min_version, its before_version)
    candidates = [(version, None if version == engine_version else version, None)
                  for version in [engine_version, *later]]
    candidates += [(probe, lo, hi) for lo, hi, probe in older_ranges(engine, engine_version)]
    for version, min_version, before_version in candidates:
        found = _fix_at(engine, version, draft_raw, num_target_layers, trained, target_architecture)
        if found:
            until = (_first_release_not_serving(engine, version, draft_raw, num_target_layers, found,
                                                trained, target_architecture)
                     if min_version and before_version is None else None)
            return LayerFix(*found[:2], min_version, before_version=before_version, until_version=until,
                            reads_back_as=_read_back(engine, version, draft_raw, num_target_layers,
                                                     found[:2], trained, target_architecture),
                            nested=found[2], sglang_serves=found[3],
                            vllm_serves=_vllm_serves(engine, draft_raw, num_target_layers, found[:2],
                                                     trained, target_architecture),
                            angelslim=_stale_angelslim(draft_raw, trained), num_aux=found[4])
    return None


def _first_release_not_serving(engine: str, version: str, draft_raw: Mapping[str, Any], num_target_layers: int,
                               found: tuple, trained: list[int], target_architecture: str | None) -> str | None:
    """LayerFix.until_version: the first rule boundary after `version` at which the config the
    fix writes (its ids, and fc count when it writes one) no longer serves `trained`. A fix that
    also rewrites stale nested ids is left unchecked (None)."""
    if found[2] is not None:
        return None
    fixed = with_layer_ids(draft_raw, found[0], found[1])
    if found[4] is not None:
        fixed = _with_value(fixed, *found[4])
    start = engines.parse_version(version)
    for boundary in _release_boundaries(engine):
        if engines.parse_version(boundary) <= start:
            continue
        plan = engines.serve_plan(engine, boundary, fixed, num_target_layers, target_architecture)
        if plan.layer_ids != trained or plan.unreachable or plan.fan_in_mismatch:
            return boundary
    return None


def _release_boundaries(engine: str) -> list[str]:
    """The releases where one of the engine table's rules for ``engine`` changes, oldest first."""
    return sorted({row.since for row in engines.rows_for(engine) if row.since}, key=engines.parse_version)


# a release before every boundary in the table: the oldest range's rules. Neither None nor "0"
# will do: parse_version reads both as the newest (0.0 is a source tree without version metadata)
OLDEST_RELEASE = "0.0.1"


def older_ranges(engine: str, engine_version: str | None) -> list[tuple[str | None, str, str]]:
    """The release ranges [lo, hi) wholly below the running release, nearest first, each with
    the version find_layer_fix asks the table at (lo, or OLDEST_RELEASE for the range before
    the first boundary; lo None there)."""
    running = engines.parse_version(engine_version)
    older = [b for b in _release_boundaries(engine) if engines.parse_version(b) <= running]
    return [(lo, hi, lo or OLDEST_RELEASE) for lo, hi in reversed(list(zip([None, *older[:-1]], older)))]


def _vllm_serves(engine: str, draft_raw: Mapping[str, Any], num_target_layers: int,
                 found: tuple[str, list[int]], trained: list[int], target_architecture: str | None
                 ) -> list[tuple[str, str | None, list[int]]] | None:
    """LayerFix.vllm_serves: for an SGLang fix in a plain config, each vLLM release range whose
    rules read the written eagle_config ids (asked of the engine table, serve_plan, at the
    range's first release) and serve other layers than `trained`; adjacent ranges serving the
    same are merged. None when no release does (a top-level key vLLM reads first, a runner
    that reads the top level only)."""
    if engine != "sglang" or found[0] != engines.NESTED_KEY or engines.is_speculators_format(draft_raw):
        return None
    fixed = with_layer_ids(draft_raw, *found)
    rows = engines.rows_for("vllm")
    edges = sorted({v for row in rows for v in (row.since, row.until) if v}, key=engines.parse_version)
    ranges: list[tuple[str, str | None, list[int]]] = []
    for lo, hi in zip(edges, [*edges[1:], None]):
        plan = engines.serve_plan("vllm", lo, fixed, num_target_layers, target_architecture)
        if plan.config_key != engines.NESTED_KEY or plan.layer_ids == trained:
            continue
        if ranges and ranges[-1][1] == lo and ranges[-1][2] == plan.layer_ids:
            ranges[-1] = (ranges[-1][0], hi, plan.layer_ids)
        else:
            ranges.append((lo, hi, list(plan.layer_ids)))
    return ranges or None


def _read_back(engine: str, version: str | None, draft_raw: Mapping[str, Any], num_target_layers: int,
               found: tuple[str, list[int]], trained: list[int],
               target_architecture: str | None) -> list[int] | None:
    """What analyse_layers reads from the draft once the fix is written (no training dump),
    when that is not `trained`; None when the fix reads back as what it serves. Read from the
    EAGLE-format config SGLang loads (it has no speculators loader), where the nested ids are
    the only record: a speculators config's own top-level ids are not carried into it. A plain
    config's AngelSlim key is (it is that config's own), as the fix writes it
    (_stale_angelslim): read first, it reads back as trained whatever the nested ids say."""
    if found[0] != engines.NESTED_KEY:
        return None  # vLLM's top-level key is read raw, as written
    if engines.is_speculators_format(draft_raw):
        plain = {k: v for k, v in draft_raw.items()
                 if k not in ("speculators_model_type", engines.TOP_LEVEL_KEY, engines.ANGELSLIM_KEY)}
    else:
        plain = {k: v for k, v in draft_raw.items() if k != engines.TOP_LEVEL_KEY}
        stale = _stale_angelslim(plain, trained)
        if stale is not None:
            plain = with_layer_ids(plain, engines.ANGELSLIM_KEY, stale[1])
    fixed = with_layer_ids(plain, *found)
    back = engines.trained_layer_ids(fixed, num_target_layers, target_architecture=target_architecture)
    return None if back == trained else back


def _fix_at(engine: str, version: str | None, draft_raw: Mapping[str, Any], num_target_layers: int,
            trained: list[int], target_architecture: str | None
            ) -> tuple[str, list[int], tuple[list[int], list[int] | None] | None,
                       list[int] | None, tuple[str, int] | None] | None:
    """(key, ids, the stale nested ids' change or None, what the newest SGLang then serves
    when that change leaves it serving other layers, the fc count written beside them or None)
    under which `version` serves exactly `trained`, if any. Each key the engine reads, in its
    order, with the ids alone and then, where the engine sizes fc from a count key, with that
    key set to the trained count too (LayerFix.num_aux): vLLM's top-level ids, the only ones its
    MRv2 runner reads, do not size fc, so a draft trained on another count than 3 needs both
    (and the top-level key, read first by every runner from 0.11.1, keeps serving them on later
    releases, where the V1 runner's eagle_config key is no longer read)."""
    counts: list[tuple[str, int] | None] = [None]
    fan_rule = engines.convention(engine, "fc_fan_in", version, target_architecture)
    if isinstance(fan_rule, tuple) and engines.NUM_AUX_KEY in fan_rule:
        # vLLM builds a speculators draft's hf_config from transformer_layer_config
        # (engines._engine_view): a top-level count never reaches it there
        count_key = (f"transformer_layer_config.{engines.NUM_AUX_KEY}"
                     if engine == "vllm" and engines.is_speculators_format(draft_raw) else engines.NUM_AUX_KEY)
        counts.append((count_key, len(trained)))
    for key in engines.convention(engine, "config_keys", version, target_architecture):
        for count in counts:
            for shift in (0, -1, 1):
                ids = [i + shift for i in trained]
                candidate = with_layer_ids(draft_raw, key, ids)
                if count is not None:
                    candidate = _with_value(candidate, *count)
                nested = None
                if key == engines.TOP_LEVEL_KEY:
                    candidate, nested = _without_stale_nested(candidate, num_target_layers, trained,
                                                              target_architecture)
                plan = engines.serve_plan(engine, version, candidate, num_target_layers, target_architecture)
                if plan.layer_ids == trained and not plan.unreachable and not plan.fan_in_mismatch:
                    sglang = None
                    if nested is not None:
                        sglang = engines.served_layer_ids("sglang", None, candidate, num_target_layers,
                                                          target_architecture)
                    return key, ids, nested, (None if sglang == trained else sglang), count
    return None


def _stale_angelslim(draft_raw: Mapping[str, Any], trained: list[int]
                     ) -> tuple[list[int], list[int]] | None:
    """(the AngelSlim ids now, trained - 1) for a plain config whose AngelSlim key does not
    read as `trained`; None without one or when it does. AngelSlim captures
    `hidden_states[layer_id + 1]` (engines.ANGELSLIM_KEY), so a trained list starting at the
    embedding is written from -1, the index it reads as 0."""
    if engines.is_speculators_format(draft_raw):
        return None  # engines.trained_layer_ids never reads the key there
    now = engines.configured_layer_ids(draft_raw, (engines.ANGELSLIM_KEY,))
    if now is None or [i + 1 for i in now] == trained:
        return None
    return now, [i - 1 for i in trained]


def _without_stale_nested(raw: dict[str, Any], num_target_layers: int, trained: list[int],
                          target_architecture: str | None
                          ) -> tuple[dict[str, Any], tuple[list[int], list[int] | None] | None]:
    """`raw` (top-level ids written) with a plain config's nested ids made to read as `trained`
    (engines.trained_layer_ids reads them first), and the change: the same count of ids,
    written as the newest SGLang reads them on the target (as is, or one lower where it adds
    1), so SGLang serves the same layers where one list does both and the fc width the nested
    list gives is kept; else removed. None when they already read as trained or there are none."""
    stale = engines.configured_layer_ids(raw, (engines.NESTED_KEY,))
    reading = {"target_architecture": target_architecture}
    if (stale is None or engines.is_speculators_format(raw)
            or engines.configured_layer_ids(raw, (engines.ANGELSLIM_KEY,)) is not None
            or engines.trained_layer_ids(raw, num_target_layers, **reading) == trained):
        return raw, None
    readable = []
    for shift in (0, -1):
        written = with_layer_ids(raw, engines.NESTED_KEY, [i + shift for i in trained])
        if engines.trained_layer_ids(written, num_target_layers, **reading) == trained:
            readable.append((written, (stale, [i + shift for i in trained])))
    # SGLang reads the key too: a list it serves as trained first (on the Llama path layer-inputs
    # [2, 4, 6] are [1, 3, 5] there, which this check reads output-of too; [2, 4, 6] as written
    # it serves as [3, 5, 7])
    for written, change in readable:
        if engines.served_layer_ids("sglang", None, written, num_target_layers,
                                    target_architecture) == trained:
            return written, change
    if readable:
        return readable[0]
    return without_key(raw, engines.NESTED_KEY), (stale, None)


def without_key(raw: Mapping[str, Any], key: str) -> dict[str, Any]:
    """A copy of `raw` without the dotted `key` (parents copied, not shared)."""
    out = dict(raw)
    node = out
    *parents, leaf = key.split(".")
    for part in parents:
        child = node.get(part)
        if not isinstance(child, Mapping):
            return out
        node[part] = dict(child)
        node = node[part]
    node.pop(leaf, None)
    return out


def with_layer_ids(raw: Mapping[str, Any], key: str, ids: list[int]) -> dict[str, Any]:
    """A copy of `raw` with `ids` under the dotted `key` (parents copied, not shared)."""
    return _with_value(raw, key, list(ids))


def _with_value(raw: Mapping[str, Any], key: str, value: Any) -> dict[str, Any]:
    """A copy of `raw` with `value` under the dotted `key` (parents copied, not shared)."""
    out = dict(raw)
    node = out
    *parents, leaf = key.split(".")
    for part in parents:
        child = node.get(part)
        node[part] = dict(child) if isinstance(child, Mapping) else {}
        node = node[part]
    node[leaf] = value
    return out


def _names(ids: Sequence[int], n: int) -> str:
    """Readable ids: 'input to layer 3 (= output of layer 2)'; 0 is the embedding output."""
    parts = []
    for i in ids:
        if i == 0:
            parts.append("0 (embedding output)")
        elif i == n:
            parts.append(f"{i} (final layer output)")
        else:
            parts.append(str(i))
    return "[" + ", ".join(parts) + "]"


def _keys_read(a: LayerAnalysis) -> list[str]:
    return list(engines.convention(a.engine, "config_keys", a.engine_version, a.target_architecture))


def _no_capture(a: LayerAnalysis) -> tuple[str, str] | None:
    """(evidence, remediation) when the engine captures nothing of this target at all
    (engines.capture_failure: SGLang on a Qwen3.5 target or before the target's model file
    gained set_eagle3_layers_to_capture, vLLM's target allowlist up to 0.21 or a target class
    without SupportsEagle3;
    engines.eagle3_release_failure: a release
    before the engine's first EAGLE-3 one), so no ids and no retraining help."""
    if not a.served_source.endswith("convention"):
        return None  # a serving dump measured what was served
    failure = (engines.capture_failure(a.engine, a.target_architecture)
               or engines.eagle3_release_failure(a.engine, a.engine_version)
               or engines.capture_failure(a.engine, a.target_architecture, a.engine_version))
    if failure is None:
        return None
    return failure.reason, failure.fix[:1].upper() + failure.fix[1:] + "."


def _retrain(a: LayerAnalysis) -> str:
    return (f"No {a.engine} release in the conventions table serves {a.trained} for this target "
            f"(ids out of layer order, or layers it never captures): retrain the draft on layers the "
            f"engine serves, such as its default {engines.default_layer_ids(a.num_target_layers)}.")


def check_aux_layers(analysis: LayerAnalysis, *, target_hidden_size: int | None = None,
                     fc_in_features: int | None = None, num_aux: int | None = None,
                     draft_target_hidden_size: int | None = None,
                     use_aux_hidden_state: bool = True,
                     config_width: str | None = None,
                     at: Where = Where()) -> list[Finding]:
    """`draft_target_hidden_size`: the draft config's own target_hidden_size, from which vLLM
    and SGLang size fc (target_hidden_size x 3: vllm model_executor/models/llama_eagle3.py,
    sglang srt/models/llama_eagle3.py), whatever the target's real width.
    `use_aux_hidden_state`: the draft config's eagle_config.use_aux_hidden_state
    (DraftConfig.use_aux_hidden_state); False means no aux layers are served at all, so only
    :func:`_aux_off` is asked.
    `config_width`: :func:`config_width_problem` for this draft, said in the SD204 it is part of."""
    if not use_aux_hidden_state:
        return _aux_off(analysis, target_hidden_size, fc_in_features, at) or check_config_width(config_width, at)
    a, n = analysis, analysis.num_target_layers
    facts = a.to_facts()
    base = [f"trained on {_names(a.trained, n)} ({a.trained_source}), input-to-layer ids",
            f"served {_names(a.served, n)} ({a.served_source})"]
    if a.configured is not None:
        base.append(f"draft config {a.config_key} = {a.configured}")
    findings: list[Finding] = []
    no_capture = _no_capture(a) if a.mismatch else None
    if no_capture is not None:
        findings.append(at.finding("SD201", base + [no_capture[0]], facts, remediation=no_capture[1]))
    elif a.mismatch:
        if a.used_default and (a.trained_source == "training data layer_ids"
                               or MISSPELLED in a.trained_source):
            findings.append(at.finding("SD203", base + [
                f"{a.engine} reads no aux ids from this config (keys it reads: "
                f"{', '.join(_keys_read(a)) or 'none'}) "
                f"and falls back to its default"], facts,
                remediation=a.fix.remediation(a.engine) if a.fix else _retrain(a)))
        elif a.shift in (1, -1) and not a.used_default:
            # only ids the engine read can be off by its +1: an engine that read none serves its
            # default, and a shift against that default is a coincidence, not a convention
            fix = a.fix.remediation(a.engine) if a.fix else _retrain(a)
            ambiguity = []
            if a.other_reading is not None:
                ambiguity = [
                    "a config alone cannot tell: these nested ids are read input-to, as the newest "
                    "SGLang reads them on this target (sgl-project/sglang#25454), yet ids written "
                    f"for this release's +1 (this check's own fix for a draft trained on "
                    f"{a.other_reading} writes them so) are served as trained"]
                fix += (f" If the draft was in fact trained on {a.other_reading} (these ids written "
                        "for the engine's +1), leave the config as it is: the training dump's "
                        "layer_ids or the layout probe tells which.")
            findings.append(at.finding("SD202", base + [
                f"every served layer is the trained one {a.shift:+d}: the engine and the trainer "
                "disagree on output-of vs input-to layer ids"] + ambiguity, facts, remediation=fix))
        else:
            extra = [f"ids {a.unreachable} are never captured by {a.engine} "
                     f"{a.engine_version or 'latest'}"] if a.unreachable else []
            if a.used_default and a.served_source.endswith("convention"):
                keys = _keys_read(a)
                extra.append(f"{a.engine} {a.engine_version or 'latest'} reads the ids only from "
                             f"{', '.join(keys) or 'nowhere (always its default)'}; this config has "
                             f"none there, so it serves its default [2, N//2, N-3]")
            fix = a.fix.remediation(a.engine) if a.fix else _retrain(a)
            if a.used_default and a.trained_source == "draft config":
                # the trained ids are only what the config says; a config edited by hand after
                # training (the draft really trained on the default it is served) is already
                # served right, and writing the ids where the engine reads them would break it
                fix += (f" If the draft was in fact trained on the served default {a.served} (its "
                        "config's ids written after training), leave the config as it is: the "
                        "training dump's layer_ids or the layout probe tells which.")
            findings.append(at.finding("SD201", base + extra, facts, remediation=fix))
    width_problem = [config_width] if config_width else []
    aux = num_aux if num_aux is not None else len(a.trained)
    if fc_in_features is not None and target_hidden_size:
        if fc_in_features != aux * target_hidden_size:
            width_problem.append(f"fc.weight has {fc_in_features} input features; {aux} aux layers x "
                                 f"hidden {target_hidden_size} = {aux * target_hidden_size}")
    if draft_target_hidden_size and target_hidden_size and (
            draft_target_hidden_size != target_hidden_size):
        width_problem.append(f"the draft config's target_hidden_size is {draft_target_hidden_size}, "
                             f"the target's hidden_size {target_hidden_size}: the engines build fc "
                             f"for target_hidden_size x {aux} inputs and fail to load fc.weight; "
                             f"set target_hidden_size to {target_hidden_size}")
    if a.fc_fan_in is not None and a.fc_fan_in != aux:
        width_problem.append(f"{a.engine} {a.engine_version or 'latest'} builds fc for {a.fc_fan_in} "
                             f"aux layers; the draft has {aux}")
    if width_problem:
        findings.append(at.finding("SD204", width_problem,
                                   {"fc_in_features": fc_in_features, "num_aux": aux,
                                    "target_hidden_size": target_hidden_size,
                                    "engine_fc_fan_in": a.fc_fan_in}))
    return findings


def config_width_problem(draft: Mapping[str, Any] | None, weights_width: int | None,
                         stated_target_width: int | None) -> str | None:
    """Why the engines cannot load a draft whose config's hidden_size is not the width its
    weights were saved at (a config edited by hand, or copied from another size): vLLM and
    SGLang build every layer of the draft from the config, and fc for target_hidden_size x
    aux inputs, or hidden_size x aux when target_hidden_size is unset (vllm and sglang
    models/llama_eagle3.py), so every weight fails to load. The fc width check alone passes it
    (fc.weight itself is consistent with the target), and the drafter refuses it
    (loading.check_weights_fit_config) only in the layout and eval steps, as a step that could
    not run (SD003), so the run passed."""
    hidden = (draft or {}).get("hidden_size")
    if not isinstance(hidden, int) or isinstance(hidden, bool) or not weights_width or hidden == weights_width:
        return None
    key = ("transformer_layer_config.hidden_size" if (draft or {}).get("format") == "speculators"
           else "hidden_size")
    fc = ("" if stated_target_width else
          " (fc for hidden_size x aux inputs too, as target_hidden_size is unset)")
    return (f"the draft config's hidden_size is {hidden}, its weights are {weights_width} wide "
            f"(norm.weight [{weights_width}]): the engines build every draft layer {hidden} wide "
            f"from the config{fc} and fail to load these weights; set {key} to {weights_width} "
            "(or put the config saved with these weights beside them)")


def check_config_width(config_width: str | None, at: Where = Where()) -> list[Finding]:
    """SD204 for :func:`config_width_problem` alone (no target or engine to compare aux with)."""
    if not config_width:
        return []
    return [at.finding("SD204", [config_width], {"config_width": config_width},
                       remediation="Put the config.json saved with these weights beside them (or set "
                                   "its hidden_size to the weights' width), restart the server, and "
                                   "check the acceptance rate again.")]


def _aux_off(a: LayerAnalysis, target_hidden_size: int | None, fc_in_features: int | None,
             at: Where) -> list[Finding]:
    """SD204 for a draft whose config turns aux states off but whose fc was trained on k >= 2.

    Both engines read eagle_config.use_aux_hidden_state (default True) from the draft config.
    SGLang (python/sglang/srt/speculative/eagle_worker.py, model_executor/model_runner.py)
    then captures no aux layers and passes the target's last hidden state; vLLM
    (vllm/model_executor/models/llama_eagle3.py) builds no fc, skips fc.* when loading and
    makes combine_hidden_states the identity. The draft gets one H-wide state, unprojected,
    with no error: acceptance collapses. No fc, or an fc of H inputs, is consistent with the
    key: heads trained on the last state alone set it on purpose (vLLM's MRv2 regression test
    for the flag names nvidia/gpt-oss-120b-Eagle3-v2). The layer ids are not compared, as no
    layer is captured."""
    if fc_in_features is None or not target_hidden_size:
        return []
    trained_for = fc_in_features // target_hidden_size
    if trained_for < 2 or fc_in_features % target_hidden_size:
        return []
    evidence = [
        f"the draft config sets eagle_config.use_aux_hidden_state = false: SGLang then captures "
        f"no aux layers of the target and vLLM builds no fc (combine_hidden_states passes the "
        f"state through), so {a.engine} feeds the draft the target's last hidden state alone, "
        f"{target_hidden_size} wide, with no fc",
        f"fc.weight takes {fc_in_features} = {trained_for} x {target_hidden_size} input features: "
        f"the checkpoint was trained on {trained_for} aux layers the engine will not feed",
    ]
    return [at.finding("SD204", evidence,
                       {"fc_in_features": fc_in_features, "num_aux": trained_for,
                        "target_hidden_size": target_hidden_size, "use_aux_hidden_state": False},
                       remediation="Delete use_aux_hidden_state from eagle_config in the draft's "
                                   "config.json (or set it to true; the engines default to true), "
                                   "restart the server, and check the acceptance rate again.")]
