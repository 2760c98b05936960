from seasons.views import admin, players, scoring, standings

app_name = "seasons"

# Each page area keeps its routes beside its views.
urlpatterns = [
    *admin.urlpatterns,
    *standings.urlpatterns,
    *scoring.urlpatterns,
    *players.urlpatterns,
]
