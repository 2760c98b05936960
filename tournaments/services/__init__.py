"""The service layer: the one place where tournament state changes.

Every public function takes keyword-only arguments and runs inside ``transaction.atomic``;
views and commands call these and never save models themselves.
"""
