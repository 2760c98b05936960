# The season moves from `tournaments` to `seasons`, keeping its table (tournaments_season).

import django.core.validators
from django.db import migrations, models


def _relabel(apps, old, new):
    # Keep permissions and admin log entries pointing at the same rows.
    ContentType = apps.get_model("contenttypes", "ContentType")
    if not ContentType.objects.filter(app_label=new, model="season").exists():
        ContentType.objects.filter(app_label=old, model="season").update(app_label=new)


def move_content_type(apps, schema_editor):
    _relabel(apps, "tournaments", "seasons")


def move_content_type_back(apps, schema_editor):
    _relabel(apps, "seasons", "tournaments")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('tournaments', '0010_referees_change_log_devices_score_bounds'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            # The table stays as it is; only Django's idea of which app owns it moves.
            state_operations=[
        migrations.CreateModel(
            name='Season',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=120, unique=True, verbose_name='name')),
                ('starts_on', models.DateField(verbose_name='starts on')),
                ('ends_on', models.DateField(verbose_name='ends on')),
                ('youth_born_from', models.PositiveSmallIntegerField(blank=True, help_text='Players born in this year or later count as youth in this season.', null=True, validators=[django.core.validators.MinValueValidator(1900), django.core.validators.MaxValueValidator(2100)], verbose_name='youth: born in or after')),
                ('scoring', models.CharField(choices=[('sum', 'sum of all results, negative ones included'), ('best_n', 'sum of the best N results'), ('cup', 'cup points per place')], default='sum', max_length=10, verbose_name='season rule')),
                ('best_of', models.PositiveSmallIntegerField(blank=True, help_text='Only for the best-N rule: how many results count.', null=True, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(99)], verbose_name='best N results')),
                ('cup_points', models.JSONField(blank=True, default=list, verbose_name='cup points per place')),
                ('min_tournaments', models.PositiveSmallIntegerField(default=1, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(99)], verbose_name='minimum tournaments to be ranked')),
            ],
            options={
                'verbose_name': 'season',
                'verbose_name_plural': 'seasons',
                'db_table': 'tournaments_season',
                'ordering': ['-starts_on'],
                'constraints': [models.CheckConstraint(condition=models.Q(('ends_on__gte', models.F('starts_on'))), name='season_ends_after_start'), models.CheckConstraint(condition=models.Q(('scoring__in', ['sum', 'best_n', 'cup'])), name='season_scoring_valid'), models.CheckConstraint(condition=models.Q(models.Q(('scoring', 'best_n'), _negated=True), ('best_of__gte', 1), _connector='OR'), name='season_best_of_given'), models.CheckConstraint(condition=models.Q(('min_tournaments__gte', 1)), name='season_min_tournaments_positive')],
            },
        ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_type, move_content_type_back),
    ]
