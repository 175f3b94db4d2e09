"""Rates the games on stdin with openskill (PyPI), BradleyTerryFull, tau = 0: the independent
implementation services/house/tests/openskill.rs holds ledger-house's ratings to.

stdin: {"model": "plain" | "role_aware", "games": [{"players": [...4], "roles": [...4],
"ranks": [...4]}]}, in the order the games ended. stdout: {"players": {id: [mu, sigma]},
"roles": {role: [mu, sigma]}}.
"""
import json
import sys

from openskill.models import BradleyTerryFull

model = BradleyTerryFull(mu=25.0, sigma=25.0 / 3.0, beta=25.0 / 6.0, kappa=0.0001, tau=0.0)
data = json.load(sys.stdin)
players, roles = {}, {}


def rating(book, key):
    if key not in book:
        book[key] = model.rating(name=key)
    return book[key]


for game in data["games"]:
    if data["model"] == "plain":
        teams = [[rating(players, p)] for p in game["players"]]
    else:
        teams = [[rating(players, p), rating(roles, r)] for p, r in zip(game["players"], game["roles"])]
    rated = model.rate(teams, ranks=game["ranks"])
    for p, r, team in zip(game["players"], game["roles"], rated):
        players[p] = team[0]
        if data["model"] != "plain":
            roles[r] = team[1]

json.dump(
    {
        "players": {k: [v.mu, v.sigma] for k, v in players.items()},
        "roles": {k: [v.mu, v.sigma] for k, v in roles.items()},
    },
    sys.stdout,
)
