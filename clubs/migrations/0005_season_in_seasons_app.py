# The annual fee's season is now `seasons.Season` (same table, same column).

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0004_clubrole'),
        ('seasons', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            # State only: the foreign key points at the same table as before.
            state_operations=[
                migrations.AlterField(
                    model_name='annualfee',
                    name='season',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='annual_fees', to='seasons.season', verbose_name='season'),
                ),
            ],
            database_operations=[],
        ),
    ]
