from expenses import total


def remaining(budget, expenses):
    return round(budget - total(expenses), 2)


def over_budget(budget, expenses):
    return remaining(budget, expenses) < 0
