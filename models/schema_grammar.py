"""A JSON schema as a llama.cpp grammar, built once per schema (building one takes milliseconds,
and the crew asks for the same few schemas on every step)."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any


def schema_grammar(schema: dict[str, Any]) -> Any:
    """The LlamaGrammar that makes llama.cpp write JSON following `schema`."""
    return _grammar_for(json.dumps(schema, sort_keys=False))


@lru_cache(maxsize=64)
def _grammar_for(schema_json: str) -> Any:
    from llama_cpp import LlamaGrammar  # deferred: llama_cpp is heavy

    return LlamaGrammar.from_json_schema(schema_json, verbose=False)


def schema_gbnf(schema: dict[str, Any]) -> str:
    """The same grammar as GBNF text, for a llama.cpp server's `grammar` field."""
    return schema_grammar(schema)._grammar  # noqa: SLF001 - the text LlamaGrammar was built from
