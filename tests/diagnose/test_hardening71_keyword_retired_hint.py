"""A retired option given to sgl.Engine(...) as a keyword: the replacement is named as the keyword.

`sgl.Engine(..., speculative_dflash_draft_window_size=512)` on SGLang 0.5.20 and later is the call's
TypeError (the field went with the option), and the line ended "write --speculative-draft-window-size
instead": a command-line flag, which a Python call cannot take. The replacement SGLang's deprecation
names is now said as the call's keyword; on the command line the line is unchanged."""

from __future__ import annotations

from spec_debug.diagnose.launch import effective_spec, parse_launch_command

_ENGINE = ('import sglang as sgl\nllm = sgl.Engine(model_path="Qwen/Qwen3-8B", speculative_algorithm="DFLASH", '
           'speculative_draft_model_path="z-lab/Qwen3-8B-DFlash-b16", {})')
_CLI = ("python -m sglang.launch_server --model-path Qwen/Qwen3-8B --speculative-algorithm DFLASH "
        "--speculative-draft-model-path z-lab/Qwen3-8B-DFlash-b16 {}")


def _problems(text: str, engine_version: str | None) -> list[str]:
    return list(effective_spec(parse_launch_command(text), engine_version=engine_version).problems)


def test_the_replacement_of_a_retired_keyword_is_named_as_a_keyword() -> None:
    assert _problems(_ENGINE.format("speculative_dflash_draft_window_size=512"), "0.5.20") == [
        "speculative_dflash_draft_window_size=: SGLang 0.5.20 has no such setting (nor one it abbreviates; the "
        "releases read that have it: 0.5.11 .. 0.5.19): Engine(...) raises TypeError (ServerArgs.__init__() got an "
        "unexpected keyword argument 'speculative_dflash_draft_window_size') and the engine does not start; write "
        "speculative_draft_window_size= instead (SGLang's own deprecation of --speculative-dflash-draft-window-size "
        "names it)"]


def test_a_replacement_with_a_value_is_the_keyword_with_that_value() -> None:
    [line] = _problems(_ENGINE.format("enable_breakable_cuda_graph=True"), "0.5.23")
    assert line.endswith("; write cuda_graph_backend_prefill=\"breakable\" instead (SGLang's own deprecation of "
                         "--enable-breakable-cuda-graph names it)")
    [line] = _problems(_ENGINE.format("enable_flashinfer_mla=True"), "0.5.23")
    assert line.endswith("; write attention_backend=\"flashinfer\" instead (SGLang's own deprecation of "
                         "--enable-flashinfer-mla names it)")
    # a longer note names the options as their fields
    [line] = _problems(_ENGINE.format("enable_ep_moe=True"), "0.5.23")
    assert line.endswith("; write ep_size set to the tp_size value instead (SGLang's own deprecation of "
                         "--enable-ep-moe names it)")


def test_on_the_command_line_the_replacement_is_still_the_flag() -> None:
    [line] = _problems(_CLI.format("--speculative-dflash-draft-window-size 512"), "0.5.20")
    assert line.endswith("; write --speculative-draft-window-size instead (SGLang's own deprecation of "
                         "--speculative-dflash-draft-window-size names it)")
    [line] = _problems(_CLI.format("--enable-breakable-cuda-graph"), "0.5.23")
    assert line.endswith("; write --cuda-graph-backend-prefill=breakable instead (SGLang's own deprecation of "
                         "--enable-breakable-cuda-graph names it)")
