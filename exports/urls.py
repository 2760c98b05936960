from exports import views

app_name = "exports"

urlpatterns = views.urlpatterns
