"""HumanEval text handling: the visible docstring examples, and a program from a model's reply.

Nothing here reads a problem's hidden `test` field: the crew's feedback comes only from
`docstring_examples(prompt, ...)`. Both modes turn replies into programs with `solution_from_reply`,
so neither is favoured by its extraction.
"""

from __future__ import annotations

import ast
import re
import textwrap

from agents.rules.checks.docstring_examples import Example, docstring_examples

_PYTHON_FENCE = re.compile(r"```[ \t]*(?:python3?|py)[ \t]*\n(.*?)(?:```|\Z)", re.S | re.I)
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\n(.*?)(?:```|\Z)", re.S)

__all__ = ["Example", "docstring_examples"]


def prompt_header(prompt: str, entry_point: str) -> str:
    """The prompt up to the entry point's `def`: imports and helper functions a reply may rely on."""
    match = re.search(rf"^def {re.escape(entry_point)}\s*\(", prompt, re.M)
    return prompt[: match.start()] if match else prompt


def code_of_reply(reply: str, entry_point: str) -> str:
    """The code in a chat reply: the block that defines the entry point, else the first block.

    Small models open stray fences ("```" then prose then "```python"), so ```python blocks are
    tried before bare ones, and a `def` of the entry point outside any block is taken up to the
    next fence.
    """
    defines = re.compile(rf"^\s*def {re.escape(entry_point)}\s*\(", re.M)
    python_blocks = _PYTHON_FENCE.findall(reply)
    blocks = python_blocks + [body for _lang, body in _FENCE.findall(reply)]
    for block in blocks:
        if defines.search(block):
            return block
    loose = defines.search(reply)
    if loose:
        return reply[loose.start() :].split("```")[0]
    return blocks[0] if blocks else reply


def _parseable_prefix(code: str) -> ast.Module | None:
    """Parse the code, dropping trailing lines until it parses (a reply cut off by max_tokens)."""
    lines = code.rstrip().splitlines()
    while lines:
        try:
            return ast.parse("\n".join(lines))
        except SyntaxError:
            lines.pop()
    return None


def _definitions_only(code: str) -> str | None:
    """Imports, functions, classes and plain assignments; demo calls and prints at top level dropped."""
    module = _parseable_prefix(code)
    if module is None:
        return None
    source = "\n".join(code.rstrip().splitlines())
    kept = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Assign)
    parts = [ast.get_source_segment(source, node, padded=True) or "" for node in module.body]
    nodes = [
        part for node, part in zip(module.body, parts, strict=True) if isinstance(node, kept) and part.strip()
    ]
    return "\n\n".join(nodes) if nodes else None


def solution_from_reply(prompt: str, entry_point: str, reply: str) -> str:
    """A whole program from a reply: the prompt's header plus the reply's function.

    A reply that writes the whole function keeps its own signature; a reply that is only a body is
    put under the prompt's signature and docstring. Unparseable text yields the bare prompt, which
    fails its checks like any wrong answer.
    """
    code = textwrap.dedent(code_of_reply(reply, entry_point)).strip("\n")
    header = prompt_header(prompt, entry_point)
    if re.search(rf"^def {re.escape(entry_point)}\s*\(", code, re.M):
        definitions = _definitions_only(code)
        if definitions and f"def {entry_point}" in definitions:
            return f"{header.rstrip()}\n\n\n{definitions}\n".lstrip("\n")
    body = textwrap.indent(textwrap.dedent(code), "    ")
    program = prompt.rstrip() + "\n" + body + "\n"
    module = _parseable_prefix(program)
    if module is not None and any(
        isinstance(n, ast.FunctionDef) and n.name == entry_point for n in module.body
    ):
        return _definitions_only(program) or program
    return prompt.rstrip() + "\n    pass\n"


def function_source(program: str, entry_point: str) -> str:
    """The entry point's code without its docstring: what the coder and reviewer are shown back."""
    module = _parseable_prefix(program)
    for node in module.body if module else []:
        if isinstance(node, ast.FunctionDef) and node.name == entry_point:
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                body = body[1:] or [ast.Pass()]
            return ast.unparse(ast.FunctionDef(**{**node.__dict__, "body": body}))
    return program
