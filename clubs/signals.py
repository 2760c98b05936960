"""What the registry tells the areas built on it. The registry imports nothing from them: the
tournament day connects its receivers in ``TournamentsConfig.ready`` (``tournaments.receivers``).

Every signal is sent inside the registry service's transaction, so what a receiver writes is
committed or rolled back with the change itself.
"""

from django.dispatch import Signal

# A player's name, category or club changed (``player_id``): pages showing them are stale.
player_shown_changed = Signal()

# A club's name changed (``club_id``): pages showing it are stale.
club_shown_changed = Signal()

# Two records of one person become one (``keep``, ``remove``, both locked). A receiver either
# refuses with a ``ValidationError`` (nothing is merged) or moves what it keeps for ``remove``
# over to ``keep`` and returns how many tournament entries it moved.
players_merging = Signal()
