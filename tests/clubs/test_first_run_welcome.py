"""Issue 28: a success message said what the page says anyway. After the first-time setup the
welcome named the next steps ("Als Nächstes: die Mitgliederliste, dann ein Turnier") above the
home page's own list of them: the page now says them once."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.clubs.test_first_run import FORM

pytestmark = pytest.mark.django_db


def test_the_welcome_does_not_repeat_the_home_pages_next_steps():
    laptop = Client(REMOTE_ADDR="127.0.0.1")
    laptop.cookies["django_language"] = "de"
    home = laptop.post(reverse("clubs:first_run"), FORM, follow=True)
    html = home.content.decode()
    assert "Willkommen! Ihr Konto führt Cegofreunde Bräunlingen." in html
    assert "Als Nächstes" not in html
    assert '<ol class="next-steps">' in html  # the steps, once, on the page
