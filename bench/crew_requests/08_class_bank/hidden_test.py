import pytest
from bank import BankAccount


def test_deposit_and_withdraw():
    account = BankAccount("Ada")
    assert account.owner == "Ada"
    assert account.balance == 0
    account.deposit(100)
    account.withdraw(30)
    assert account.balance == 70


def test_opening_balance():
    assert BankAccount("Bob", 50).balance == 50


def test_overdraft_is_refused():
    account = BankAccount("Ada", 10)
    with pytest.raises(ValueError):
        account.withdraw(11)
    assert account.balance == 10


def test_amounts_must_be_positive():
    account = BankAccount("Ada", 10)
    with pytest.raises(ValueError):
        account.deposit(0)
    with pytest.raises(ValueError):
        account.withdraw(-5)
