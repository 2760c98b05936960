from seasons.views import (
    admin,
    appeals,
    honours,
    players,
    press,
    sanctions,
    schedule,
    scoring,
    series,
    standings,
    statistics,
)

app_name = "seasons"

# Each page area keeps its routes beside its views.
urlpatterns = [
    *admin.urlpatterns,
    *standings.urlpatterns,
    *scoring.urlpatterns,
    *players.urlpatterns,
    *schedule.urlpatterns,
    *honours.urlpatterns,
    *statistics.urlpatterns,
    *appeals.urlpatterns,
    *sanctions.urlpatterns,
    *press.urlpatterns,
    *series.urlpatterns,
]
