# Clubs, players and memberships moved to the `clubs` app; their tables stay.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0001_initial'),
        ('rules', '0002_club_in_clubs_app'),
        ('tournaments', '0002_round_change'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            # The tables stay as they are; only Django's idea of which app owns them moves.
            state_operations=[
                migrations.AlterField(
                    model_name='tournament',
                    name='host_club',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='tournaments', to='clubs.club', verbose_name='host club'),
                ),
                migrations.RemoveField(
                    model_name='membership',
                    name='club',
                ),
                migrations.RemoveField(
                    model_name='player',
                    name='clubs',
                ),
                migrations.RemoveField(
                    model_name='membership',
                    name='player',
                ),
                migrations.AlterField(
                    model_name='entry',
                    name='player',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='entries', to='clubs.player', verbose_name='player'),
                ),
                migrations.DeleteModel(
                    name='Club',
                ),
                migrations.DeleteModel(
                    name='Membership',
                ),
                migrations.DeleteModel(
                    name='Player',
                ),
            ],
            database_operations=[],
        ),
    ]
