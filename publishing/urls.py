from publishing.laptop.views import urlpatterns as laptop_urlpatterns
from publishing.server.views import urlpatterns as server_urlpatterns

app_name = "publishing"
urlpatterns = [*server_urlpatterns, *laptop_urlpatterns]
