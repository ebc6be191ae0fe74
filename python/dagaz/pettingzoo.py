"""A PettingZoo AEC environment for every dagaz game.

>>> from dagaz.pettingzoo import env
>>> e = env("xiangqi")
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape == e.observation_space(e.agent_selection)["observation"].shape
True

Agents are ``"player_0"``, ``"player_1"``, … in the game's turn order
(``env.unwrapped.game.players`` names them). Each observation is a dict of ``observation`` (the session's
float32 planes) and ``action_mask`` (int8, 1 for the legal actions of the
agent to move, all 0 for the others); actions are the game's fixed move
numbers (``Game.num_actions``). At the end of a game the winner gets +1,
every other player -1; a draw gives 0 to all. Games longer than
``max_plies`` are truncated.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import dagaz


def env(game: str = "chess", render_mode: Optional[str] = None, max_plies: int = 500) -> "DagazEnv":
    """A PettingZoo AEC environment for ``game`` (a dagaz game name or file)."""
    return DagazEnv(game, render_mode=render_mode, max_plies=max_plies)


class DagazEnv(AECEnv):
    """Turn-by-turn play of one dagaz game."""

    metadata = {"render_modes": ["ansi"], "name": "dagaz_v0", "is_parallelizable": False}

    def __init__(self, game: str = "chess", render_mode: Optional[str] = None, max_plies: int = 500):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: use None or 'ansi'")
        self.game = dagaz.Game(game)
        self.render_mode = render_mode
        self.max_plies = max_plies
        self.possible_agents = [f"player_{i}" for i in range(len(self.game.players))]
        n = self.game.num_actions
        shape = self.game.observation_shape
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=0.0, high=np.inf, shape=shape, dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.session: Optional[dagaz.Session] = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.session is not None, "call reset() first"
        mine = agent == self._agent_to_move() and not self.session.is_over
        if mine:
            mask = self.session.legal_action_mask().astype(np.int8)
        else:
            mask = np.zeros(self.game.num_actions, dtype=np.int8)
        return {"observation": self.session.observation(), "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> None:
        self.session = self.game.new_session()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self._agent_to_move()

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.session is not None, "call reset() first"
        if action is None:
            raise ValueError("a live agent must give an action")
        self.session.push_action(int(action))
        self._cumulative_rewards[agent] = 0
        result = self.session.result()
        if result is not None:
            for i, a in enumerate(self.agents):
                self.rewards[a] = 0 if result.draw else (1 if i == result.winner else -1)
                self.terminations[a] = True
        elif self.session.ply >= self.max_plies:
            for a in self.agents:
                self.truncations[a] = True
        self.agent_selection = self._agent_to_move()
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> Optional[str]:
        if self.render_mode is None or self.session is None:
            return None
        return self.session.render()

    def close(self) -> None:
        pass

    def _agent_to_move(self) -> str:
        assert self.session is not None
        return self.possible_agents[self.session.side]
