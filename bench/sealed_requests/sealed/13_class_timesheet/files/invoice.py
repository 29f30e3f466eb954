RATES = {"website": 80.0, "app": 95.0}


def amount(timesheet, project, default_rate=70.0):
    hours = sum(e.hours() for e in timesheet.entries if e.project == project)
    return round(hours * RATES.get(project, default_rate), 2)
