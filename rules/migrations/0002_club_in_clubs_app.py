# The club a house rule belongs to now lives in the `clubs` app (same table).

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0001_initial'),
        ('rules', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            # The tables stay as they are; only Django's idea of which app owns them moves.
            state_operations=[
                migrations.AlterField(
                    model_name='houserulesource',
                    name='club',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rule_sources', to='clubs.club', verbose_name='club'),
                ),
            ],
            database_operations=[],
        ),
    ]
