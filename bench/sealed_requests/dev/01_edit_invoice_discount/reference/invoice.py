"""Invoice arithmetic: each line is a dict with 'description', 'qty' and 'unit_price'."""


def line_total(line):
    return round(line["qty"] * line["unit_price"], 2)


def invoice_total(lines, discount=0):
    subtotal = sum(line_total(line) for line in lines)
    return round(subtotal * (1 - discount / 100), 2)


def tax(amount, rate=0.2):
    return round(amount * rate, 2)


def grand_total(lines, rate=0.2):
    subtotal = invoice_total(lines)
    return round(subtotal + tax(subtotal, rate), 2)
