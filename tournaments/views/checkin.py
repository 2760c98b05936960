"""checkin views."""

urlpatterns: list = []
