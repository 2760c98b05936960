"""The online pre-registration's services: seats, the waiting list, personal links,
duplicates, bad input, confirming into the tournament's list, the log."""

import datetime as dt

import pytest
from django.core import mail
from django.utils import timezone

from clubs.models import Membership, Player
from signups.models import Signup, SignupChange
from signups.selectors import (
    closed_reason,
    counts,
    email_code,
    organiser_list,
    signup_by_token,
    token_hash,
    waiting_position,
)
from signups.services import signups as services
from signups.services.signups import SignupError
from tests.signups.conftest import sign
from tournaments.models import Entry, Round

pytestmark = pytest.mark.django_db


def test_seats_then_the_waiting_list_with_positions(tournament, open_sheet):
    a = sign(tournament, "Anna", "Arnold")
    b = sign(tournament, "Bernd", "Baum")
    c = sign(tournament, "Carla", "Conrad")
    d = sign(tournament, "Dieter", "Dold")
    assert [x.signup.status for x in (a, b)] == ["held", "held"]
    assert [x.signup.status for x in (c, d)] == ["waiting", "waiting"]
    assert (a.position, c.position, d.position) == (None, 1, 2)
    tally = counts(tournament=tournament, sheet=open_sheet)
    assert (tally.seats_taken, tally.waiting, tally.seats_free) == (2, 2, 0)


def test_only_a_hash_of_the_personal_link_is_stored(tournament, open_sheet):
    done = sign(tournament, "Anna", "Arnold")
    stored = Signup.objects.get(pk=done.signup.pk)
    assert stored.token_hash == token_hash(token=done.token) and done.token not in stored.token_hash
    assert len(done.token) >= 20
    assert signup_by_token(token=done.token) == stored
    assert signup_by_token(token=done.token + "x") is None and signup_by_token(token="") is None


def test_cancelling_by_link_moves_the_first_waiting_up_and_mails_them(tournament, open_sheet):
    a = sign(tournament, "Anna", "Arnold")
    sign(tournament, "Bernd", "Baum")
    c = sign(tournament, "Carla", "Conrad", email="carla@example.org")
    d = sign(tournament, "Dieter", "Dold", email="dieter@example.org")
    services.confirm_email(signup=c.signup, code=email_code(signup=c.signup))
    mail.outbox.clear()
    outcome = services.cancel(signup=a.signup, by_link=True)
    assert [s.pk for s in outcome.moved_up] == [c.signup.pk]
    c.signup.refresh_from_db()
    d.signup.refresh_from_db()
    assert c.signup.status == "held" and waiting_position(signup=d.signup) == 1
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["carla@example.org"]
    assert mail.outbox[0].subject == "Nachgerückt: ein Platz beim Frühjahrsturnier"
    moved = SignupChange.objects.get(signup=c.signup, action="moved_up")
    assert moved.before == {"status": "waiting"} and moved.after == {"status": "held"}
    cancelled = SignupChange.objects.get(signup=a.signup, action="cancelled")
    assert "Link" in cancelled.actor
    # The consent ends with the sign-up: the address goes, and no log row ever held it.
    services.cancel(signup=d.signup, by_link=True)
    assert Signup.objects.get(pk=d.signup.pk).email == ""
    logged = SignupChange.objects.filter(signup=d.signup).values_list("before", "after")
    assert "dieter@example.org" not in str(list(logged))
    with pytest.raises(SignupError):
        services.cancel(signup=a.signup, by_link=True)  # twice: refused, nothing more moves
    assert Signup.objects.filter(status="held").count() == 2


def test_a_waiting_person_cancelling_moves_nobody(tournament, open_sheet):
    for first, last in [("A", "Aa"), ("B", "Bb"), ("C", "Cc"), ("D", "Dd")]:
        sign(tournament, first, last)
    waiting = Signup.objects.get(last_name="Cc")
    outcome = services.cancel(signup=waiting)
    assert outcome.moved_up == []
    assert waiting_position(signup=Signup.objects.get(last_name="Dd")) == 1


def test_duplicates_are_refused_in_german(tournament, open_sheet):
    sign(tournament, "Hans", "Müller")
    with pytest.raises(SignupError) as refused:
        sign(tournament, " hans ", "Mueller")
    assert "bereits angemeldet" in " ".join(refused.value.messages)
    assert Signup.objects.count() == 1
    # cancelled: the name may sign up again
    services.cancel(signup=Signup.objects.get())
    sign(tournament, "Hans", "Müller")
    assert Signup.objects.exclude(status="cancelled").count() == 1


@pytest.mark.parametrize(
    "fields, field",
    [
        ({"first": "", "last": "Baum"}, "first_name"),
        ({"first": "Anna", "last": "   "}, "last_name"),
        ({"first": "Anna", "last": "x" * 61}, "last_name"),
        ({"first": "123", "last": "Baum"}, "first_name"),
        ({"first": "Anna", "last": "Baum", "email": "kein-mail"}, "email"),
        ({"first": "Anna", "last": "Baum", "consent": False}, "consent"),
    ],
)
def test_bad_input_changes_nothing(tournament, open_sheet, fields, field):
    before = SignupChange.objects.count()
    with pytest.raises(SignupError) as refused:
        services.sign_up(
            tournament=tournament,
            first_name=fields["first"],
            last_name=fields["last"],
            email=fields.get("email", ""),
            consent=fields.get("consent", True),
        )
    assert field in refused.value.message_dict
    assert Signup.objects.count() == 0 and SignupChange.objects.count() == before


def test_closed_when_not_open_after_closing_time_or_begun(tournament, organiser):
    with pytest.raises(SignupError) as refused:
        sign(tournament, "Anna", "Arnold")
    assert "nicht geöffnet" in refused.value.messages[0]
    closes = timezone.now() + dt.timedelta(hours=1)
    services.set_sheet(
        tournament=tournament, user=organiser, is_open=True, capacity=None, closes_at=closes
    )
    sign(tournament, "Anna", "Arnold")
    later = closes + dt.timedelta(minutes=1)
    assert "geschlossen" in closed_reason(
        tournament=tournament, sheet=tournament.signup_sheet, now=later
    )
    with pytest.raises(SignupError):
        sign(tournament, "Bernd", "Baum", now=later)
    Round.objects.create(tournament=tournament, number=1, draw_seed=1)
    assert "begonnen" in closed_reason(tournament=tournament, sheet=tournament.signup_sheet)
    tournament.date = timezone.localdate() - dt.timedelta(days=1)
    assert "vorbei" in closed_reason(tournament=tournament, sheet=tournament.signup_sheet)
    assert Signup.objects.count() == 1


def test_confirming_makes_an_entry_matched_by_name_and_club(
    tournament, open_sheet, organiser, host, guest_club
):
    known = Player.objects.create(first_name="Anna", last_name="Arnold")
    Membership.objects.create(player=known, club=host)
    namesake = Player.objects.create(first_name="Anna", last_name="Arnold")
    Membership.objects.create(player=namesake, club=guest_club)
    a = sign(tournament, "Anna", "Arnold", club=host)
    services.confirm(signup=a.signup, user=organiser)
    entry = Entry.objects.get(tournament=tournament)
    assert entry.player == known and not entry.checked_in and not entry.fee_paid
    a.signup.refresh_from_db()
    assert a.signup.status == "confirmed" and a.signup.player == known
    assert SignupChange.objects.get(signup=a.signup, action="confirmed").changed_by == organiser


def test_a_new_player_joins_only_a_club_the_organiser_runs(
    tournament, open_sheet, organiser, host, guest_club
):
    own = sign(tournament, "Neu", "Eins", club=host)
    other = sign(tournament, "Neu", "Zwei", club=guest_club)
    services.confirm(signup=own.signup, user=organiser)
    outcome = services.confirm(signup=other.signup, user=organiser)
    first = Player.objects.get(last_name="Eins")
    second = Player.objects.get(last_name="Zwei")
    assert list(first.memberships.values_list("club", flat=True)) == [host.pk]
    assert not second.memberships.exists() and "CC Tr" in outcome.note
    assert tournament.entries.count() == 2


def test_ambiguous_names_get_a_new_record(tournament, open_sheet, organiser):
    Player.objects.create(first_name="Ida", last_name="Wolf")
    Player.objects.create(first_name="Ida", last_name="Wolf")
    done = sign(tournament, "Ida", "Wolf", club_text="vereinslos")
    services.confirm(signup=done.signup, user=organiser)
    assert Player.objects.filter(last_name="Wolf").count() == 3


def test_cancelling_a_confirmed_one_removes_the_entry(tournament, open_sheet, organiser):
    a = sign(tournament, "Anna", "Arnold")
    b = sign(tournament, "Bernd", "Baum")
    c = sign(tournament, "Carla", "Conrad")
    assert services.confirm_all(tournament=tournament, user=organiser).count == 2
    assert tournament.entries.count() == 2
    confirmed = SignupChange.objects.filter(action="confirmed")
    assert confirmed.count() == 2 and {c.changed_by for c in confirmed} == {organiser}
    assert services.confirm_all(tournament=tournament, user=organiser).count == 0
    services.cancel(signup=a.signup, user=organiser)
    assert list(tournament.entries.values_list("player__last_name", flat=True)) == ["Baum"]
    c.signup.refresh_from_db()
    assert c.signup.status == "held"  # moved up, to be confirmed
    b_entry = tournament.entries.get()
    b_entry.checked_in = True
    b_entry.save()
    with pytest.raises(SignupError):
        services.cancel(signup=b.signup, user=organiser)
    b.signup.refresh_from_db()
    assert b.signup.status == "confirmed"  # refused: nothing changed


def test_confirming_from_the_waiting_list_needs_a_free_seat(tournament, open_sheet, organiser):
    for first, last in [("A", "Aa"), ("B", "Bb"), ("C", "Cc")]:
        sign(tournament, first, last)
    waiting = Signup.objects.get(last_name="Cc")
    with pytest.raises(SignupError) as refused:
        services.confirm(signup=waiting, user=organiser)
    assert "Plätze" in refused.value.messages[0]
    assert not tournament.entries.exists()
    outcome = services.set_sheet(
        tournament=tournament, user=organiser, is_open=True, capacity=3, closes_at=None
    )
    assert [s.pk for s in outcome.moved_up] == [waiting.pk]  # more seats: the list moves up


def test_moving_on_the_waiting_list(tournament, open_sheet, organiser):
    for first, last in [("A", "Aa"), ("B", "Bb"), ("C", "Cc"), ("D", "Dd"), ("E", "Ee")]:
        sign(tournament, first, last)
    e = Signup.objects.get(last_name="Ee")
    services.move(signup=e, user=organiser, direction="up")
    order = [row.signup.last_name for row in organiser_list(tournament=tournament) if row.position]
    assert order == ["Cc", "Ee", "Dd"]
    services.move(signup=e, user=organiser, direction="up")
    with pytest.raises(SignupError):
        services.move(signup=e, user=organiser, direction="up")
    with pytest.raises(SignupError):
        services.move(signup=Signup.objects.get(last_name="Aa"), user=organiser, direction="up")
    assert SignupChange.objects.filter(action="moved").count() == 2


def test_editing(tournament, open_sheet, organiser, host):
    a = sign(tournament, "Anna", "Arnlod")
    sign(tournament, "Bernd", "Baum")
    services.edit(
        signup=a.signup,
        user=organiser,
        first_name="Anna",
        last_name="Arnold",
        club=host,
        club_text="",
        email="anna@example.org",
    )
    a.signup.refresh_from_db()
    assert a.signup.last_name == "Arnold" and a.signup.club == host
    log = SignupChange.objects.get(action="edited")
    assert log.before["last_name"] == "Arnlod" and log.after["last_name"] == "Arnold"
    with pytest.raises(SignupError):  # another's name
        services.edit(
            signup=a.signup,
            user=organiser,
            first_name="Bernd",
            last_name="Baum",
            club=None,
            club_text="",
            email="",
        )
    services.confirm(signup=a.signup, user=organiser)
    with pytest.raises(SignupError):  # confirmed: the name is the registry's
        services.edit(
            signup=a.signup,
            user=organiser,
            first_name="Anne",
            last_name="Arnold",
            club=host,
            club_text="",
            email="",
        )
    a.signup.refresh_from_db()
    assert a.signup.first_name == "Anna"


def test_signing_up_mails_the_personal_link(client, tournament, open_sheet):
    from signups.services.mail import send_signed_up

    done = sign(tournament, "Anna", "Arnold", email="anna@example.org")
    assert send_signed_up(signup=done.signup, link="https://x/anmeldung/abc/")
    message = mail.outbox[-1]
    assert message.to == ["anna@example.org"] and "https://x/anmeldung/abc/" in message.body
    assert "Frühjahrsturnier" in message.subject
    assert not send_signed_up(signup=sign(tournament, "Bernd", "Baum").signup, link="x")
