"""pytest plugin: the rule named in RULE_OFF is off by default, as if deleted."""
import dataclasses
import os

from agents import rule_registry as rr

_name = os.environ["RULE_OFF"]
_off = dataclasses.replace(rr._BY_NAME[_name], default=False)
rr._BY_NAME[_name] = _off
rr.RULES = tuple(_off if r.name == _name else r for r in rr.RULES)
