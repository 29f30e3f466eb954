from plans import Plan


def student_plan(base):
    """The same plan at 20% off, for students."""
    return Plan(base.name + "-student", round(base.monthly_fee * 0.8, 2), base.classes_per_month)


def amount_due(member, months, student=False):
    plan = student_plan(member.plan) if student else member.plan
    return plan.cost(months)
