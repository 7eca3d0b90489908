"""An SGLang option the project retired: refused where the release refuses it, with its replacement.

SGLang retires an option in steps, and its own deprecation names what replaces it (the option's
help, the `new_flag` of its Deprecated*Action, or an `error_message`), read in the PyPI wheels:
- up to 0.5.7 its DeprecatedAction raised `ValueError(self.help)` when given (0.4.5.post3 ..
  0.4.6.post5: --enable-flashmla, --enable-flashinfer-mla; 0.5.3.post3: --enable-ep-moe and six
  other MoE switches), and from 0.5.18 it calls `parser.error` when given an `error_message`
  (--enable-expert-distribution-metrics in 0.5.18 and 0.5.19): the option is in the parser and
  the server does not start. The audit read these as options and said nothing.
- once gone, the line said "drop it, or write the option --help lists" where SGLang had named the
  replacement (--enable-ep-moe: "set `--ep-size` to the same value as `--tp-size`"; 0.5.14 ..
  0.5.19 aliases --stream-output -> --incremental-streaming-output, --cuda-graph-max-bs ->
  --cuda-graph-max-bs-decode ...).
- --cuda-graph-max-bs and --cuda-graph-bs, gone in 0.5.20, are prefixes of the -decode and
  -prefill options that replaced them: argparse (allow_abbrev) exits with "ambiguous option", and
  the audit, which took any prefix of an option as fine, said nothing of the docs' most copied flag.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

SGLANG = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
          "--speculative-algorithm EAGLE3 --speculative-draft-model-path yuhuili/EAGLE3-LLaMA3.1-Instruct-8B "
          "--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4")
KEPT_TO_REFUSE = ("keeps it only to refuse it (a retired option whose action stops the parse with its deprecation "
                  "note): the server does not start; ")


def _problems(extra: str, version: str | None) -> list[str]:
    return list(effective_spec(parse_launch_command(f"{SGLANG} {extra}"), engine_version=version).problems)


@pytest.mark.parametrize(("flag", "version", "replacement"), [
    ("--enable-ep-moe", "0.5.3.post3", "--ep-size set to the --tp-size value"),
    ("--enable-deepep-moe", "0.5.3.post3", "--moe-a2a-backend deepep"),
    ("--enable-flashinfer-trtllm-moe", "0.5.3.post3", "--moe-runner-backend flashinfer_trtllm"),
    ("--enable-flashmla", "0.4.5.post3", "--attention-backend flashmla"),
    ("--enable-flashinfer-mla", "0.4.6.post5", "--attention-backend flashinfer"),
    ("--enable-expert-distribution-metrics", "0.5.19",
     "--expert-balancedness-report-mode (off, server_log, prometheus or both)"),
])
def test_a_retired_option_the_release_still_parses_stops_it(flag, version, replacement):
    assert _problems(flag, version) == [
        f"{flag}: SGLang {version} {KEPT_TO_REFUSE}write {replacement} instead (SGLang's own deprecation of "
        f"{flag} names it)"]


@pytest.mark.parametrize(("flag", "version"), [
    ("--enable-ep-moe", "0.5.2"),  # before its deprecation: a switch of its own
    ("--enable-flashmla", "0.4.4.post4"),
    ("--enable-expert-distribution-metrics", "0.5.17"),  # before 0.5.18 gave it an error_message
    ("--stream-output", "0.5.19"),  # a deprecated alias that still works (DeprecatedStoreTrueAction)
    ("--cuda-graph-max-bs 256", "0.5.19"),  # a deprecated alias, exact: taken
    ("--cuda-graph-max-bs 256", "0.5.13.post1"),  # before the -decode / -prefill split
    ("--hybrid-kvcache-ratio 0.5", "0.5.9"),  # deprecated then, with a warning only
])
def test_where_the_release_takes_it_nothing_is_said(flag, version):
    assert _problems(flag, version) == []


def test_a_release_between_two_read_ones_names_how_each_refuses_it():
    assert _problems("--enable-ep-moe", "0.5.4") == [
        "--enable-ep-moe: SGLang 0.5.4 refuses it at startup (0.5.3.post3 refuses it as retired, 0.5.4.post3 has no "
        "such option): the server does not start; write --ep-size set to the --tp-size value instead (SGLang's own "
        "deprecation of --enable-ep-moe names it)"]


@pytest.mark.parametrize(("flag", "version", "having", "replacement"), [
    ("--stream-output", "0.5.20", "0.4.4.post4 .. 0.5.19", "--incremental-streaming-output"),
    ("--hybrid-kvcache-ratio 0.5", "0.5.14", "0.4.9.post6 .. 0.5.13.post1", "--swa-full-tokens-ratio"),
    ("--enable-deepep-moe", "0.5.6.post2", "0.4.4.post4 .. 0.5.3.post3", "--moe-a2a-backend deepep"),
    ("--prefill-cp-mode x", "0.5.23", "0.5.10.post1 .. 0.5.19", "--cp-strategy"),
])
def test_a_gone_option_names_its_replacement(flag, version, having, replacement):
    name = flag.split()[0]
    assert _problems(flag, version) == [
        f"{name}: SGLang {version} has no such option (nor one it abbreviates; the releases read that have it: "
        f"{having}): argparse exits with 'unrecognized arguments' and the server does not start; write "
        f"{replacement} instead (SGLang's own deprecation of {name} names it)"]


@pytest.mark.parametrize(("flag", "version"), [("--cuda-graph-max-bs 256", "0.5.20"), ("--cuda-graph-max-bs 256", "0.5.23"),
                                               ("--cuda-graph-bs 1 2 4 8", "0.5.21")])
def test_a_retired_prefix_of_its_replacements_is_ambiguous(flag, version):
    name = flag.split()[0]
    assert _problems(flag, version) == [
        f"{name}: SGLang {version} has no such option any more, and argparse reads it as an abbreviation of "
        f"{name}-decode and {name}-prefill: it exits with 'ambiguous option' and the server does not start; "
        f"write {name}-decode instead (SGLang's own deprecation of {name} names it)"]


def test_the_release_not_known_judges_nothing():
    assert _problems("--cuda-graph-max-bs 256 --enable-ep-moe --stream-output", None) == []


def test_the_audit_reports_it_as_a_server_that_does_not_start():
    command = f"{SGLANG} --cuda-graph-max-bs 256"
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    host = {**facts, "engine": {"name": "sglang", "version": "0.5.23"}}
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=host)
    refused = [f for f in launch_step.check(ctx) if f.code == "SD102"]
    assert [f.severity for f in refused] == ["error"]
    assert any("--cuda-graph-max-bs: SGLang 0.5.23 has no such option any more" in line for line in refused[0].evidence)
