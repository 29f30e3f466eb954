"""Monthly pay: income tax by band, a pension contribution, and the payslip."""

BANDS = [(12_570, 0.0), (50_270, 0.20), (125_140, 0.40), (None, 0.45)]  # (up to, rate)
PENSION_RATE = 0.05


def income_tax(annual_gross):
    tax, lower = 0.0, 0
    for upper, rate in BANDS:
        top = annual_gross if upper is None else min(annual_gross, upper)
        if top > lower:
            tax += (top - lower) * rate
        if upper is None or annual_gross <= upper:
            break
        lower = upper
    return round(tax, 2)


def monthly_figures(annual_gross, pension=True):
    gross = annual_gross / 12
    tax = income_tax(annual_gross) / 12
    contribution = gross * PENSION_RATE if pension else 0.0
    return {
        "gross": round(gross, 2),
        "tax": round(tax, 2),
        "pension": round(contribution, 2),
        "net": round(gross - tax - contribution, 2),
    }


def money(amount):
    return f"£{amount:,.2f}"


def payslip_lines(name, annual_gross, month, pension=True):
    figures = monthly_figures(annual_gross, pension)
    lines = [f"Payslip {month} - {name}"]
    lines += [f"{label:<10}{money(figures[label]):>12}" for label in ("gross", "tax", "pension", "net")]
    return lines


def payslip_text(name, annual_gross, month, pension=True):
    return "\n".join(payslip_lines(name, annual_gross, month, pension))
