"""standings views."""

urlpatterns: list = []
