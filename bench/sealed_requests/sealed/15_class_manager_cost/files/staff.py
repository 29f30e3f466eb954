class Employee:
    def __init__(self, name, salary):
        if salary < 0:
            raise ValueError("salary cannot be negative")
        self.name = name
        self.salary = salary

    def raise_salary(self, percent):
        self.salary = round(self.salary * (1 + percent / 100), 2)

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.salary})"


class Manager(Employee):
    def __init__(self, name, salary, reports=None):
        super().__init__(name, salary)
        self.reports = list(reports or [])

    def add_report(self, employee):
        if employee is self:
            raise ValueError("a manager cannot report to themselves")
        self.reports.append(employee)

    def team_size(self):
        return len(self.reports)
