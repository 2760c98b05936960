from tournaments.views import (
    card_count,
    checkin,
    draws,
    entry,
    home,
    printouts,
    setup,
    standings,
    table_entry,
)

app_name = "tournaments"

# Each area keeps its routes beside its views.
urlpatterns = [
    *home.urlpatterns,
    *setup.urlpatterns,
    *checkin.urlpatterns,
    *draws.urlpatterns,
    *entry.urlpatterns,
    *table_entry.urlpatterns,
    *standings.urlpatterns,
    *printouts.urlpatterns,
    *card_count.urlpatterns,
]
