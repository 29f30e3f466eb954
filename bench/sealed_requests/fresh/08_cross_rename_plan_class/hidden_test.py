import ast
import hashlib
from pathlib import Path

import billing
import members
import plans
from test_gym import test_amount_due, test_basic_has_no_classes, test_booking_classes  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_gym.py": "cb5ae5973911db09bb0727000fd066de9b3ec2156035c135dc64e2be24b7b2b4"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_the_new_name_works_and_the_old_is_gone():
    plan = plans.MembershipPlan("trial", 10, 2)
    assert plan.cost(12) == 100 and plan.classes_per_month == 2
    assert all(isinstance(p, plans.MembershipPlan) for p in plans.PLANS.values())
    assert not hasattr(plans, "Plan")


def test_no_file_uses_the_old_name():
    for path in HERE.glob("*.py"):
        if path.name.startswith("test_"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [getattr(node, "id", None), getattr(node, "attr", None)]
            names += [getattr(node, "name", None)] if isinstance(node, ast.ClassDef | ast.alias) else []
            assert "Plan" not in names, path.name


def test_the_callers_work():
    custom = plans.MembershipPlan("corporate", 30, 4)
    member = members.Member("Ivo", custom)
    assert member.plan is custom
    assert billing.amount_due(member, 2, student=True) == 48
    assert isinstance(billing.student_plan(custom), plans.MembershipPlan)
    member.change_plan("unlimited")
    assert billing.amount_due(member, 1) == 55
