# Clubs, players and memberships move from `tournaments` to `clubs`, keeping their tables.

import django.core.validators
import django.db.models.deletion
from django.db import migrations, models

MOVED = ["club", "player", "membership"]


def _relabel(apps, old, new):
    # Keep permissions and admin log entries pointing at the same rows.
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in MOVED:
        if not ContentType.objects.filter(app_label=new, model=model).exists():
            ContentType.objects.filter(app_label=old, model=model).update(app_label=new)


def move_content_types(apps, schema_editor):
    _relabel(apps, "tournaments", "clubs")


def move_content_types_back(apps, schema_editor):
    _relabel(apps, "clubs", "tournaments")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('tournaments', '0002_round_change'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            # The tables stay as they are; only Django's idea of which app owns them moves.
            state_operations=[
                migrations.CreateModel(
                    name='Club',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=120, unique=True, verbose_name='name')),
                        ('short_name', models.CharField(max_length=20, unique=True, verbose_name='short name')),
                        ('town', models.CharField(max_length=80, verbose_name='town')),
                    ],
                    options={
                        'verbose_name': 'club',
                        'verbose_name_plural': 'clubs',
                        'db_table': 'tournaments_club',
                        'ordering': ['name'],
                        'constraints': [models.CheckConstraint(condition=models.Q(('name', ''), _negated=True), name='club_name_not_empty'), models.CheckConstraint(condition=models.Q(('short_name', ''), _negated=True), name='club_short_name_not_empty')],
                    },
                ),
                migrations.CreateModel(
                    name='Membership',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('member_number', models.CharField(blank=True, max_length=20, verbose_name='member number')),
                        ('since', models.DateField(blank=True, null=True, verbose_name='member since')),
                        ('status', models.CharField(choices=[('active', 'active'), ('passive', 'passive')], default='active', max_length=10, verbose_name='status')),
                        ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='memberships', to='clubs.club', verbose_name='club')),
                    ],
                    options={
                        'verbose_name': 'membership',
                        'verbose_name_plural': 'memberships',
                        'db_table': 'tournaments_membership',
                    },
                ),
                migrations.CreateModel(
                    name='Player',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('first_name', models.CharField(max_length=60, verbose_name='first name')),
                        ('last_name', models.CharField(max_length=60, verbose_name='last name')),
                        ('birth_year', models.PositiveSmallIntegerField(blank=True, null=True, validators=[django.core.validators.MinValueValidator(1900), django.core.validators.MaxValueValidator(2100)], verbose_name='birth year')),
                        ('category', models.CharField(choices=[('open', 'open'), ('woman', 'woman'), ('youth', 'youth'), ('senior', 'senior')], default='open', help_text='For side rankings such as best woman or best youth.', max_length=10, verbose_name='category')),
                        ('email', models.EmailField(blank=True, max_length=254, verbose_name='e-mail')),
                        ('clubs', models.ManyToManyField(related_name='players', through='clubs.Membership', to='clubs.club', verbose_name='clubs')),
                    ],
                    options={
                        'verbose_name': 'player',
                        'verbose_name_plural': 'players',
                        'db_table': 'tournaments_player',
                        'ordering': ['last_name', 'first_name'],
                    },
                ),
                migrations.AddField(
                    model_name='membership',
                    name='player',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='memberships', to='clubs.player', verbose_name='player'),
                ),
                migrations.AddConstraint(
                    model_name='player',
                    constraint=models.CheckConstraint(condition=models.Q(('last_name', ''), _negated=True), name='player_last_name_not_empty'),
                ),
                migrations.AddConstraint(
                    model_name='player',
                    constraint=models.CheckConstraint(condition=models.Q(('birth_year__isnull', True), ('birth_year__range', (1900, 2100)), _connector='OR'), name='player_birth_year_plausible'),
                ),
                migrations.AddConstraint(
                    model_name='player',
                    constraint=models.CheckConstraint(condition=models.Q(('category__in', ['open', 'woman', 'youth', 'senior'])), name='player_category_valid'),
                ),
                migrations.AddConstraint(
                    model_name='membership',
                    constraint=models.UniqueConstraint(fields=('player', 'club'), name='membership_once_per_club'),
                ),
                migrations.AddConstraint(
                    model_name='membership',
                    constraint=models.UniqueConstraint(condition=models.Q(('member_number', ''), _negated=True), fields=('club', 'member_number'), name='membership_number_unique_in_club'),
                ),
                migrations.AddConstraint(
                    model_name='membership',
                    constraint=models.CheckConstraint(condition=models.Q(('status__in', ['active', 'passive'])), name='membership_status_valid'),
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
