import csv
import io


def format_date(day):
    return day.isoformat()


def format_amount(amount):
    return f"{amount:.2f}"


def export_rows(transactions):
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["date", "description", "amount"])
    for t in transactions:
        writer.writerow([format_date(t["date"]), t["description"], format_amount(t["amount"])])
    return out.getvalue()
