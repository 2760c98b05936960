from django.urls import path

from handbook import views

app_name = "handbook"

urlpatterns = [
    path("hilfe/", views.handbook, name="handbook"),
]
