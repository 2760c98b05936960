from tournaments.views import (
    card_count,
    checkin,
    draws,
    entry,
    finish,
    home,
    printouts,
    setup,
    standings,
    table_entry,
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
    *printouts.urlpatterns,
    *card_count.urlpatterns,
]
