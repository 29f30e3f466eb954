CUSTOMERS = {
    "C001": {"name": "Acme Ltd", "email": "billing@acme.test"},
    "C002": {"name": "Bolt & Sons", "email": "accounts@bolt.test"},
}


def get_customer(customer_id):
    try:
        return CUSTOMERS[customer_id]
    except KeyError:
        raise ValueError(f"unknown customer {customer_id}") from None
