"""table_entry views."""

urlpatterns: list = []
