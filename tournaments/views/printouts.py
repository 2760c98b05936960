"""printouts views."""

urlpatterns: list = []
