from receipt import receipt, receipt_text

DINNER = [("pasta", 14.5), ("pizza", 12.0), ("wine", 24.0)]


def test_receipt():
    bill = receipt(DINNER, 2)
    assert bill["subtotal"] == 50.5
    assert bill["shares"] == [25.25, 25.25]


def test_text():
    text = receipt_text(DINNER, 2)
    assert "50.50" in text and text.count("25.25") == 2
