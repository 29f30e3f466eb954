"""The payslip: the month's figures, one per line."""

from payroll import monthly_figures


def money(amount):
    return f"£{amount:,.2f}"


def payslip_lines(name, annual_gross, month, pension=True):
    figures = monthly_figures(annual_gross, pension)
    lines = [f"Payslip {month} - {name}"]
    lines += [f"{label:<10}{money(figures[label]):>12}" for label in ("gross", "tax", "pension", "net")]
    return lines


def payslip_text(name, annual_gross, month, pension=True):
    return "\n".join(payslip_lines(name, annual_gross, month, pension))
