"""setup views."""

urlpatterns: list = []
