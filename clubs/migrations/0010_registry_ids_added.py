# The registry's identity across servers, step 1 of 3: the column, empty (a callable default
# in AddField is evaluated once, which would give every row the same id).
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("clubs", "0009_annual_fee_recorded_by")]

    operations = [
        migrations.AddField(
            model_name="club",
            name="uuid",
            field=models.UUIDField(editable=False, null=True, verbose_name="registry id"),
        ),
        migrations.AddField(
            model_name="player",
            name="uuid",
            field=models.UUIDField(editable=False, null=True, verbose_name="registry id"),
        ),
    ]
