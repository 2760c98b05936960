"""entry views."""

urlpatterns: list = []
