# A short code per table, typed by players whose phone cannot scan the sheet's QR code.
# Added in three steps so that existing tables each get their own code.

import django.db.models.functions.text
import django.db.models.lookups
from django.db import migrations, models

import tournaments.models


def fill_codes(apps, schema_editor):
    Table = apps.get_model("tournaments", "Table")
    used: set[str] = set()
    for pk in Table.objects.values_list("pk", flat=True):
        code = tournaments.models.random_short_code()
        while code in used:
            code = tournaments.models.random_short_code()
        used.add(code)
        Table.objects.filter(pk=pk).update(short_code=code)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0006_youth_prizes_paper_totals"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="short_code",
            field=models.CharField(max_length=6, null=True, verbose_name="short code"),
        ),
        migrations.RunPython(fill_codes, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="table",
            name="short_code",
            field=models.CharField(
                default=tournaments.models.new_short_code,
                max_length=6,
                unique=True,
                verbose_name="short code",
            ),
        ),
        migrations.AddConstraint(
            model_name='table',
            constraint=models.CheckConstraint(condition=models.Q(django.db.models.lookups.Exact(django.db.models.functions.text.Length('short_code'), models.Value(6)), django.db.models.lookups.Exact(models.F('short_code'), django.db.models.functions.text.Upper('short_code'))), name='table_short_code_shape'),
        ),
    ]
