from tournaments.views import (
    archive,
    card_count,
    checkin,
    draws,
    entry,
    finish,
    hall,
    home,
    log,
    player_day,
    registration,
    results_import,
    rules,
    setup,
    standings,
    table_entry,
    teams,
    written,
)

app_name = "tournaments"

# Each area keeps its routes beside its views.
urlpatterns = [
    *home.urlpatterns,
    *setup.urlpatterns,
    *checkin.urlpatterns,
    *draws.urlpatterns,
    *entry.urlpatterns,
    *written.urlpatterns,
    *finish.urlpatterns,
    *table_entry.urlpatterns,
    *standings.urlpatterns,
    *player_day.urlpatterns,
    *card_count.urlpatterns,
    *teams.urlpatterns,
    *registration.urlpatterns,
    *results_import.urlpatterns,
    *archive.urlpatterns,
    *log.urlpatterns,
    *hall.urlpatterns,
    *rules.urlpatterns,
]
