COUPONS = {"TENOFF": 0.10, "HALF": 0.50}


def apply_coupon(total, code=None):
    if code is None:
        return total
    if code not in COUPONS:
        raise ValueError(f"unknown coupon {code}")
    return round(total * (1 - COUPONS[code]), 2)
