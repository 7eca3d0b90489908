"""Probe entry point for GPU hosts: `python -m spec_debug.eagle3 eval|layout|vocab ...`.

Prints exactly one JSON document on stdout (DESIGN.md: probes print JSON, parsing happens on
the controller). stdlib argparse only, so a zipapp bundle needs nothing beyond torch,
safetensors and numpy on the host. Errors print {"error": ..., "hint": ...} and exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys

from spec_debug.eagle3.json_doc import json_document
from spec_debug.errors import SpecDebugError


class _JsonArgumentParser(argparse.ArgumentParser):
    """Usage errors as the one JSON document too (argparse prints text and exits 2)."""

    def error(self, message: str):  # type: ignore[override]
        print(json.dumps({"error": f"{self.prog}: {message}", "hint": " ".join(self.format_usage().split())}))
        raise SystemExit(2)


def _sample_count(text: str) -> int:
    """--max-samples: at least 1, as the CLI's `drafter eval/layout` (typer min=1) and the
    playbooks' max_samples var take it; 0 or less read no file and ended in "DIR: no samples",
    blaming a dump that holds samples."""
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if count < 1:
        raise argparse.ArgumentTypeError(f"{count}: give at least 1 sample")
    return count


def _parser() -> argparse.ArgumentParser:
    parser = _JsonArgumentParser(prog="python -m spec_debug.eagle3")
    sub = parser.add_subparsers(dest="command", required=True)
    ev = sub.add_parser("eval")
    ev.add_argument("--model", required=True)
    ev.add_argument("--data", required=True)
    ev.add_argument("--target")
    ev.add_argument("--no-verifier", action="store_true")  # as the CLI: never the config's verifier
    ev.add_argument("--steps", type=int)
    ev.add_argument("--semantics", default="reference")
    ev.add_argument("--engine-version")
    ev.add_argument("--layout")
    ev.add_argument("--device", default="cpu")
    ev.add_argument("--dtype", default="float32")
    ev.add_argument("--max-samples", type=_sample_count)
    ev.add_argument("--vocab-mapping")
    lay = sub.add_parser("layout")
    lay.add_argument("--model", required=True)
    lay.add_argument("--data", required=True)
    lay.add_argument("--target")
    lay.add_argument("--no-verifier", action="store_true")  # as the CLI: never the config's verifier
    lay.add_argument("--device", default="cpu")
    lay.add_argument("--dtype", default="float32")
    lay.add_argument("--max-samples", type=_sample_count, default=16)
    lay.add_argument("--vocab-mapping")
    voc = sub.add_parser("vocab")
    voc.add_argument("--model", required=True)
    voc.add_argument("--target")
    voc.add_argument("--no-verifier", action="store_true")  # as the CLI: never the config's verifier
    voc.add_argument("--vocab-mapping")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        from spec_debug.eagle3 import api

        if args.command == "eval":
            out = api.evaluate_drafter(args.model, args.data, args.target, steps=args.steps,
                                       semantics=args.semantics,
                                       engine_version=args.engine_version, layout=args.layout,
                                       device=args.device, dtype=args.dtype,
                                       max_samples=args.max_samples, find_verifier=not args.no_verifier,
                                       vocab_mapping=args.vocab_mapping)
        elif args.command == "layout":
            out = api.probe_layout(args.model, args.data, args.target, device=args.device,
                                   dtype=args.dtype, max_samples=args.max_samples,
                                   find_verifier=not args.no_verifier,
                                   vocab_mapping=args.vocab_mapping)
        else:
            out = api.check_drafter_vocab(args.model, args.target, find_verifier=not args.no_verifier,
                                          vocab_mapping=args.vocab_mapping)
    except SpecDebugError as exc:
        print(json.dumps({"error": exc.message, "hint": exc.hint}))
        return exc.exit_code
    except ImportError as exc:
        print(json.dumps({"error": f"missing module {exc.name}",
                          "hint": "pip install 'spec-debug[eagle3]' (torch, safetensors)"}))
        return 2
    except Exception as exc:  # noqa: BLE001 - the probe contract: one JSON document, always
        import traceback

        print(json.dumps({"error": f"unexpected {type(exc).__name__}: {exc}",
                          "hint": "a spec-debug bug or an unchecked input; please report it",
                          "traceback": traceback.format_exc(limit=8)}))
        return 1
    print(json_document(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
