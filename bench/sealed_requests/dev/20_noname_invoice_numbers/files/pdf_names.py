from numbering import parse_number


def file_name(number, customer):
    safe = "".join(c if c.isalnum() else "_" for c in customer.lower())
    return f"{parse_number(number)}_{safe}.pdf"
