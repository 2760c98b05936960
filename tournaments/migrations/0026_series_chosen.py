from django.db import migrations, models


class Migration(migrations.Migration):
    # The tournaments already in a series are marked by seasons' 0008 (it needs their table).
    dependencies = [("tournaments", "0025_sheet_photos")]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="series_chosen",
            field=models.BooleanField(default=False, editable=False),
        ),
    ]
