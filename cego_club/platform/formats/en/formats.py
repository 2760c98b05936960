# English dates that cannot be misread: 28 Nov 2026, 11:13 (never 11/28/2026).
DATE_FORMAT = "j M Y"
SHORT_DATE_FORMAT = "j M Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
MONTH_DAY_FORMAT = "j F"
YEAR_MONTH_FORMAT = "F Y"
DATE_INPUT_FORMATS = ["%Y-%m-%d", "%d.%m.%Y", "%d %b %Y", "%d %B %Y"]
FIRST_DAY_OF_WEEK = 1
