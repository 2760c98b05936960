# The season moved to the `seasons` app; its table stays (tournaments_season).

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0005_season_in_seasons_app'),
        ('seasons', '0001_initial'),
        ('tournaments', '0010_referees_change_log_devices_score_bounds'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            # State only: the foreign key points at the same table as before.
            state_operations=[
                migrations.AlterField(
                    model_name='tournament',
                    name='season',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='tournaments', to='seasons.season', verbose_name='season'),
                ),
                migrations.DeleteModel(
                    name='Season',
                ),
            ],
            database_operations=[],
        ),
    ]
