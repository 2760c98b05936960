"""What the venue area keeps in the database: which version of Cego Club last brought it up
to date (``venue.versions`` reads and writes the row by its table, before and after
``migrate``)."""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class DataVersion(models.Model):
    """One row: the program version that last migrated this database (written by
    ``migrate``, read before it: an older program refuses newer data)."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    version = models.CharField(_("program version"), max_length=40)
    written_at = models.DateTimeField(_("written at"))

    class Meta:
        verbose_name = _("data version")
        verbose_name_plural = _("data versions")
        constraints = [models.CheckConstraint(condition=Q(id=1), name="data_version_one_row")]

    def __str__(self) -> str:
        return self.version
