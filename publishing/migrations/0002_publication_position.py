from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("publishing", "0001_tokens_and_publications")]

    operations = [
        migrations.AddField(
            model_name="publication",
            name="sent_digests",
            field=models.JSONField(blank=True, default=dict, verbose_name="items sent"),
        ),
        migrations.AddField(
            model_name="publication",
            name="refused_revision",
            field=models.PositiveIntegerField(
                blank=True, null=True, verbose_name="revision refused"
            ),
        ),
    ]
