"""`--without NAME[,NAME]`, `--with NAME` and `--list-rules`, the same on every crew benchmark."""

from __future__ import annotations

import argparse
from dataclasses import replace

from agents.rules.registry import RuleSwitches, parse_names
from agents.run.runner import CrewSettings


def add_rule_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--without", default="", help="crew rules switched off, e.g. second_opinion,keep_best"
    )
    parser.add_argument("--with", dest="with_rules", default="", help="rules off by default switched on")
    parser.add_argument("--list-rules", action="store_true", help="print the rule registry (JSON) and stop")
    parser.add_argument(
        "--candidates",
        type=int,
        default=None,
        help="candidates a sampled retry decodes together (default: by hardware)",
    )


def with_candidates(crew: CrewSettings | None, candidates: int | None) -> CrewSettings | None:
    """The crew settings with --candidates applied (None: as they were)."""
    if candidates is None:
        return crew
    return replace(crew or CrewSettings(), candidates=candidates)


def rule_switches(parser: argparse.ArgumentParser, args: argparse.Namespace) -> RuleSwitches:
    try:
        return RuleSwitches(parse_names(args.without), parse_names(args.with_rules))
    except ValueError as exc:
        parser.error(str(exc))
