import caesar


def test_encrypt():
    assert caesar.encrypt("abc", 1) == "bcd"
    assert caesar.encrypt("xyz", 3) == "abc"
    assert caesar.encrypt("Hello, World!", 5) == "Mjqqt, Btwqi!"


def test_decrypt_undoes_encrypt():
    assert caesar.decrypt("bcd", 1) == "abc"
    text = "Attack at Dawn, 6am."
    assert caesar.decrypt(caesar.encrypt(text, 7), 7) == text
