import sys

from billing import INVOICES, overdue_reminders
from reminders import reminder_text


def main(argv):
    if argv and argv[0] == "preview":
        print(reminder_text({"customer": "Sample Customer", "amount": 99.99, "days_late": 40}))
        return 0
    for text in overdue_reminders(INVOICES):
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
