"""draws views."""

urlpatterns: list = []
