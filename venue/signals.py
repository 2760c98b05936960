"""What the venue server tells the areas above it (connected in their AppConfig.ready)."""

from django.dispatch import Signal

# The venue server is about to serve. Keyword arguments: publish_to, publish_token (the
# season server to send tournaments to, or None).
serving_started = Signal()

# A backup was restored into the database (``restore``). Receivers may return a line (or a
# list of lines) for the organiser, printed by the command: what happens next.
database_restored = Signal()


def lines_from(responses) -> list[str]:
    """The lines receivers returned (a string or a list of strings each), in order."""
    lines: list[str] = []
    for _receiver, response in responses:
        if isinstance(response, str) and response:
            lines.append(response)
        elif isinstance(response, list | tuple):
            lines.extend(str(line) for line in response if line)
    return lines
