"""A club's own rule sources ("house rules"), derived from a built-in one."""

from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from rules.builtin_sources import BUILTIN_SLUGS
from scoring import RuleSourceError, rule_source_from_dict

slug_validator = RegexValidator(
    r"^[a-z][a-z0-9_]{1,59}$",
    _("Use lower-case letters, digits and underscores, starting with a letter."),
)


class HouseRuleSource(models.Model):
    club = models.ForeignKey(
        "tournaments.Club",
        on_delete=models.CASCADE,
        related_name="rule_sources",
        verbose_name=_("club"),
    )
    slug = models.CharField(_("slug"), max_length=60, unique=True, validators=[slug_validator])
    based_on = models.CharField(_("based on"), max_length=60)
    data = models.JSONField(
        _("parameters"),
        help_text=_(
            "The complete rule source: a copy of the built-in one, with the club's changes."
        ),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("house rule source")
        verbose_name_plural = _("house rule sources")
        ordering = ["club", "slug"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(slug__in=BUILTIN_SLUGS), name="house_rules_slug_not_builtin"
            ),
        ]

    def __str__(self) -> str:
        return self.slug

    def clean(self) -> None:
        super().clean()
        if self.slug in BUILTIN_SLUGS:
            raise ValidationError({"slug": _("This name belongs to a built-in rule source.")})
        if self.based_on not in BUILTIN_SLUGS:
            raise ValidationError({"based_on": _("Choose one of the built-in rule sources.")})
        if not isinstance(self.data, dict):
            raise ValidationError({"data": _("The parameters must be a JSON object.")})
        data = {**self.data, "slug": self.slug}
        try:
            rule_source_from_dict(data)
        except RuleSourceError as error:
            raise ValidationError(
                {"data": [f"{path}: {message}" for path, message in error.problems]}
            ) from error
        self.data = data
