import sys

from customers import get_customer
from invoice import grand_total, invoice_total, line_total, tax
from money import money


def render(customer_id, lines):
    customer = get_customer(customer_id)
    out = [f"Invoice for {customer['name']}"]
    for line in lines:
        out.append(f"  {line['description']:<20} {line['qty']:>3} x {money(line['unit_price'])} = {money(line_total(line))}")
    subtotal = invoice_total(lines)
    out.append(f"Subtotal: {money(subtotal)}")
    out.append(f"Tax: {money(tax(subtotal))}")
    out.append(f"Total: {money(grand_total(lines))}")
    return "\n".join(out)


if __name__ == "__main__":
    demo = [{"description": "Widget", "qty": 3, "unit_price": 19.99}]
    print(render(sys.argv[1] if len(sys.argv) > 1 else "C001", demo))
