"""The score sheets' QR codes (``printing.qr_codes``) are segno's, module for module."""

import random
import string

import pytest
import segno

from printing.qr_codes import qr_matrix


def segno_matrix(text: str) -> tuple[tuple[int, ...], ...]:
    code = segno.make(text, error="m", mask=0)  # level M (raised where it fits), mask 0
    return tuple(tuple(1 if module else 0 for module in row) for row in code.matrix)


def texts() -> list[str]:
    rng = random.Random(29)
    alphabet = string.ascii_letters + string.digits + "-_/:.?=&%"
    found = []
    for length in [*range(1, 90, 3), *range(90, 700, 23)]:
        word = "".join(rng.choice(alphabet) for _ in range(length))
        found += [word, f"http://192.168.178.20:8000/t/{word}/", word.upper()]
    return found


@pytest.mark.parametrize("text", texts())
def test_the_matrix_is_segnos(text):
    """Every version from 1 to 40 on the way, byte and alphanumeric mode, Micro QR codes."""
    assert qr_matrix(text) == segno_matrix(text)


@pytest.mark.parametrize(
    "text", ["12345", "HTTP://CEGO.EXAMPLE/T/ABC/", "Müller ß", "https://x.example/€/"]
)
def test_numbers_capitals_and_umlauts_as_segno_encodes_them(text):
    assert qr_matrix(text) == segno_matrix(text)
