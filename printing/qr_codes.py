"""A QR code's modules, the same as ``segno.make(text, error="m", mask=0).matrix``, made in a
quarter of the time (a round's 40 score sheets: some 50 ms of a fresh venue's first click
went into segno, issue 29).

segno decides everything a code says: the mode and bytes, the version, the error level
(raised where the data fits, as segno does), the data and padding bits (its own functions).
Done here instead: the error correction codewords (a row of products per coefficient, worked
out once per generator), their bits interleaved as segno does, and their placement: where
each bit goes and mask 0's bit there are worked out once per version (segno placed and
masked module by module, with a function call for each, for every code); the format and
version information are segno's again. Micro QR codes (short texts) are left to segno.
``tests/printing/test_qr_codes.py`` compares the matrices with segno's.
"""

from __future__ import annotations

from functools import cache
from itertools import chain, zip_longest

import segno
from segno import consts, encoder

ERROR = consts.ERROR_LEVEL_M
MASK = 0
# remainder bits after the codewords, by version (ISO/IEC 18004:2015 7.6; segno's own figures)
REMAINDER = {
    **dict.fromkeys((2, 3, 4, 5, 6), 7),
    **dict.fromkeys((14, 15, 16, 17, 18, 19, 20, 28, 29, 30, 31, 32, 33, 34), 3),
    **dict.fromkeys((21, 22, 23, 24, 25, 26, 27), 4),
}
BITS = tuple(tuple((value >> shift) & 1 for shift in range(7, -1, -1)) for value in range(256))


def qr_matrix(text: str) -> tuple[tuple[int, ...], ...]:
    """The rows of dark (1) and light (0) modules, without the quiet zone."""
    segments = encoder.prepare_data(text, None, None)
    version = encoder.find_version(segments, ERROR, eci=False, micro=None)
    if version < 1:  # a Micro QR code
        return _rows(segno.make(text, error="m", mask=MASK).matrix)
    error = encoder.boost_error_level(version, ERROR, segments, False)
    buffer = encoder.Buffer()
    for segment in segments:
        encoder.write_segment(buffer, segment, None, encoder.version_range(version), False)
    capacity = consts.SYMBOL_CAPACITY[version][error]
    encoder.write_terminator(buffer, capacity, None, len(buffer))
    encoder.write_padding_bits(buffer, version, len(buffer))
    encoder.write_pad_codewords(buffer, version, capacity, len(buffer))
    bits = _final_message(version, error, _codewords(buffer.getbits()))
    template, places = _layout(version)
    matrix = tuple(bytearray(row) for row in template)
    for (row, column, mask), bit in zip(places, bits, strict=True):
        matrix[row][column] = bit ^ mask
    encoder.add_format_info(matrix, version, error, MASK)
    encoder.add_version_info(matrix, version)
    return tuple(map(tuple, matrix))  # every module set, to 0 or 1


def _rows(matrix) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(1 if module else 0 for module in row) for row in matrix)


def _codewords(bits: bytearray) -> bytes:
    """The buffer's bits as bytes (the last one filled with zeros, as segno does)."""
    digits = bytes(bits).translate(_AS_DIGITS) + b"0" * (-len(bits) % 8)
    return int(digits, 2).to_bytes(len(digits) // 8, "big") if digits else b""


_AS_DIGITS = bytes.maketrans(b"\x00\x01", b"01")


def _final_message(version: int, error: int, codewords: bytes) -> list[int]:
    """The data codewords and their error correction codewords, each interleaved across
    the blocks, as bits, and the remainder bits (``encoder.make_final_message``)."""
    data_blocks, error_blocks = [], []
    position = 0
    for info in consts.ECC[version][error]:
        products = _products(info.num_total - info.num_data)
        for _block in range(info.num_blocks):
            block = list(codewords[position : position + info.num_data])
            position += info.num_data
            data_blocks.append(block)
            error_blocks.append(_correction(block, products))
    data = [x for x in chain.from_iterable(zip_longest(*data_blocks)) if x is not None]
    ecc = [x for x in chain.from_iterable(zip_longest(*error_blocks)) if x is not None]
    return [
        *chain.from_iterable(BITS[value] for value in data),
        *chain.from_iterable(BITS[value] for value in ecc),
        *[0] * REMAINDER.get(version, 0),
    ]


@cache
def _products(count: int) -> tuple[tuple[int, ...], ...]:
    """For each byte ``c``: ``c`` times each of the generator's ``count`` coefficients."""
    log, exp = consts.GALIOS_LOG, consts.GALIOS_EXP
    generator = consts.GEN_POLY[count]
    return ((0,) * count,) + tuple(
        tuple(exp[log[coefficient] + power] for power in generator) for coefficient in range(1, 256)
    )


def _correction(block: list[int], products: tuple[tuple[int, ...], ...]) -> list[int]:
    """The block's error correction codewords (its remainder by the generator)."""
    remainder = [0] * len(products[0])
    for value in block:
        row = products[value ^ remainder[0]]
        remainder = [a ^ b for a, b in zip(remainder[1:] + [0], row, strict=True)]
    return remainder


@cache
def _layout(version: int) -> tuple[tuple[bytearray, ...], tuple[tuple[int, int, int], ...]]:
    """The code's function patterns (free modules 0x2, as segno leaves them) and, in the
    order segno fills them, the free modules with mask 0's bit there."""
    size = encoder.calc_matrix_size(version)
    template = encoder.make_matrix(size, size)
    encoder.add_finder_patterns(template, size, size)
    encoder.add_alignment_patterns(template, size, size)
    # segno's own walk, on a copy whose rows take any number: the free modules numbered
    walk = [list(row) for row in template]
    free = sum(row.count(0x2) for row in walk)
    encoder.add_codewords(walk, [256 + index for index in range(free)], version)
    where = {
        value - 256: (row, column)
        for row, values in enumerate(walk)
        for column, value in enumerate(values)
        if value >= 256
    }
    mask = encoder.get_data_mask_functions(False)[MASK]
    places = tuple(
        (row, column, 1 if mask(row, column) else 0)
        for row, column in (where[index] for index in range(free))
    )
    return template, places
