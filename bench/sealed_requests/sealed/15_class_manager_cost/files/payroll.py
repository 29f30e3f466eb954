def monthly(salary):
    return round(salary / 12, 2)


def payslip(employee):
    return f"{employee.name}: {monthly(employee.salary):.2f} a month"
