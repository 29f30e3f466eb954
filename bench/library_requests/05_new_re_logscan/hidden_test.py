import logscan

LOG = """INFO 200: started
ERROR 404: Not found
WARNING 300: slow disk
error 500: Server down
INFO 201: created
Error 403: Forbidden for ann"""


def test_find_errors():
    found = [(str(code), message.strip()) for code, message in logscan.find_errors(LOG)]
    assert found == [("404", "Not found"), ("500", "Server down"), ("403", "Forbidden for ann")]
    assert list(logscan.find_errors("INFO 200: all good\n")) == []


def test_mask_emails():
    text = "Write to ann@example.com or bob.smith@mail.org today."
    assert logscan.mask_emails(text) == "Write to ***@example.com or *********@mail.org today."
    assert logscan.mask_emails("no address here") == "no address here"
