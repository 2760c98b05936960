from clubs.views import admin, imports, players, setup

app_name = "clubs"

# Each area keeps its routes beside its views.
urlpatterns = [
    *players.urlpatterns,
    *imports.urlpatterns,
    *admin.urlpatterns,
    *setup.urlpatterns,
]
