# German dates and times on every page: 28.11.2026, 11:13 Uhr (settings.FORMAT_MODULE_PATH).
DATE_FORMAT = "d.m.Y"
SHORT_DATE_FORMAT = "d.m.Y"
TIME_FORMAT = r"H:i \U\h\r"
DATETIME_FORMAT = r"d.m.Y, H:i \U\h\r"
SHORT_DATETIME_FORMAT = "d.m.Y H:i"
MONTH_DAY_FORMAT = "j. F"
YEAR_MONTH_FORMAT = "F Y"
DATE_INPUT_FORMATS = ["%d.%m.%Y", "%d.%m.%y", "%Y-%m-%d"]
FIRST_DAY_OF_WEEK = 1
DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "."
