"""django-tables2 tables of the check-in desk."""

from __future__ import annotations

from collections.abc import Mapping

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from tournaments.models import Entry


def stays_badge() -> str:
    """The "bleibt am Tisch" marker of a player who keeps one table all day."""
    return format_html('<span class="badge badge-stays">{}</span>', _("stays at the table"))


class FeeColumn(tables.BooleanColumn):
    """Paid or not; "free" for an entry with no fee to take (youth who play free)."""

    def render(self, value, record, bound_column):
        if record.plays_free:
            return format_html('<span class="free">{}</span>', _("free"))
        return super().render(value, record, bound_column)


class RegistrationTable(tables.Table):
    """The registration list: one row per entry with the desk's quick actions."""

    number = tables.Column(verbose_name=_("No."), attrs={"td": {"class": "number"}})
    name = tables.Column(
        verbose_name=_("name"),
        accessor="player__last_name",
        order_by=("player__sort_key", "pk"),
    )
    category = tables.Column(verbose_name=_("category"))
    checked_in = tables.BooleanColumn(verbose_name=_("checked in"))
    fee_paid = FeeColumn(verbose_name=_("paid"))
    withdrawn_after_round = tables.Column(
        verbose_name=_("withdrawn"), empty_values=(), order_by=("withdrawn_after_round",)
    )
    actions = tables.TemplateColumn(
        template_name="tournaments/checkin/_row_actions.html",
        verbose_name=_("actions"),
        orderable=False,
        attrs={"td": {"class": "row-actions"}},
    )

    class Meta:
        model = Entry
        fields = ("number", "name", "category", "checked_in", "fee_paid")
        sequence = (
            "number",
            "name",
            "category",
            "checked_in",
            "fee_paid",
            "withdrawn_after_round",
            "actions",
        )
        template_name = "django_tables2/table.html"
        attrs = {"class": "registration-table"}
        row_attrs = {
            "class": lambda record: "withdrawn" if record.is_withdrawn else "",
            "id": lambda record: f"entry-{record.pk}",  # the desk comes back to this row
        }
        empty_text = _("No players match.")

    def __init__(
        self,
        *args,
        next_url: str = "",
        withdraw_default: int = 0,
        absent_ids: frozenset[int] = frozenset(),
        banned: Mapping[int, str] | None = None,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.next_url = next_url
        self.withdraw_default = withdraw_default
        self.absent_ids = absent_ids  # signed up, never came, a round drawn without them
        # player id -> the ban's terms (the association's register): a warning, no refusal
        self.banned = banned or {}

    def render_name(self, record: Entry) -> str:
        name = f"{record.player.last_name}, {record.player.first_name}"
        if record.fill_in:  # registered at the draw to make the count fit
            name = format_html('{} <span class="badge badge-fill-in">{}</span>', name, _("fill-in"))
        if record.stays_at_table:  # keeps one table all day
            name = format_html("{} {}", name, stays_badge())
        if record.pk in self.absent_ids:  # beside the name: seen at phone width too
            name = format_html(
                '{} <span class="badge badge-absent">{}</span>', name, _("did not come")
            )
        if record.player_id in self.banned:
            name = format_html(
                '{} <span class="badge badge-banned" title="{}">{}</span>',
                name,
                self.banned[record.player_id],
                _("banned"),
            )
        return name

    def render_withdrawn_after_round(self, record: Entry) -> str:
        if record.withdrawn_after_round is None:
            return "–"
        if record.withdrawn_after_round == 0:
            return str(_("before round 1"))
        return str(_("after round %(number)s") % {"number": record.withdrawn_after_round})
