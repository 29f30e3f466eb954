import roman


def test_to_roman():
    cases = {1: "I", 4: "IV", 9: "IX", 14: "XIV", 40: "XL", 90: "XC", 400: "CD"}
    cases |= {1994: "MCMXCIV", 2024: "MMXXIV", 3999: "MMMCMXCIX"}
    for n, numeral in cases.items():
        assert roman.to_roman(n) == numeral, n
