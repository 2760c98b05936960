from printing import views

app_name = "printing"

urlpatterns = views.urlpatterns
