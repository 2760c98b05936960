"""The only code of the club area that changes state: keyword-only functions, each in
``transaction.atomic`` with the rows it changes locked; problems are ``ValidationError``s
keyed by form field."""
