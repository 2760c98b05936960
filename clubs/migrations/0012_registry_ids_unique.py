# Step 3 of 3: every row has its id; now required, unique, and given to new rows.
import uuid

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("clubs", "0011_registry_ids_filled")]

    operations = [
        migrations.AlterField(
            model_name="club",
            name="uuid",
            field=models.UUIDField(
                default=uuid.uuid4, editable=False, unique=True, verbose_name="registry id"
            ),
        ),
        migrations.AlterField(
            model_name="player",
            name="uuid",
            field=models.UUIDField(
                default=uuid.uuid4, editable=False, unique=True, verbose_name="registry id"
            ),
        ),
    ]
