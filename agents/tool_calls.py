"""Tool calls that parse by construction: a JSON schema per step, which the engine enforces
(a llama.cpp grammar in process; a server is sent the schema).

The model's whole reply in a tool step is one object {"name": <tool>, "arguments": {...}} whose
arguments follow that tool's own schema; `final_answer` is one more "tool" when the agent may stop.
The grammar makes the shape right; `parse_tool_call` still checks everything, because a reply cut
off by max_tokens is valid grammar prefix but not valid JSON.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

FINAL_ANSWER = "final_answer"
_FINAL_SCHEMA = {
    "type": "object",
    "properties": {"text": {"type": "string"}},
    "required": ["text"],
}


class ToolCallParseError(ValueError):
    """The reply is not a usable tool call; the message is fed back to the model."""


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    parameters: dict[str, Any]  # JSON schema of the arguments

    @classmethod
    def from_openai(cls, tool: dict[str, Any]) -> ToolSpec:
        """CrewAI passes tools in OpenAI's {"type": "function", "function": {...}} form."""
        function = tool.get("function", tool)
        parameters = function.get("parameters") or {"type": "object", "properties": {}}
        return cls(str(function["name"]), str(function.get("description", "")), parameters)

    def signature(self) -> str:
        names = ", ".join(self.parameters.get("properties", {}))
        return f"{self.name}({names}): {self.description.strip().splitlines()[0] if self.description else ''}"


def _clean(schema: Any) -> Any:
    """Drop keys the grammar does not need (titles, descriptions) so the grammar stays small."""
    if isinstance(schema, dict):
        return {k: _clean(v) for k, v in schema.items() if k not in ("title", "description", "examples")}
    if isinstance(schema, list):
        return [_clean(v) for v in schema]
    return schema


def tool_call_schema(specs: list[ToolSpec], allow_final: bool) -> dict[str, Any]:
    options = [_call_option(spec.name, spec.parameters) for spec in specs]
    if allow_final:
        options.append(_call_option(FINAL_ANSWER, _FINAL_SCHEMA))
    if not options:
        raise ValueError("a tool step needs at least one tool or the final answer")
    schema: dict[str, Any] = options[0] if len(options) == 1 else {"oneOf": options}
    defs: dict[str, Any] = {}
    for spec in specs:
        defs.update(spec.parameters.get("$defs", {}))
    if defs:
        schema = {**schema, "$defs": _clean(defs)}
    return schema


def _call_option(name: str, parameters: dict[str, Any]) -> dict[str, Any]:
    arguments = _clean({k: v for k, v in parameters.items() if k != "$defs"})
    arguments.setdefault("type", "object")
    # Every declared argument is required in the grammar: small models skip optional ones badly.
    arguments["required"] = list(arguments.get("properties", {}))
    arguments["additionalProperties"] = False
    return {
        "type": "object",
        "properties": {"name": {"const": name}, "arguments": arguments},
        "required": ["name", "arguments"],
        "additionalProperties": False,
    }


def answer_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema a structured answer (the planner's plan, the reviewer's verdict) is held to: the
    engine turns it into a grammar (in process) or sends it to the server."""
    return _clean(schema)


def tool_instructions(specs: list[ToolSpec]) -> str:
    """The same text on every call of a tool loop, so the prompt prefix (and KV cache) stays valid.

    Whether final_answer is allowed yet is the grammar's business, not the prompt's.
    """
    lines = ['Reply with exactly one JSON object: {"name": "<tool>", "arguments": {...}}. Tools:']
    lines += [f"- {spec.signature()}" for spec in specs]
    lines.append(f"- {FINAL_ANSWER}(text): when the work is done, a one-line summary.")
    if any(spec.name == "write_file" for spec in specs):
        lines.append(
            'Example: {"name": "write_file", "arguments": {"path": "greet.py", '
            "\"content\": \"def greet(name):\\n    return f'Hello {name}'\\n\\nprint(greet('Ann'))\\n\"}}"
        )
    return "\n".join(lines)


@dataclass(frozen=True)
class ParsedCall:
    name: str
    arguments: dict[str, Any]

    @property
    def is_final(self) -> bool:
        return self.name == FINAL_ANSWER


def parse_tool_call(text: str, specs: list[ToolSpec], allow_final: bool = True) -> ParsedCall:
    """Parse and validate one reply; any problem is a ToolCallParseError with a usable message."""
    if not isinstance(text, str) or not text.strip():
        raise ToolCallParseError("the reply was empty; send one JSON object")
    try:
        data = json.loads(text, strict=False)  # raw newlines in code strings are fine
    except (json.JSONDecodeError, RecursionError) as exc:
        reason = "it was cut off before the end" if _looks_truncated(text) else str(exc)
        raise ToolCallParseError(f"the reply is not valid JSON ({reason})") from None
    if not isinstance(data, dict):
        raise ToolCallParseError(f"expected a JSON object, got {type(data).__name__}")
    name = data.get("name")
    arguments = data.get("arguments", {})
    known = {spec.name: spec for spec in specs}
    if not isinstance(name, str) or (name not in known and not (allow_final and name == FINAL_ANSWER)):
        choices = ", ".join(list(known) + ([FINAL_ANSWER] if allow_final else []))
        raise ToolCallParseError(f"unknown tool {name!r}; use one of: {choices}")
    if not isinstance(arguments, dict):
        raise ToolCallParseError(f"'arguments' must be an object, got {type(arguments).__name__}")
    schema = _FINAL_SCHEMA if name == FINAL_ANSWER else known[name].parameters
    _check_arguments(name, arguments, schema)
    return ParsedCall(name, arguments)


def repair_cut_off_call(text: str, specs: list[ToolSpec], allow_final: bool = True) -> ParsedCall | None:
    """A call cut off by max_tokens inside its last string argument (a file's content), closed
    after the last complete line; None when that does not give a valid call.

    The grammar guarantees everything before the cut was well-formed, so the only thing missing
    is the end of the string and the closing braces.
    """
    cut = max(text.rfind("\\n"), text.rfind("\n"))
    if cut <= 0:
        return None
    candidate = text[:cut].rstrip("\\") + '\\n"}}'
    try:
        return parse_tool_call(candidate, specs, allow_final)
    except ToolCallParseError:
        return None


_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
}


def _check_arguments(name: str, arguments: dict[str, Any], schema: dict[str, Any]) -> None:
    properties = schema.get("properties", {})
    missing = [key for key in schema.get("required", []) if key not in arguments]
    if missing:
        raise ToolCallParseError(f"{name}: missing argument(s) {', '.join(missing)}")
    unknown = [key for key in arguments if key not in properties]
    if unknown and properties:
        raise ToolCallParseError(f"{name}: unknown argument(s) {', '.join(map(str, unknown))}")
    for key, value in arguments.items():
        expected = properties.get(key, {}).get("type")
        allowed = _JSON_TYPES.get(expected) if isinstance(expected, str) else None
        wrong_bool = isinstance(value, bool) and expected in ("integer", "number")
        if allowed and (not isinstance(value, allowed) or wrong_bool):
            raise ToolCallParseError(
                f"{name}: argument '{key}' must be {expected}, got {type(value).__name__}"
            )
        spec = properties.get(key, {})
        if isinstance(value, str) and len(value) < int(spec.get("minLength", 0)):
            raise ToolCallParseError(f"{name}: argument '{key}' must not be empty")
        pattern = spec.get("pattern")
        if isinstance(value, str) and isinstance(pattern, str) and not re.search(pattern, value):
            raise ToolCallParseError(f"{name}: argument '{key}' must match {pattern}")


def _looks_truncated(text: str) -> bool:
    stripped = text.rstrip()
    return stripped.count("{") > stripped.count("}") or stripped.count('"') % 2 == 1
