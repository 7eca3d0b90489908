"""spec-debug: diagnose slow EAGLE-3 speculative decoding (SGLang, vLLM)."""

__version__ = "0.1.0"
