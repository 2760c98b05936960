"""The publication's position item by item (``PublishedItem``), so that a batch writes only
the items it changed; the acknowledged digests kept as JSON so far move into the rows."""

from django.db import migrations, models
import django.db.models.deletion


def digests_to_rows(apps, schema_editor):
    Publication = apps.get_model("publishing", "Publication")
    PublishedItem = apps.get_model("publishing", "PublishedItem")
    for publication in Publication.objects.exclude(sent_hash="").iterator():
        digests = publication.sent_digests or {}
        PublishedItem.objects.bulk_create(
            [
                PublishedItem(publication=publication, key=key, sent=digest)
                for key, digest in digests.items()
                if isinstance(key, str) and isinstance(digest, str) and digest
            ],
            batch_size=500,
        )


def rows_to_digests(apps, schema_editor):
    Publication = apps.get_model("publishing", "Publication")
    PublishedItem = apps.get_model("publishing", "PublishedItem")
    for publication in Publication.objects.iterator():
        publication.sent_digests = dict(
            PublishedItem.objects.filter(publication=publication)
            .exclude(sent="")
            .values_list("key", "sent")
        )
        publication.save(update_fields=["sent_digests"])


class Migration(migrations.Migration):

    dependencies = [
        ("publishing", "0005_fork_safe_publishing"),
    ]

    operations = [
        migrations.AddField(
            model_name="publication",
            name="local_revision",
            field=models.PositiveIntegerField(blank=True, null=True, verbose_name="revision read"),
        ),
        migrations.AddField(
            model_name="publication",
            name="conflicts_told",
            field=models.JSONField(blank=True, default=list, verbose_name="conflicts told"),
        ),
        migrations.CreateModel(
            name="PublishedItem",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("key", models.CharField(max_length=200, verbose_name="key")),
                ("sent", models.CharField(blank=True, max_length=64, verbose_name="digest acknowledged")),
                ("local", models.CharField(blank=True, max_length=64, verbose_name="digest here")),
                (
                    "publication",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="items",
                        to="publishing.publication",
                        verbose_name="publication",
                    ),
                ),
            ],
            options={
                "verbose_name": "published item",
                "verbose_name_plural": "published items",
                "constraints": [
                    models.UniqueConstraint(fields=("publication", "key"), name="published_item_once"),
                    models.CheckConstraint(
                        condition=models.Q(("local", ""), ("sent", ""), _negated=True),
                        name="published_item_somewhere",
                    ),
                ],
            },
        ),
        migrations.RunPython(digests_to_rows, rows_to_digests),
        migrations.RemoveField(model_name="publication", name="sent_digests"),
    ]
