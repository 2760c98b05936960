from seasons.views import admin, players, scoring, standings, statistics

app_name = "seasons"

# Each page area keeps its routes beside its views.
urlpatterns = [
    *admin.urlpatterns,
    *standings.urlpatterns,
    *scoring.urlpatterns,
    *players.urlpatterns,
    *statistics.urlpatterns,
]
