"""Settings for Cego Club: one module, configured through environment variables.

Secure by default: with nothing set, DEBUG is off and the app refuses to start without a
SECRET_KEY. `make run` (the demo), `make venue` (a tournament day on the organiser's laptop,
see `venue/environment.py`) and the test suite set what they need; a club server sets the
variables listed in `docs/DEPLOY.md`.
"""

import datetime as dt
import os
import secrets
import tempfile
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
# Templates, static files and message catalogues live in the package, so that the checkout and
# an installed wheel find them the same way.
PACKAGE_DIR = Path(__file__).resolve().parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or not value.strip():
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def secret_key_from_file(path: Path) -> str:
    """The key kept in ``path``; created (once, readable by its owner only) if missing."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_urlsafe(50))
    key = path.read_text().strip()
    if not key:
        raise ImproperlyConfigured(f"The secret key file {path} is empty; delete it to renew it.")
    return key


DEBUG = env_bool("DEBUG", False)
# The demo's logins share a published password: `load_demo` runs in debug mode only (make run),
# never against a club's real database.
DEMO_DATA_ALLOWED = DEBUG
SECRET_KEY = os.environ.get("SECRET_KEY", "").strip()
if not SECRET_KEY and os.environ.get("SECRET_KEY_FILE"):
    SECRET_KEY = secret_key_from_file(Path(os.environ["SECRET_KEY_FILE"]))
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Set SECRET_KEY (or SECRET_KEY_FILE, a file to keep a "
            "generated one in) in the environment, or DEBUG=1 for local development. "
            "See docs/DEPLOY.md; for a tournament day use `make venue`."
        )
    # Development only: a fresh key per process (sessions end when the server restarts).
    SECRET_KEY = secrets.token_urlsafe(50)

# No "*" default: with DEBUG off only the hosts named here are served.
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

# HTTPS behind a reverse proxy (the club server): on by default when DEBUG is off. The venue
# server on the hall's network speaks plain HTTP and sets HTTPS=0.
HTTPS = env_bool("HTTPS", not DEBUG)
if HTTPS:
    # Caddy (or another proxy) terminates TLS and says so in this header; gunicorn listens on
    # 127.0.0.1 only, so nobody else can send it.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)

# Venue mode (`manage.py venue`, set by venue/environment.py): the laptop serves the hall's
# Wi-Fi over plain HTTP. A login then holds only on the device it was made on and for the day
# (venue/sessions.py): a browser-session cookie, 16 hours at most; the organiser's pages warn
# that the Wi-Fi is shared and unencrypted. Elsewhere Django's defaults (two weeks) stand.
VENUE_MODE = env_bool("VENUE_MODE", False)
if VENUE_MODE:
    SESSION_EXPIRE_AT_BROWSER_CLOSE = True
    SESSION_COOKIE_AGE = 16 * 3600
    # Every phone request reads its session (the seat it chose): from the cache, written
    # through to the database. One process with its cache in local memory, so no other
    # process can hold an old copy (not for the club server's several processes).
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

INSTALLED_APPS = [
    "cego_club",  # first: compiles the message catalogues before anything is translated
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_tables2",
    "django_htmx",
    "axes",
    # The product's areas, from the bottom up (docs/ARCHITECTURE.md has the map):
    "venue",  # the laptop in the hall: data folder, addresses, backups; venue/backup/restore
    "rules",  # rule sources as data, tariff cards (the engine is the package `scoring`)
    "clubs",  # the registry: clubs, players, memberships, fees, roles, member lists
    "seasons",  # a season's rules, standings and pages
    "tournaments",  # the tournament day: setup, check-in, draw, results, standings
    "ratings",  # the rating across seasons (openskill), apart from the standings
    "publishing",  # venue laptops send tournaments to the season server; tokens, registry
    "signups",  # online pre-registration on the season server, with a waiting list
    "treasury",  # entry fees, prize money, the treasurer's view
    "ceremony",  # the prize ceremony: places hidden until it, its steps on the projector
    "simultaneous",  # a simultaneous Cego day: several halls, one live overall ranking
    "printing",  # every PDF: the toolkit and the documents
    "exports",  # every Excel workbook
    "api",  # the read API for the association's website (/api/v1/)
    "handbook",  # the handbook ("Hilfe", /hilfe/): the organiser's day in German
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "cego_club.platform.csp.ContentSecurityPolicyMiddleware",  # the app's own scripts and styles only
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "cego_club.platform.language.ChosenLanguageMiddleware",  # German unless the switch says otherwise
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "venue.sessions.VenueSessionMiddleware",  # venue mode: a login holds on its device only
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "tournaments.views.device.DeviceCookieMiddleware",
    # Last, as django-axes asks: turns a blocked login into the login page with the reason.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "cego_club.urls"
WSGI_APPLICATION = "cego_club.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [PACKAGE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "venue.sessions.venue_context",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0")),
    )
}
if os.environ.get("SQLITE_PATH"):
    # Venue mode names its database file directly (a Windows path in a URL is fragile).
    DATABASES["default"] = {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.environ["SQLITE_PATH"],
        "CONN_MAX_AGE": int(os.environ.get("CONN_MAX_AGE", "0")),
    }
# A kept connection is checked before a request uses it, so a restarted database is no error.
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Django's, with this process's writers queued in the process (cego_club/platform/sqlite/base.py).
    DATABASES["default"]["ENGINE"] = "cego_club.platform.sqlite"
    # Wait for a concurrent writer instead of failing at once: phones and the desk
    # write at the same time on a laptop running SQLite.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
    DATABASES["default"]["OPTIONS"]["transaction_mode"] = "IMMEDIATE"
    if env_bool("SQLITE_WAL", False):
        # Venue mode: readers (standings, phones' sheets) never wait for the writer.
        DATABASES["default"]["OPTIONS"]["init_command"] = (
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
        )
    # Tests use a file too (not shared-cache memory, which ignores the busy timeout), so that
    # concurrent-entry tests see the locking organisers get. One file per test process.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"cego_club_test_{os.getpid()}.sqlite3")
    }

# Local memory per process by default (venue mode: one process); Redis when REDIS_URL is set
# (the club server, several processes).
if os.environ.get("REDIS_URL"):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": os.environ["REDIS_URL"],
            # several sites (or test runs) can share one Redis without reading each other's keys
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "cego"),
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Mail (the online sign-up's personal links and "you moved up"): printed to the console
# unless a club server sets EMAIL_BACKEND (and EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER,
# EMAIL_HOST_PASSWORD, EMAIL_USE_TLS as Django reads them).
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Cego Club <cego-club@localhost>")
# The public sign-up form per client address (venue.client_ip) and window: at most so many
# different names, the same name so often, sends at all (signups/services/throttle.py says
# why these numbers); and first mails to one e-mail address per day.
SIGNUP_THROTTLE_SECONDS = int(os.environ.get("SIGNUP_THROTTLE_SECONDS", "600"))
SIGNUP_THROTTLE_NAMES = int(os.environ.get("SIGNUP_THROTTLE_NAMES", "30"))
SIGNUP_THROTTLE_SAME_NAME = int(os.environ.get("SIGNUP_THROTTLE_SAME_NAME", "5"))
SIGNUP_THROTTLE_POSTS = int(os.environ.get("SIGNUP_THROTTLE_POSTS", "60"))
SIGNUP_MAILS_PER_ADDRESS = int(os.environ.get("SIGNUP_MAILS_PER_ADDRESS", "20"))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "de"
LANGUAGES = [("de", _("German")), ("en", _("English"))]
LOCALE_PATHS = [PACKAGE_DIR / "locale"]
# Dates and times per language: 28.11.2026, 11:13 Uhr in German; 28 Nov 2026 in English.
FORMAT_MODULE_PATH = "cego_club.platform.formats"
TIME_ZONE = "Europe/Berlin"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
# cego_club/static is found as the app's own static folder (AppDirectoriesFinder).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "cego_club.platform.staticfiles.KeptAddressesStorage"  # whitenoise's, addresses kept
            if not DEBUG
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# django-axes first: it refuses a blocked login before the password is even checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Login throttling (django-axes): after AXES_FAILURE_LIMIT wrong passwords for one user name
# from one address, that login is refused for AXES_COOLOFF_TIME, even with the right password.
# By name *and* address: a guesser cannot lock an organiser out from elsewhere, and one
# venue's shared address does not lock everybody in the hall out.
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = dt.timedelta(minutes=int(os.environ.get("LOGIN_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "clubs.views.accounts.locked_out"
AXES_VERBOSE = False


def env_count(name: str) -> int:
    value = os.environ.get(name, "").strip() or "0"
    if not value.isdigit():
        raise ImproperlyConfigured(f"{name} must be a whole number (0 or more), not {value!r}.")
    return int(value)


# The client's address (login throttling, the deal history): REMOTE_ADDR, or behind N reverse
# proxies (Caddy on the club server: 1) the N-th X-Forwarded-For entry from the right. Only set
# it when the app is reachable through the proxies alone; see docs/DEPLOY.md.
TRUSTED_PROXY_COUNT = env_count("TRUSTED_PROXY_COUNT")
AXES_CLIENT_IP_CALLABLE = "venue.client_ip.client_ip"

DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5-responsive.html"

# The public address printed in QR codes on score sheets (phones at the tables open it).
# Empty: use the address the organiser's browser used. Venue mode sets the laptop's LAN address.
PUBLIC_BASE_URL = os.environ.get("PUBLIC_BASE_URL", "").rstrip("/")

# Venue mode: a backup of the database is written here whenever a round is closed (the last
# ten are kept). Empty: no automatic backups.
VENUE_BACKUP_DIR = os.environ.get("VENUE_BACKUP_DIR", "")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# The health check answers over plain HTTP too (a monitor on the server itself).
SECURE_REDIRECT_EXEMPT = [r"^health/$"]
