"""What the tournament day tells the printing room (``printing.receivers``, connected in
``PrintingConfig.ready``): the day imports nothing from it."""

from django.dispatch import Signal

# A round's seats changed (draw, redraw, swap, substitution), sent by the view after the
# service, inside its transaction: ``tournament``, ``round_number``, ``base_url`` (the address
# in the sheets' QR codes). The organiser prints next.
round_seating_changed = Signal()

# The draw page is open: printouts of the round follow within a minute.
printouts_ahead = Signal()

# A tournament's revision moved and the transaction that moved it committed: ``tournament_id``
# (None: several, e.g. a club renamed). The laptop's publishing sender wakes on it.
revision_committed = Signal()

# A tournament's copy was changed in place from an archive or a published batch (``tournament``,
# as it now stands), inside the writing transaction. Such a change writes the copy with an
# UPDATE, not ``Tournament.save``, so ``post_save`` does not tell the areas that keep figures
# worked out ahead (season results, ratings) that the copy finished, changed or was reopened.
copy_changed = Signal()
