"""The PettingZoo environment passes PettingZoo's own API test, and whole
games can be played through it."""

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

from dagaz.pettingzoo import env  # noqa: E402


@pytest.mark.parametrize("game", ["xiangqi", "chess", "kalah"])
def test_api_test(game):
    api_test(env(game, max_plies=60), num_cycles=200)


def test_random_games_to_the_end():
    e = env("checkers", max_plies=400)
    rng = np.random.default_rng(5)
    for _ in range(3):
        e.reset()
        total = {a: 0 for a in e.possible_agents}
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            total[agent] += reward
            if terminated or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            assert legal.size > 0
            e.step(int(rng.choice(legal)))
        assert sorted(total.values()) in ([-1, 1], [0, 0])
