from django.db import migrations


def mark_tournaments_in_series(apps, schema_editor):
    """A tournament that counts for another series already has had its series chosen
    (tournaments.Tournament.series_chosen): removing its last one must travel too."""
    Tournament = apps.get_model("tournaments", "Tournament")
    SeriesMembership = apps.get_model("seasons", "SeriesMembership")
    Tournament.objects.filter(pk__in=SeriesMembership.objects.values("tournament_id")).update(
        series_chosen=True
    )


class Migration(migrations.Migration):
    dependencies = [
        ("seasons", "0007_series_memberships"),
        ("tournaments", "0026_series_chosen"),
    ]

    operations = [migrations.RunPython(mark_tournaments_in_series, migrations.RunPython.noop)]
