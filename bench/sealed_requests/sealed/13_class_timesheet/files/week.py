from datetime import datetime

from timesheet import Timesheet


def demo_week():
    sheet = Timesheet("sam")
    sheet.add("website", datetime(2024, 6, 3, 9), datetime(2024, 6, 3, 12, 30))
    sheet.add("app", datetime(2024, 6, 3, 13), datetime(2024, 6, 3, 17))
    sheet.add("website", datetime(2024, 6, 4, 9), datetime(2024, 6, 4, 11))
    return sheet


if __name__ == "__main__":
    sheet = demo_week()
    print(f"{sheet.person}: {sheet.hours()} h on {', '.join(sheet.projects())}")
