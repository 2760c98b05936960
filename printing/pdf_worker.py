"""What a PDF worker process runs: HTML in, PDF bytes out. No Django here, so the worker
processes start with WeasyPrint alone (see ``printing.pdf``).

The documents are rendered with a leaner copy of WeasyPrint's user-agent stylesheet: the
stock one gives *every* element styles for six pseudo-elements (``::marker`` and the
footnote and note ones), which WeasyPrint computes for each element of the document (a
37-table round of score sheets: 54,000 style computations for 9,000 elements, a fifth of the
layout time). Here ``::marker`` applies to list items only (``li``, ``summary``: the only
elements the printouts show as list items) and the footnote rules are left out (the printouts
have no footnotes). The pages come out the same.

The cyclic garbage collector is paused while a document is rendered: WeasyPrint allocates
hundreds of thousands of objects for a few pages, and the collections they set off (scanning
the whole heap, Django's too when rendered in the server process) took 10-20 % of the time.
What the render leaves is collected after it.
"""

from __future__ import annotations

import gc
import re
import threading
from contextlib import contextmanager
from functools import cache

_WARM_UP_HTML = "<!DOCTYPE html><html><body><p>Cego <b>Club</b></p></body></html>"


@cache
def _html_class():
    from weasyprint import CSS, HTML
    from weasyprint.css.counters import CounterStyle

    try:
        from weasyprint import html as ua

        text = ua.UA.replace("::marker {", "li::marker, summary::marker {", 1)
        text = re.sub(r"^::(footnote|note)-[a-z]+ \{[^}]*\}\n", "", text, flags=re.M)
        if any(f"\n::{name}" in text for name in ("marker", "footnote", "note")):
            return HTML  # another WeasyPrint's stylesheet: use it as it is
        # Its @counter-style rules are in WeasyPrint's own set already (parsed here into a
        # set of their own: defined twice, they would be warned about).
        lean = CSS(string=text, counter_style=CounterStyle())
        if not callable(getattr(HTML, "_ua_stylesheets", None)):
            return HTML
    except (ImportError, AttributeError):
        return HTML

    class PrintHTML(HTML):
        def _ua_stylesheets(self, forms=False):
            return [lean]

    return PrintHTML


_renders = 0  # renders under way in this process
_collector_was_enabled = False
_renders_lock = threading.Lock()


@contextmanager
def _collector_paused():
    """No cyclic garbage collection inside. Threads may render at once: the collector runs
    again when the last of them is done (if it ran before the first began)."""
    global _renders, _collector_was_enabled
    with _renders_lock:
        if _renders == 0:
            _collector_was_enabled = gc.isenabled()
            gc.disable()
        _renders += 1
    try:
        yield
    finally:
        with _renders_lock:
            _renders -= 1
            if _renders == 0 and _collector_was_enabled:
                gc.enable()


def render(html: str, base_url: str) -> bytes:
    with _collector_paused():
        return _html_class()(string=html, base_url=base_url).write_pdf()


def warm_up(_: object = None) -> bool:
    """Render a line of text once: the stylesheet above and the fonts are ready afterwards."""
    render(_WARM_UP_HTML, ".")
    return True
