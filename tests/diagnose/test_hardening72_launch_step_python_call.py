"""The launch step judges a Python engine call as a call, as effective_spec does.

`spec-debug run` with `--var server_cmdline=<a script that builds sgl.Engine(...) / LLM(...)>`: the
step's parse read the script and stored only the argv it stands for; its check parsed that argv
again, which drops the call. So a retired keyword (`sgl.Engine(..., cuda_graph_max_bs=64)` on
SGLang 0.5.20, where ServerArgs has no such field) was said in argparse's words ("it exits with
'ambiguous option'"), which a Python script never prints, and a baseline engine built before the
speculative one (whose TypeError stops the script first) was not audited at all. The check now
reads the script again.
"""

from __future__ import annotations

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

_SPEC = ('llm = sgl.Engine(model_path="meta-llama/Llama-3.1-8B-Instruct", speculative_algorithm="EAGLE3", '
         'speculative_draft_model_path="/models/eagle3", speculative_num_steps=3, speculative_eagle_topk=1, '
         'speculative_num_draft_tokens=4{})')


def _sd102(script: str, version: str) -> list[str]:
    facts = launch_step.parse({"source": "var", "cmdline": script, "models": {}})
    host_facts = dict(facts, engine={"name": "sglang", "version": version})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=host_facts)
    return [line for f in launch_step.check(ctx) if f.code == "SD102" for line in f.evidence]


def test_a_retired_keyword_is_the_calls_type_error():
    script = "import sglang as sgl\n" + _SPEC.format(", cuda_graph_max_bs=64")
    assert _sd102(script, "0.5.20") == [
        "cuda_graph_max_bs=: ServerArgs has no field by that name (a keyword argument is never read as an "
        "abbreviation, as argparse reads `--cuda-graph-max-bs`): Engine(...) raises TypeError "
        "(ServerArgs.__init__() got an unexpected keyword argument 'cuda_graph_max_bs') and the engine does not "
        "start; write the field's full name (it starts the options --cuda-graph-max-bs-decode and "
        "--cuda-graph-max-bs-prefill)"]


def test_a_baseline_engine_built_first_is_audited():
    script = ("import sglang as sgl\nbase = sgl.Engine(model_path=\"meta-llama/Llama-3.1-8B-Instruct\", "
              "cuda_graph_max_bs=64)\nbase.shutdown()\n" + _SPEC.format(""))
    assert _sd102(script, "0.5.20") == [
        "line 2, Engine(...) before the speculative engine is built (the script stops there): cuda_graph_max_bs=: "
        "ServerArgs has no field by that name (a keyword argument is never read as an abbreviation, as argparse "
        "reads `--cuda-graph-max-bs`): Engine(...) raises TypeError (ServerArgs.__init__() got an unexpected keyword "
        "argument 'cuda_graph_max_bs') and the engine does not start; write the field's full name (it starts the "
        "options --cuda-graph-max-bs-decode and --cuda-graph-max-bs-prefill)"]


def test_the_same_flags_on_the_command_line_keep_argparse_wording():
    command = ("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm "
               "EAGLE3 --speculative-draft-model-path /models/eagle3 --cuda-graph-max-bs 64")
    [line] = _sd102(command, "0.5.20")
    assert line.startswith("--cuda-graph-max-bs: SGLang 0.5.20 has no such option any more") and \
        "exits with 'ambiguous option'" in line
