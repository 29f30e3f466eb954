from vending import VendingMachine


def office_machine():
    machine = VendingMachine({"cola": 150, "chips": 120, "water": 90})
    for item in ("cola", "chips", "water"):
        machine.load(item, 5)
    return machine
