from ceremony import views

app_name = "ceremony"

urlpatterns = views.urlpatterns
