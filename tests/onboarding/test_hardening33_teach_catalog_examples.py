"""The catalog examples a newcomer reads in `spec-debug explain SD201` / `findings SD203` are
facts about layer conventions: pinned to /work/shared/reference/EAGLE3.md section 3 and to the
checker that raises the codes."""

from __future__ import annotations

import re

from spec_debug.diagnose.catalog import CATALOG
from spec_debug.diagnose.checks.layers import analyse_layers, check_aux_layers

_CONVENTION = re.compile(r"input[s]?[- ]to|output[s]?[- ]of", re.I)


def _id_lists(text: str) -> list[list[int]]:
    return [[int(x) for x in m.split(",")] for m in re.findall(r"[\[(](\s*-?\d+(?:\s*,\s*-?\d+)+)\s*[\])]", text)]


def _uniform_shift(a: list[int], b: list[int]) -> int | None:
    deltas = {y - x for x, y in zip(a, b)}
    return deltas.pop() if len(a) == len(b) and len(deltas) == 1 else None


def test_the_reference_off_by_one_is_sd202_so_sd201s_example_is_not_one():
    # EAGLE3.md section 3: "A SpecForge nested [1,29,57] read raw by vLLM gives the outputs of
    # layers 0, 28, 56, off by one". The checker calls that SD202 (every layer shifted by one).
    # SD201's example was exactly this case ("trained on outputs of layers [1, 29, 57]; the
    # engine captures [0, 28, 56]"): a newcomer learnt SD201 from an SD202.
    specforge = {"architectures": ["LlamaForCausalLMEagle3"],
                 "eagle_config": {"eagle_aux_hidden_state_layer_ids": [1, 29, 57]}}
    analysis = analyse_layers("vllm", "0.22.0", specforge, 61)
    assert [f.code for f in check_aux_layers(analysis)] == ["SD202"]
    lists = _id_lists(CATALOG["SD201"].example)
    if len(lists) == 2:
        assert _uniform_shift(*lists) not in (1, -1), CATALOG["SD201"].example
    # SD202's own example is the +1 case of the reference: [2, 30, 58] served as [3, 31, 59].
    trained, served = _id_lists(CATALOG["SD202"].example)
    assert _uniform_shift(trained, served) == 1


def test_sd203s_example_says_which_convention_its_ids_are_in():
    # SpecForge's default for an 80-layer target is [1, N//2-1, N-4] = [1, 39, 76], output-of;
    # vLLM's default is (2, N//2, N-3) = (2, 40, 77), input-to: the same tensors (EAGLE3.md
    # section 3, "All defaults hit the same physical tensors"). SD203's example read "trained on
    # [1, 39, 76]; vLLM uses (2, 40, 77)" with no convention: read as SpecForge ids it is a
    # healthy draft presented as a broken one.
    n = 80
    assert [1, n // 2 - 1, n - 4] == [1, 39, 76] and [i + 1 for i in [1, 39, 76]] == [2, n // 2, n - 3]
    example = CATALOG["SD203"].example
    assert _CONVENTION.search(example), example
    trained, served = _id_lists(example)[:2]
    assert served == [2, n // 2, n - 3], example
    assert _uniform_shift(trained, served) not in (0, 1, -1), example


def test_the_vars_table_says_which_empty_vars_skip_steps_and_what_each_var_is(tmp_path):
    # perf_regression's walkthrough said "(empty: steps that need it are skipped)" of
    # server_cmdline, engine, draft_model...: the probes find those on the host when empty, and
    # only drafter_eval (requires: [hidden_states]) is ever skipped. The author's note on each
    # var (explain --json's var_notes) was in no table a newcomer reads.
    import json

    from tests.conftest import run_cli

    md = run_cli("explain", "perf_regression").stdout
    assert "steps that need it are skipped" not in md
    assert "| `server_cmdline` | (empty) | the server's command line; else found among the host's processes |" in md
    assert "| `hidden_states` | (empty: `drafter_eval` skipped) |" in md
    html = run_cli("explain", "perf_regression", "--format", "html").stdout
    assert "<td>(empty: <code>drafter_eval</code> skipped)</td>" in html
    assert "found among the host&#39;s processes" in html
    data = json.loads(run_cli("explain", "perf_regression", "--json").stdout)
    assert data["var_required_by"]["hidden_states"] == ["drafter_eval"]
    assert data["var_required_by"]["server_cmdline"] == []


def test_a_step_probe_or_playbook_code_given_to_explain_names_the_playbook_that_has_it(tmp_path):
    # The demo prints "passed hidden_layout", "SD004 ... (reference_forward)"; a newcomer types
    # `spec-debug explain hidden_layout`. It said the list of shipped playbooks (or "did you
    # mean 'drafter_accuracy'?" for drafter_eval), and SD901 only "a code a playbook defines is
    # in that playbook's walkthrough", never which playbook.
    from tests.conftest import run_cli

    # A step is now explained itself, from the main job's playbook (test_hardening47_explain_step).
    for typed in ("hidden_layout", "throughput", "drafter_eval"):
        shown = run_cli("explain", typed, cwd=tmp_path)
        assert shown.code == 0 and shown.stdout.startswith(f"# Walkthrough: `perf_regression`, step `{typed}`\n")
    shown = run_cli("explain", "sd901", cwd=tmp_path)
    says = "SD901 is not in the finding catalog: SD901 is a finding code of the shipped playbook host_smoke"
    assert shown.code == 2 and says in shown.stderr, shown.stderr
    assert "Traceback" not in shown.stderr
    # A real typo of a playbook name keeps its did-you-mean.
    assert "did you mean 'perf_regression'?" in run_cli("explain", "perf_regresion", cwd=tmp_path).stderr


def test_sd403_explained_by_a_layer_mismatch_does_not_tell_the_newcomer_to_upgrade_for_a_flag():
    # The demo's step-through printed, under "SD403 Measured cost of the sglang divergence"
    # (explained by SD201: the engine feeds layers [2, 4, 6], the draft was trained on [0, 2, 4]),
    # "what to do: Upgrade to an engine version that honours the flag, or retrain without the
    # flag." No flag is involved; the root cause's finding says what to change.
    from spec_debug.diagnose.checks.drafter import check_engine_semantics

    reference = {"full_accuracy": [0.766], "expected_accept_length": 2.73, "steps": 3, "layout_layer_ids": [0, 2, 4]}
    engine = {"full_accuracy": [0.684], "expected_accept_length": 2.37, "layout_layer_ids": [2, 4, 6]}
    [finding] = check_engine_semantics(reference, engine, "sglang", ignored_flags=[], root_causes=["SD201"])
    assert finding.code == "SD403" and finding.severity == "info"
    assert "flag" not in finding.remediation and "SD201" in finding.remediation


def test_host_smokes_disk_arithmetic_is_per_layer_as_it_says():
    # host_smoke's why said "about 43 KB per token per captured layer" for a 7168-wide target:
    # one layer in bf16 is 7168 x 2 = 14,336 bytes; 43 KB is three layers. The dumps hold
    # A aux layers + the final one (EAGLE3.md section 5: speculators hidden_states [T, A+1, H],
    # SpecForge aux_hidden_state [1, T, 3H] + hidden_state [1, T, H]).
    from spec_debug.playbook.loader import load_playbook

    why = " ".join(load_playbook("host_smoke").playbook.step("free_disk").why.split())
    hidden, bf16 = 7168, 2
    per_layer = re.search(r"about (\d+) KB per token per captured layer", why)
    assert per_layer, why
    assert abs(int(per_layer.group(1)) * 1000 - hidden * bf16) < 1000, why
    whole = re.search(r"(\d+) KB per token for the three aux layers and the final layer", why)
    assert whole and abs(int(whole.group(1)) * 1000 - 4 * hidden * bf16) < 1000, why


def test_a_playbook_or_step_name_in_capitals_still_gets_its_did_you_mean(tmp_path):
    from tests.conftest import run_cli

    assert "did you mean 'perf_regression'?" in run_cli("explain", "PERF_REGRESSION", cwd=tmp_path).stderr
    assert run_cli("explain", "HIDDEN_LAYOUT", cwd=tmp_path).stdout.startswith(
        "# Walkthrough: `perf_regression`, step `hidden_layout`\n")


def test_what_explain_says_of_sglangs_plus_one_matches_the_engine_table():
    # The engine table (spec_debug.eagle3.engines, sourced from each SGLang release) says PR
    # #25454 changed only the DeepSeek-family model files: llama.py still adds 1 in 0.5.23, and
    # the demo's own fix ([-1, 1, 3] -> [0, 2, 4] on a Llama target) relies on it. The
    # walkthroughs said "SGLang added 1 to every configured layer id until PR #25454". SD202's
    # example served a speculators config (top-level ids) with +1, but SGLang reads only the
    # nested eagle_config key: such a config gets SGLang's default, not a shift.
    from spec_debug.eagle3.engines import served_layer_ids
    from spec_debug.playbook.loader import load_playbook

    nested = {"architectures": ["LlamaForCausalLMEagle3"],
              "eagle_config": {"eagle_aux_hidden_state_layer_ids": [2, 30, 58]}}
    top_level = {"architectures": ["LlamaForCausalLMEagle3"], "eagle_aux_hidden_state_layer_ids": [3, 20, 40],
                 "speculators_model_type": "eagle3", "speculators_config": {}}
    assert served_layer_ids("sglang", "latest", nested, 61, "LlamaForCausalLM") == [3, 31, 59]
    assert served_layer_ids("sglang", "latest", nested, 61, "DeepseekV3ForCausalLM") == [2, 30, 58]
    assert served_layer_ids("sglang", "0.5.12", nested, 61, "DeepseekV3ForCausalLM") == [3, 31, 59]
    assert served_layer_ids("sglang", "latest", top_level, 61) == [2, 30, 58]  # default: not read
    for name in ("perf_regression", "hidden_state_format"):
        why = " ".join(load_playbook(name).playbook.step("engine").why.split())
        assert "until PR #25454" not in why, why
        assert "DeepSeek" in why, why
    sd202 = CATALOG["SD202"]
    assert "DeepSeek" in sd202.fix and "historical" not in sd202.detects
    assert "speculators config" not in sd202.example and "eagle_config" in sd202.example
    trained, served = _id_lists(sd202.example)
    assert served_layer_ids("sglang", "0.5.12", nested, 61, "DeepseekV3ForCausalLM") == served


def test_sd204s_fix_says_which_releases_fix_fc_at_three_aux_layers():
    # SD204's fix said "SGLang and vLLM versions read here assume 3 aux layers": from SGLang
    # 0.5.12 (PR #24663) and vLLM 0.22.0 fc's fan-in comes from the config, as the engine table
    # the check itself uses says; a 2- or 4-layer draft is servable there.
    from spec_debug.eagle3 import engines

    assert engines.convention("sglang", "fc_fan_in", "0.5.11", None) == 3
    assert engines.convention("vllm", "fc_fan_in", "0.21.0", None) == 3
    for engine, release in (("sglang", engines.SGLANG_MULTI_LAYER_DRAFT), ("vllm", engines.VLLM_V1_NESTED_IDS)):
        read = engines.convention(engine, "fc_fan_in", release, None)
        assert read != 3 and "num_aux_hidden_states" in read
        assert f"{engine.replace('sglang', 'SGLang').replace('vllm', 'vLLM')} before {release}" in CATALOG["SD204"].fix
    assert "num_aux_hidden_states" in CATALOG["SD204"].fix


def test_findings_on_a_code_or_name_the_catalog_lacks_says_where_it_is_explained(tmp_path):
    # host_smoke's report names SD901; `spec-debug findings SD901` said "known codes include
    # SD001, SD002, SD003", as it did for `findings perf_regression` and for SD1O1 (a letter O).
    from tests.conftest import run_cli

    for typed, says in (
        ("SD901", "SD901 is a finding code of the shipped playbook host_smoke: `spec-debug explain host_smoke`"),
        ("perf_regression", "perf_regression is a playbook: `spec-debug explain perf_regression` walks through it"),
        ("SD1O1", "known codes include SD101"),
        ("SD10", "known codes include SD101, SD102, SD103, SD104"),
    ):
        shown = run_cli("findings", typed, cwd=tmp_path)
        assert shown.code == 2 and says in shown.stderr, shown.stderr


def test_a_probe_step_without_codes_fails_as_the_runner_reports_it(tmp_path):
    # perf_regression's engine step (probe engine_info, no codes of its own) read "Failing: the
    # step is marked failed (SD001)"; a probe that cannot run (the wrong --var python) is
    # reported as SD003, as is a fetch that cannot copy.
    import json

    from tests.conftest import run_cli

    playbook = tmp_path / "p.yaml"
    playbook.write_text("name: p\nsteps:\n  - id: e\n    probe: engine_info\n"
                        "    with: {engine: '', engine_version: '', python: /nonexistent/python}\n"
                        "  - id: r\n    run: 'false'\n")
    ran = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), cwd=tmp_path)
    record = json.loads(next((tmp_path / "runs").glob("*/run.json")).read_text())
    raised = {f["step"]: f["code"] for f in record["findings"]}
    assert raised == {"e": "SD003", "r": "SD001"}, ran.stderr
    steps = json.loads(run_cli("explain", str(playbook), "--json", cwd=tmp_path).stdout)["steps"]
    said = {s["id"]: " ".join(s["failing"]) for s in steps}
    assert "SD003" in said["e"] and "SD001" not in said["e"], said
    assert said["r"] == "the step is marked failed (SD001)"
    engine = next(s for s in json.loads(run_cli("explain", "perf_regression", "--json").stdout)["steps"]
                  if s["id"] == "engine")
    assert any("SD003" in f for f in engine["failing"]), engine["failing"]


def test_explain_refuses_to_write_the_walkthrough_over_the_playbook(tmp_path):
    # `spec-debug explain my_check.yaml -o my_check.yaml` (tab completion kept .yaml where .md was
    # meant) replaced the playbook with its walkthrough and said "wrote my_check.yaml".
    from tests.conftest import run_cli

    playbook = tmp_path / "my_check.yaml"
    source = "name: my_check\nsteps:\n  - id: a\n    why: Looks.\n    run: echo a\n"
    playbook.write_text(source)
    for output in ("my_check.yaml", str(playbook), "./my_check.yaml"):
        shown = run_cli("explain", "my_check.yaml", "-o", output, cwd=tmp_path)
        assert shown.code == 2 and "is the playbook being explained" in shown.stderr, shown.stderr
        assert "-o my_check.md" in shown.stderr or "my_check.md" in shown.stderr
        assert playbook.read_text() == source
    assert run_cli("explain", "my_check.yaml", "-o", "my_check.md", cwd=tmp_path).code == 0
    assert (tmp_path / "my_check.md").read_text().startswith("# Walkthrough: `my_check`")
