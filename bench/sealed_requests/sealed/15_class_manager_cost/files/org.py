from staff import Employee, Manager


def sample_org():
    dev1, dev2, dev3 = Employee("Ada", 70000), Employee("Bo", 65000), Employee("Cy", 60000)
    lead = Manager("Dee", 90000, [dev1, dev2])
    ops = Manager("Eve", 85000, [dev3])
    cto = Manager("Fay", 150000, [lead, ops])
    return cto


def names(manager):
    return [e.name for e in manager.reports]
