from treasury import views

app_name = "treasury"

urlpatterns = views.urlpatterns
