from simultaneous import views

app_name = "simultaneous"

urlpatterns = views.urlpatterns
