"""The toolkit every tournament-day printout is drawn with: ReportLab, no system library.

WeasyPrint needs Pango (on Windows: MSYS2, installed by hand); ReportLab is a wheel with its own
fonts. Here: the fonts (DejaVu Sans where the system has it, else the Bitstream Vera fonts
ReportLab ships), text measured and wrapped in runs of several fonts (:class:`Span`,
:func:`wrap`), a canvas measured from the top left (:class:`PageCanvas`), the page head the
printouts share (:func:`page_head`), the footer "Cego Club … Seite 2 / 4" numbered over the
whole document (:class:`NumberedCanvas`: pages are held back until the count is known), and a
table cell of wrapped runs for platypus tables (:class:`SpanCell`).

No Django here apart from the labels passed in: the documents (``printing.score_sheets``,
``seat_plan``, ``table_cards``, ``standings_list``, ``prize_list``) say what is drawn.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache, partial
from pathlib import Path

from reportlab import rl_config
from reportlab.lib.colors import HexColor
from reportlab.lib.pagesizes import A4
from reportlab.lib.rl_accel import fp_str
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate, Table

PAGE_WIDTH, PAGE_HEIGHT = A4
# Page streams compressed and written as bytes, not ASCII85 text on top (a quarter larger).
rl_config.useA85 = 0

BLACK = HexColor("#000000")
GREY_TEXT = HexColor("#555555")  # the footer, withdrawn players
MUTED = HexColor("#444444")
RED = HexColor("#aa0000")
SHADE = HexColor("#eeeeee")  # every second row of a list
RULE = HexColor("#bbbbbb")  # the line under a row

LINE_HEIGHT = 1.17  # DejaVu's own line height ("normal"), in ems
ASCENT = 0.93  # DejaVu's ascender, in ems: the baseline below a line's top
CAP_HEIGHT = 0.73  # DejaVu's capitals and digits, in ems

# role: (DejaVu's file, Vera's file). Roles after the first four fall back to another role
# of the same family where the file is missing (fonts-dejavu-core has neither oblique nor
# condensed; Vera has no condensed cut).
FONT_FILES = {
    "regular": ("DejaVuSans.ttf", "Vera.ttf"),
    "bold": ("DejaVuSans-Bold.ttf", "VeraBd.ttf"),
    "italic": ("DejaVuSans-Oblique.ttf", "VeraIt.ttf"),
    "mono-bold": ("DejaVuSansMono-Bold.ttf", "VeraBd.ttf"),
    "bold-italic": ("DejaVuSans-BoldOblique.ttf", "VeraBI.ttf"),
    "condensed": ("DejaVuSansCondensed.ttf", None),
    "condensed-bold": ("DejaVuSansCondensed-Bold.ttf", None),
}
FONT_FALLBACK = {
    "italic": "regular",
    "bold-italic": "bold",
    "condensed": "regular",
    "condensed-bold": "bold",
}
FONT_DIRS = (
    "/usr/share/fonts/truetype/dejavu",
    "/usr/share/fonts/dejavu",
    "/usr/share/fonts/TTF",
    "/usr/share/fonts/truetype",
    "/usr/local/share/fonts",
    "/opt/homebrew/share/fonts",
    "/Library/Fonts",
    str(Path.home() / "Library" / "Fonts"),
    str(Path.home() / ".local" / "share" / "fonts"),
    "C:/Windows/Fonts",
)


@dataclass(frozen=True)
class Fonts:
    """The registered names of the printouts' fonts."""

    regular: str
    bold: str
    italic: str
    mono_bold: str
    bold_italic: str
    condensed: str
    condensed_bold: str
    missing_glyphs: bool  # Vera: map characters it lacks (e.g. "−") to ones it has


def _find_font(filename: str) -> Path | None:
    for directory in FONT_DIRS:
        path = Path(directory) / filename
        if path.is_file():
            return path
    return None


def _font_plan() -> tuple[dict[str, tuple[str, Path]], bool]:
    """Each role's registered name and file (a missing cut: its fallback's), and whether the
    family is Vera (DejaVu where its regular, bold and mono bold files are found)."""
    import reportlab

    vera_dir = Path(reportlab.__file__).parent / "fonts"
    dejavu = {role: _find_font(files[0]) for role, files in FONT_FILES.items()}
    use_dejavu = all(dejavu[role] for role in ("regular", "bold", "mono-bold"))
    family = "DejaVu" if use_dejavu else "Vera"
    plan: dict[str, tuple[str, Path]] = {}
    for role, (_dejavu_file, vera_file) in FONT_FILES.items():
        path = dejavu[role] if use_dejavu else (vera_dir / vera_file if vera_file else None)
        if path is None:  # the same family's nearest cut, registered once
            plan[role] = plan[FONT_FALLBACK[role]]
            continue
        plan[role] = (f"Sheet{family}-{role}", path)
    return plan, not use_dejavu


@cache
def _register(name: str, path: Path) -> None:
    pdfmetrics.registerFont(TTFont(name, str(path)))  # reads the file: ~15 ms each


@cache
def fonts(*roles: str) -> Fonts:
    """The fonts' names, with the files of ``roles`` read and registered (once per process;
    every role when none is named: a document that uses only some reads only those)."""
    plan, missing_glyphs = _font_plan()
    for role in roles or plan:
        _register(*plan[role])
    return Fonts(
        **{role.replace("-", "_"): name for role, (name, _path) in plan.items()},
        missing_glyphs=missing_glyphs,
    )


# Characters Vera lacks, spelt with ones it has.
VERA_SPELLINGS = str.maketrans({"−": "-", "…": "...", "„": '"', "“": '"', "”": '"', "‑": "-"})


# --- text ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Span:
    """A run of text in one font."""

    text: str
    font: str
    size: float
    color: object = BLACK


@lru_cache(maxsize=65536)
def text_width(text: str, font: str, size: float) -> float:
    """``text``'s width in ``font`` (a registered name) at ``size``, measured once per process
    (a sheet measures the same names and labels again and again)."""
    return pdfmetrics.stringWidth(text, font, size)


def width_of(span: Span) -> float:
    return text_width(span.text, span.font, span.size)


def line_width(line: Sequence[Span]) -> float:
    return sum(width_of(span) for span in line)


def words_of(spans: Iterable[Span]) -> list[list[Span]]:
    """The spans cut into words (a word may change font midway); a hyphen after a letter ends
    a word too."""
    words: list[list[Span]] = [[]]
    for span in spans:
        piece = ""
        for char in span.text:
            if char == " ":
                if piece:
                    words[-1].append(Span(piece, span.font, span.size, span.color))
                piece = ""
                if words[-1]:
                    words.append([])
            else:
                piece += char
                # after a hyphen between letters (Hans-|Peter), not a minus sign ((-|200))
                if char == "-" and len(piece) > 1 and piece[-2].isalpha():
                    words[-1].append(Span(piece, span.font, span.size, span.color))
                    piece = ""
                    words.append([])
        if piece:
            words[-1].append(Span(piece, span.font, span.size, span.color))
    return [word for word in words if word]


def wrap(spans: Sequence[Span], width: float) -> list[list[Span]]:
    """Lines of at most ``width`` points, broken between words or after a hyphen; a word
    wider than a line is set smaller to fit."""
    lines: list[list[Span]] = []
    line: list[Span] = []
    used = 0.0
    space = {}
    for word in words_of(spans):
        word_width = sum(width_of(s) for s in word)
        if word_width > width:  # a name longer than the column: smaller type
            scale = width / word_width
            word = [Span(s.text, s.font, s.size * scale, s.color) for s in word]
            word_width = width
        first = word[0]
        key = (first.font, first.size)
        if key not in space:
            space[key] = text_width(" ", first.font, first.size)
        joined_by_space = line and not line[-1].text.endswith("-")
        gap = space[key] if joined_by_space else 0.0
        if line and used + gap + word_width > width:
            lines.append(line)
            line, used, gap = [], 0.0, 0.0
        if gap:
            last = line[-1]
            line[-1] = Span(last.text + " ", last.font, last.size, last.color)
        line.extend(word)
        used += gap + word_width
    if line:
        lines.append(line)
    return lines


def measured_words(spans: Sequence[Span]) -> list[tuple[float, float]]:
    """(width, space before it) for each piece a line may break after (a space, a hyphen),
    as :func:`wrap` breaks them."""
    out: list[tuple[float, float]] = []
    previous = ""
    for word in words_of(spans):
        gap = 0.0
        if previous and not previous.endswith("-"):
            gap = pdfmetrics.stringWidth(" ", word[0].font, word[0].size)
        out.append((sum(width_of(s) for s in word), gap))
        previous = word[-1].text
    return out


def count_lines(words: Sequence[tuple[float, float]], room: float) -> int:
    """How many lines :func:`wrap` makes of ``words`` (from :func:`measured_words`)."""
    lines, used = 1, 0.0
    for width, gap in words:
        width = min(width, room)  # a word wider than the column is set smaller
        if used and used + gap + width > room:
            lines, used = lines + 1, width
        else:
            used += (gap if used else 0.0) + width
    return lines


@dataclass(frozen=True)
class Split:
    second: float  # the second column's width
    heights: tuple[float, ...]  # each row's height at that width


def share_width(
    rows: Sequence[tuple[Sequence[Span], Sequence[Span]]],
    free: float,
    *,
    pad: float,
    second_min: float,
    row_height: Callable[[int, int], float],
) -> Split:
    """Two columns sharing ``free`` points (a name and a club): of the widths of the second a
    millimetre apart (and the one that fits its widest cell), the one whose rows take the
    least height; among equals the wider first column. ``rows``: each row's two cells;
    ``row_height`` (lines of the first, lines of the second) gives a row's height."""
    measured = [(measured_words(first), measured_words(second)) for first, second in rows]
    needs = max(
        (sum(w + g for w, g in second) + 2 * pad for _first, second in measured if second),
        default=0.0,
    )

    def heights(width: float) -> tuple[float, ...]:
        first_room, second_room = free - width - 2 * pad, width - 2 * pad
        return tuple(
            row_height(
                count_lines(first, first_room), count_lines(second, second_room) if second else 1
            )
            for first, second in measured
        )

    widest = max(second_min, min(needs, free - second_min))
    steps = int((widest - second_min) / mm) + 1
    best_width, best = second_min, None
    for width in [*(second_min + step * mm for step in range(steps)), widest]:
        total = sum(heights(width))
        if best is None or total < best - 0.01:
            best_width, best = width, total
    return Split(best_width, heights(best_width))


def line_height(line: Sequence[Span]) -> float:
    return max(span.size for span in line) * LINE_HEIGHT


def lines_height(lines: Sequence[Sequence[Span]]) -> float:
    return sum(line_height(line) for line in lines)


def fit(text: str, font: str, size: float, width: float) -> str:
    """``text`` cut with "…" so that it fits ``width`` (a cell that shows no overflow)."""
    if text_width(text, font, size) <= width:
        return text
    while text and pdfmetrics.stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def shrink(text: str, font: str, size: float, width: float, smallest: float = 5.5) -> float:
    """The size at which ``text`` fits ``width`` (not below ``smallest``)."""
    natural = text_width(text, font, size)
    return size if natural <= width else max(smallest, size * width / natural)


def centred(top: float, height: float, size: float) -> float:
    """The top of a line of ``size`` whose capitals sit in the middle of a row from ``top``
    of ``height``."""
    return top + height / 2 - (ASCENT - CAP_HEIGHT / 2) * size


# --- drawing ------------------------------------------------------------------------------


class PageCanvas:
    """A ReportLab canvas measured in points from the top left corner of an area ``height``
    tall (the page, or a flowable's box)."""

    def __init__(
        self, canvas: Canvas, *, fonts: Fonts, height: float = PAGE_HEIGHT, batch: bool = False
    ):
        self._canvas = canvas
        self.fonts = fonts
        self.height = height
        # batch: strings, rules and fills are written as PDF operators into a pending stream
        # (text in one text object until something else is drawn; the font, colours and line
        # width set only when they change; each string's subset encoding worked out once per
        # document), added to the page in one piece when anything is drawn on ``canvas`` or
        # the page ends. A score sheet has some 80 strings and 60 lines: ReportLab's text and
        # path objects, call by call, were most of its time. TrueType fonts only (``fonts``).
        self._batch = batch
        self._ops: list[str] = []
        self._in_text = False
        self._fill: object = None  # the colours, line width and font the stream has set
        self._stroke: object = None
        self._line_width: float | None = None
        self._font: tuple[str, float] | None = None
        self._encoded: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {}

    @property
    def canvas(self) -> Canvas:
        """The ReportLab canvas, for drawing on it directly (pending text drawn first, so
        that what is drawn next lies on top of it, in the order it was asked for)."""
        self.flush()
        return self._canvas

    def flush(self) -> None:
        """The pending operators onto the page; what they set is forgotten (the canvas may
        change it)."""
        if self._ops:
            if self._in_text:
                self._ops.append("ET")
            self._canvas.addLiteral(" ".join(self._ops))
            self._ops = []
        self._in_text = False
        self._fill = self._stroke = self._line_width = self._font = None

    def _text(self, text: str) -> str:
        return text.translate(VERA_SPELLINGS) if self.fonts.missing_glyphs else text

    def string(
        self, x: float, top: float, span: Span, *, align: str = "left", spacing: float = 0.0
    ) -> float:
        """``span`` on the line whose top is ``top`` (``spacing``: points between letters);
        returns the width it took."""
        text = self._text(span.text)
        width = text_width(text, span.font, span.size) + spacing * len(text)
        if align == "right":
            x -= width
        elif align == "center":
            x -= width / 2
        self._show(x, self.height - top - span.size * ASCENT, [(text, span)], spacing=spacing)
        return width

    def spans(self, x: float, top: float, line: Sequence[Span], *, align="left", width=0.0):
        """One line of spans, each on the line's baseline whatever its size; ``top`` is the
        line's top. ``align`` "center" or "right" within ``width``."""
        if align == "center":
            x += (width - line_width(line)) / 2
        elif align == "right":
            x += width - line_width(line)
        size = max(span.size for span in line)
        pieces = [(self._text(span.text), span) for span in line]
        self._show(x, self.height - top - size * ASCENT, pieces)

    def _show(self, x: float, y: float, pieces, *, spacing: float = 0.0) -> None:
        """The pieces one after the other from ``x`` on the baseline ``y``, in one text object
        (no line feed after it: text extraction reads a row of a table as one line)."""
        if self._batch:
            self._show_batched(x, y, pieces, spacing=spacing)
            return
        c = self._canvas
        text = c.beginText(x, y)
        if spacing:
            text.setCharSpace(spacing)
        for string, span in pieces:
            text.setFont(span.font, span.size)
            text.setFillColor(span.color)
            text.textOut(string)
        if spacing:  # the spacing is text state, kept beyond this object: undone
            text.setCharSpace(0)
        c.drawText(text)

    def _show_batched(self, x: float, y: float, pieces, *, spacing: float) -> None:
        ops = self._ops
        if not self._in_text:
            ops.append("BT")
            self._in_text = True
        ops.append(f"1 0 0 1 {fp_str(x, y)} Tm")
        if spacing:
            ops.append(f"{fp_str(spacing)} Tc")
        # consecutive pieces in the same font, size and colour as one string (the words of a
        # wrapped line): the same glyphs at the same places, fewer operators
        merged: list[tuple[str, Span]] = []
        for string, span in pieces:
            if merged:
                last_string, last = merged[-1]
                if (last.font, last.size, last.color) == (span.font, span.size, span.color):
                    merged[-1] = (last_string + string, last)
                    continue
            merged.append((string, span))
        for string, span in merged:
            self._set_fill(span.color)
            size = span.size
            for name, escaped in self._encode(span.font, string):
                if self._font != (name, size):
                    ops.append(f"{name} {fp_str(size)} Tf")
                    self._font = (name, size)
                ops.append(f"({escaped}) Tj")
        if spacing:
            ops.append("0 Tc")

    def _encode(self, font: str, text: str) -> tuple[tuple[str, str], ...]:
        """``text`` in ``font`` as (the subset's PDF name, the escaped string) pieces, as
        ReportLab's text object writes them (the subsets are this document's)."""
        key = (font, text)
        found = self._encoded.get(key)
        if found is None:
            face = pdfmetrics.getFont(font)
            doc = self._canvas._doc
            escape = self._canvas._escape
            found = self._encoded[key] = tuple(
                (face.getSubsetInternalName(subset, doc), escape(piece))
                for subset, piece in face.splitString(text, doc)
            )
        return found

    def _graphics(self) -> list[str]:
        if self._in_text:
            self._ops.append("ET")
            self._in_text = False
        return self._ops

    def _set_fill(self, color) -> None:
        if color is not self._fill:
            self._ops.append(f"{fp_str(color.red, color.green, color.blue)} rg")
            self._fill = color

    def _set_stroke(self, width: float, color) -> None:
        if width != self._line_width:
            self._ops.append(f"{fp_str(width)} w")
            self._line_width = width
        if color is not self._stroke:
            self._ops.append(f"{fp_str(color.red, color.green, color.blue)} RG")
            self._stroke = color

    def paths(self, literal: str, color, *, transform: tuple[float, ...]) -> None:
        """``literal`` (path operators, e.g. rectangles in units of a grid) filled with
        ``color``, in the coordinates ``transform`` (a, b, c, d, e, f; e and f from the
        bottom left) sets."""
        if not self._batch:
            c = self.canvas
            c.saveState()
            c.setFillColor(color)
            c.transform(*transform)
            c.addLiteral(f"n {literal} f")
            c.restoreState()
            return
        ops = self._graphics()
        self._set_fill(color)
        ops.append(f"q {fp_str(*transform)} cm n {literal} f Q")

    def lines(self, x: float, top: float, lines: Sequence[Sequence[Span]], **kwargs) -> float:
        """Lines one below the other from ``top``; returns the top below the last."""
        for line in lines:
            self.spans(x, top, line, **kwargs)
            top += line_height(line)
        return top

    def rule(self, x1: float, y1: float, x2: float, y2: float, width: float, color=BLACK):
        if self._batch:
            self._graphics()
            self._set_stroke(width, color)
            h = self.height
            self._ops.append(f"n {fp_str(x1, h - y1)} m {fp_str(x2, h - y2)} l S")
            return
        c = self.canvas
        c.setLineWidth(width)
        c.setStrokeColor(color)
        c.line(x1, self.height - y1, x2, self.height - y2)

    def dashed(self, x1: float, y: float, x2: float, width: float, color, dash: Sequence[float]):
        c = self.canvas
        c.saveState()
        c.setDash(list(dash))
        self.rule(x1, y, x2, y, width, color)
        c.restoreState()

    def fill(self, x: float, top: float, width: float, height: float, color) -> None:
        if self._batch:
            self._graphics()
            self._set_fill(color)
            self._ops.append(f"n {fp_str(x, self.height - top - height, width, height)} re f")
            return
        c = self.canvas
        c.setFillColor(color)
        c.rect(x, self.height - top - height, width, height, stroke=0, fill=1)

    def frame(self, x: float, top: float, width: float, height: float, line: float, color):
        c = self.canvas
        c.setLineWidth(line)
        c.setStrokeColor(color)
        c.rect(x, self.height - top - height, width, height, stroke=1, fill=0)


# --- the page head and the numbered footer --------------------------------------------------

HEAD_GAP = 6 * mm  # between the title and the right-hand block
HEAD_RULE = 1.5  # pt, under the head
HEAD_PADDING = 2 * mm  # between the text and the rule
HEAD_MARGIN = 4 * mm  # below the rule


@dataclass(frozen=True)
class PageHead:
    """The head of a list's first page: title and subtitle on the left, the date (venue, a
    count or "provisional") on the right, a rule below; both sides sit on the rule."""

    title: list[list[Span]]
    subtitle: list[list[Span]]
    right: list[list[Span]]
    right_width: float
    height: float  # to the rule's bottom, without the margin below it


def page_head(
    *, f: Fonts, width: float, title: str, subtitle: str, right: Sequence[Span]
) -> PageHead:
    """Measured for ``width``: ``title`` 17 pt bold, ``subtitle`` 11 pt, ``right`` one line each
    (they do not wrap; the title gives way)."""
    right_lines = [[span] for span in right]
    right_width = max((line_width(line) for line in right_lines), default=0.0)
    room = width - right_width - HEAD_GAP
    title_lines = wrap([Span(title, f.bold, 17)], room)
    subtitle_lines = wrap([Span(subtitle, f.regular, 11)], room)
    # the subtitle 1 mm below the title
    left = lines_height(title_lines) + 1 * mm + lines_height(subtitle_lines)
    height = max(left, lines_height(right_lines)) + HEAD_PADDING + HEAD_RULE
    return PageHead(title_lines, subtitle_lines, right_lines, right_width, height)


def draw_page_head(page: PageCanvas, head: PageHead, *, x: float, top: float, width: float):
    """Returns the top of what follows (below the margin)."""
    text_bottom = top + head.height - HEAD_RULE - HEAD_PADDING
    y = text_bottom - lines_height(head.subtitle) - 1 * mm - lines_height(head.title)
    y = page.lines(x, y, head.title) + 1 * mm
    page.lines(x, y, head.subtitle)
    page.lines(
        x + width - head.right_width,
        text_bottom - lines_height(head.right),
        head.right,
        align="right",
        width=head.right_width,
    )
    rule_y = top + head.height - HEAD_RULE / 2
    page.rule(x, rule_y, x + width, rule_y, HEAD_RULE)
    return top + head.height + HEAD_MARGIN


class HeadFlowable(Flowable):
    """:class:`PageHead` in a platypus story (with its margin below)."""

    def __init__(self, head: PageHead, f: Fonts):
        super().__init__()
        self.head = head
        self.f = f

    def wrap(self, available_width, available_height):
        self.width = available_width
        return available_width, self.head.height + HEAD_MARGIN

    def draw(self) -> None:
        page = PageCanvas(self.canv, fonts=self.f, height=self.head.height + HEAD_MARGIN)
        draw_page_head(page, self.head, x=0, top=0, width=self.width)


FOOTER_SIZE = 7.5


class NumberedCanvas(Canvas):
    """Holds its pages back until it is saved, then gives each the footer: "Cego Club" on the
    left, "Seite 2 / 4" on the right (``page_label`` "Seite"), in the bottom margin's middle.
    The usual ReportLab recipe for "page x of y" in one pass."""

    def __init__(
        self,
        *args,
        fonts: Fonts,
        page_label: str,
        margin_x: float,
        margin_bottom: float,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self._pages: list[dict] = []
        self._footer = (fonts, page_label, margin_x, margin_bottom)

    def showPage(self) -> None:  # noqa: N802 (ReportLab's name)
        self._pages.append(dict(self.__dict__))
        self._startPage()

    def save(self) -> None:
        total = len(self._pages)
        for number, state in enumerate(self._pages, start=1):
            self.__dict__.update(state)
            self._draw_footer(number, total)
            super().showPage()
        super().save()

    def _draw_footer(self, number: int, total: int) -> None:
        f, label, margin_x, margin_bottom = self._footer
        page = PageCanvas(self, fonts=f, height=self._pagesize[1])
        y = self._pagesize[1] - margin_bottom + (margin_bottom - FOOTER_SIZE * LINE_HEIGHT) / 2
        page.string(margin_x, y, Span("Cego Club", f.regular, FOOTER_SIZE, GREY_TEXT))
        page.string(
            self._pagesize[0] - margin_x,
            y,
            Span(f"{label} {number} / {total}", f.regular, FOOTER_SIZE, GREY_TEXT),
            align="right",
        )


def numbered_canvas(*, fonts: Fonts, page_label: str, margin_x: float, margin_bottom: float):
    """A ``canvasmaker`` for platypus' ``build`` (or a canvas class for drawing by hand)."""
    return partial(
        NumberedCanvas,
        fonts=fonts,
        page_label=page_label,
        margin_x=margin_x,
        margin_bottom=margin_bottom,
    )


def new_canvas(out, *, title: str, fonts: Fonts, canvas_class=Canvas) -> Canvas:
    """A canvas for drawing by hand, with the settings every printout shares (compressed,
    the same bytes for the same content)."""
    canvas = canvas_class(
        out, pagesize=A4, pageCompression=1, invariant=1, initialFontName=fonts.regular
    )
    canvas.setTitle(title)
    canvas.setCreator("Cego Club")
    return canvas


# --- a table cell of wrapped runs -----------------------------------------------------------


class SpanCell(Flowable):
    """Paragraphs of spans wrapped to the cell's width (a name in bold and regular, a team and
    its club below), for platypus tables and stories: measured with the fonts it is drawn in."""

    def __init__(self, *paragraphs: Sequence[Span], f: Fonts, align: str = "left"):
        super().__init__()
        self.paragraphs = [p for p in paragraphs if p]
        self.f = f
        self.align = align
        self._lines: list[list[Span]] = []
        self._wrapped_for: float | None = None

    def lines_for(self, width: float) -> list[list[Span]]:
        if self._wrapped_for != width:
            self._lines = [line for p in self.paragraphs for line in wrap(p, width)]
            self._wrapped_for = width
        return self._lines

    def wrap(self, available_width, available_height):
        self.width = available_width
        self.height = lines_height(self.lines_for(available_width))
        return available_width, self.height

    def draw(self) -> None:
        page = PageCanvas(self.canv, fonts=self.f, height=self.height)
        page.lines(0, 0, self.lines_for(self.width), align=self.align, width=self.width)


def list_table(
    rows: list[list],
    *,
    widths: Sequence[float],
    heights: Sequence[float | None] | None = None,
    shaded: Iterable[int] = (),
    font: str,
    padding: float = 1.5 * mm,
    extra: Sequence[tuple] = (),
) -> Table:
    """A list as the printouts draw it: the first row the column heads (repeated on every
    page, a black rule below), a grey rule under every other row, ``shaded`` rows (indexes
    into ``rows``, heads counted) on grey; cells centred in their row's height. ``font``: the
    printouts' regular font (the cells are flowables that set their own)."""
    style = [
        ("FONT", (0, 0), (-1, -1), font),  # the cells' own (else Helvetica is referenced)
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("VALIGN", (0, 0), (-1, 0), "BOTTOM"),
        ("LEFTPADDING", (0, 0), (-1, -1), padding),
        ("RIGHTPADDING", (0, 0), (-1, -1), padding),
        ("TOPPADDING", (0, 0), (-1, -1), 0),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
        ("TOPPADDING", (0, 0), (-1, 0), 1 * mm),
        ("BOTTOMPADDING", (0, 0), (-1, 0), 1 * mm),
        *(("BACKGROUND", (0, index), (-1, index), SHADE) for index in shaded),
        ("LINEBELOW", (0, 1), (-1, -1), 0.4, RULE),
        ("LINEBELOW", (0, 0), (-1, 0), 1, BLACK),
        *extra,
    ]
    return Table(
        rows, colWidths=list(widths), rowHeights=heights, style=style, repeatRows=1, hAlign="LEFT"
    )


def build_document(
    story: list,
    *,
    title: str,
    fonts: Fonts,
    page_label: str,
    margins: tuple[float, float, float, float],
) -> bytes:
    """``story`` laid out by platypus on A4 pages with ``margins`` (top, right, bottom, left;
    the frame has no padding of its own), the footer numbered over the whole document."""
    top, right, bottom, left = margins
    out = io.BytesIO()
    document = BaseDocTemplate(
        out,
        pagesize=A4,
        leftMargin=left,
        rightMargin=right,
        topMargin=top,
        bottomMargin=bottom,
        title=title,
        creator="Cego Club",
        invariant=1,
        pageCompression=1,
        initialFontName=fonts.regular,
    )
    frame = Frame(
        left,
        bottom,
        PAGE_WIDTH - left - right,
        PAGE_HEIGHT - top - bottom,
        leftPadding=0,
        rightPadding=0,
        topPadding=0,
        bottomPadding=0,
        id="body",
    )
    document.addPageTemplates([PageTemplate(id="page", frames=[frame])])
    document.build(
        story,
        canvasmaker=numbered_canvas(
            fonts=fonts, page_label=page_label, margin_x=left, margin_bottom=bottom
        ),
    )
    return out.getvalue()
