import sys

from payroll import monthly_figures, payslip_text

STAFF = [("Asha Patel", 48_000, True), ("Tom Reid", 26_500, False), ("Lena Voss", 140_000, True)]


def total_net(staff=STAFF):
    return round(sum(monthly_figures(gross, pension)["net"] for _name, gross, pension in staff), 2)


def all_payslips(month, staff=STAFF):
    return [payslip_text(name, gross, month, pension) for name, gross, pension in staff]


if __name__ == "__main__":
    month = sys.argv[1] if len(sys.argv) > 1 else "2025-04"
    print("\n\n".join(all_payslips(month)))
    print(f"\ntotal net: {total_net()}")
