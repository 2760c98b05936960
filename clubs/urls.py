from clubs.views import admin, imports, players, registration

app_name = "clubs"

# Each area keeps its routes beside its views.
urlpatterns = [
    *players.urlpatterns,
    *imports.urlpatterns,
    *registration.urlpatterns,
    *admin.urlpatterns,
]
