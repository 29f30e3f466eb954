class Plan:
    """A gym membership: a monthly fee and the group classes it includes each month."""

    def __init__(self, name, monthly_fee, classes_per_month):
        if monthly_fee < 0:
            raise ValueError("fee can't be negative")
        self.name = name
        self.monthly_fee = monthly_fee
        self.classes_per_month = classes_per_month

    def cost(self, months):
        """A year paid at once gets two months free."""
        if months >= 12:
            return self.monthly_fee * (months - 2 * (months // 12))
        return self.monthly_fee * months

    def __repr__(self):
        return f"Plan({self.name!r}, {self.monthly_fee}, {self.classes_per_month})"


PLANS = {
    "basic": Plan("basic", 25, 0),
    "plus": Plan("plus", 39, 8),
    "unlimited": Plan("unlimited", 55, 999),
}
