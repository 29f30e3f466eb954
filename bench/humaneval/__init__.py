"""HumanEval pass@1 for the crew and for one plain call: `python -m bench.humaneval` (cli.py)."""

from bench.humaneval.cli import main, parse_args

__all__ = ["main", "parse_args"]
