"""A phone on the hall's network (``python -m tests.hall_phone URL TOKEN SHORT_CODE``), run on
another host of a test network by tests/venue/test_hall_network.py: it knows only the address
the venue printed and the table's short code, as a player reading the score sheet. Opens the
short address, sits down, enters deal 1 and prints what happened as JSON."""

import json
import sys

from tests.servers import Phone, stored


def main() -> None:
    base, token, short_code = sys.argv[1:4]
    phone = Phone(token)
    status, location, _ = phone.request(f"{base}/t/{short_code.lower()}")
    opened = status == 302 and location.endswith(f"/t/{token}/")
    phone.sit_down(base)
    status, location, page = phone.enter_deal(base, 1)
    print(json.dumps({"opened": opened, "stored": stored(status, location, token)}))


if __name__ == "__main__":
    main()
