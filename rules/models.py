"""A club's own rule sources ("house rules"), derived from a built-in one."""

import re

from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from rules.builtin_sources import BUILTIN_SLUGS
from scoring import RuleSource, RuleSourceError, rule_source_from_dict

SLUG_PATTERN = re.compile(r"^[a-z][a-z0-9_]{1,59}$")
slug_validator = RegexValidator(
    SLUG_PATTERN.pattern,
    _("Use lower-case letters, digits and underscores, starting with a letter."),
)


class HouseRuleSource(models.Model):
    club = models.ForeignKey(
        "clubs.Club",
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

    def get_absolute_url(self) -> str:
        return reverse("rules:tariff_card", args=[self.slug])

    def rule_source(self) -> RuleSource:
        """The validated rule source; raises :class:`scoring.RuleSourceError`."""
        return rule_source_from_dict(self.data)

    def clean(self) -> None:
        """Check the slug, the built-in source and every parameter (``path: message`` each)."""
        super().clean()
        errors: dict[str, list[str]] = {}
        slug_ok = bool(self.slug) and SLUG_PATTERN.match(self.slug) is not None
        if self.slug in BUILTIN_SLUGS:
            errors["slug"] = [_("This name belongs to a built-in rule source.")]
            slug_ok = False
        if self.based_on not in BUILTIN_SLUGS:
            errors["based_on"] = [_("Choose one of the built-in rule sources.")]
        if not isinstance(self.data, dict):
            errors["data"] = [_("The parameters must be a JSON object.")]
        else:
            # the slug is the row's; a placeholder while the slug itself is wrong, so that
            # the parameters' own problems are still reported
            data = {**self.data, "slug": self.slug if slug_ok else "house_rules"}
            try:
                rule_source_from_dict(data)
            except RuleSourceError as error:
                errors["data"] = [
                    f"{path or '(top)'}: {message}" for path, message in error.problems
                ]
            else:
                if slug_ok:
                    self.data = data
        if errors:
            raise ValidationError(errors)
