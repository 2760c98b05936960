# Step 2 of 3: a distinct id for every existing club and player.
import uuid

from django.db import migrations


def fill(apps, schema_editor):
    for name in ("Club", "Player"):
        model = apps.get_model("clubs", name)
        rows = list(model.objects.filter(uuid__isnull=True).only("pk"))
        for row in rows:
            row.uuid = uuid.uuid4()
        model.objects.bulk_update(rows, ["uuid"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("clubs", "0010_registry_ids_added")]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop, elidable=True)]
