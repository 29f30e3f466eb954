from plans import PLANS, Plan


class Member:
    def __init__(self, name, plan):
        if not isinstance(plan, Plan):
            plan = PLANS[plan]
        self.name = name
        self.plan = plan
        self.classes_this_month = 0

    def book_class(self):
        if self.classes_this_month >= self.plan.classes_per_month:
            raise ValueError(f"{self.name} has no classes left this month")
        self.classes_this_month += 1

    def change_plan(self, plan_name):
        self.plan = PLANS[plan_name]
