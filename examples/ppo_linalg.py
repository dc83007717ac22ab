"""PPO with action masks on rlopt's Linalg scheduling environment, in one
file (CleanRL's layout). The action is MultiDiscrete: a transformation and
its parameters (tile sizes per loop, the interchange level pointer); each
head is a masked categorical and the action's log-probability is their sum.
The reward is the log of the measured speedup over the naive program.

    PYTHONPATH=build/python python3 examples/ppo_linalg.py --iterations 20
"""

import argparse
import time

import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical

import rlopt


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--iterations", type=int, default=20)
    p.add_argument("--steps", type=int, default=128,
                   help="environment steps per iteration")
    p.add_argument("--suite", default="ops-small")
    p.add_argument("--benchmark", default=None,
                   help="one program URI instead of the suite")
    p.add_argument("--cache", default="",
                   help="measurement cache (default: rlopt's own)")
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--gamma", type=float, default=1.0)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--minibatches", type=int, default=4)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--entropy", type=float, default=0.01)
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args()


class Agent(nn.Module):
    def __init__(self, features, nvec):
        super().__init__()
        self.nvec = [int(n) for n in nvec]
        self.body = nn.Sequential(nn.Linear(features, 256), nn.Tanh(),
                                  nn.Linear(256, 256), nn.Tanh())
        self.actor = nn.Linear(256, sum(self.nvec))
        self.critic = nn.Linear(256, 1)

    def value(self, obs):
        return self.critic(self.body(obs)).squeeze(-1)

    def act(self, obs, mask, action=None):
        hidden = self.body(obs)
        logits = self.actor(hidden).masked_fill(~mask, -1e9)
        heads = [Categorical(logits=part)
                 for part in logits.split(self.nvec, dim=-1)]
        if action is None:
            action = torch.stack([head.sample() for head in heads], dim=-1)
        logprob = sum(head.log_prob(action[..., i])
                      for i, head in enumerate(heads))
        entropy = sum(head.entropy() for head in heads)
        return action, logprob, entropy, self.critic(hidden).squeeze(-1)


def flat_mask(masks):
    return torch.as_tensor(np.concatenate(masks) > 0)


def main():
    args = parse_args()
    torch.manual_seed(args.seed)
    where = ({"benchmark": args.benchmark} if args.benchmark
             else {"suite": args.suite, "split": "train"})
    env = rlopt.make("linalg-v0", cache=args.cache, **where)
    features = env.observation_space.shape[0]
    nvec = env.action_space.nvec
    agent = Agent(features, nvec)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)

    n = args.steps
    obs_buf = torch.zeros((n, features))
    mask_buf = torch.zeros((n, int(sum(nvec))), dtype=torch.bool)
    actions = torch.zeros((n, len(nvec)), dtype=torch.long)
    logprobs, rewards = torch.zeros(n), torch.zeros(n)
    dones, values = torch.zeros(n), torch.zeros(n)

    obs, info = env.reset(seed=args.seed)
    speedups = []
    start = time.time()
    for iteration in range(1, args.iterations + 1):
        for t in range(n):
            obs_buf[t] = torch.as_tensor(obs)
            mask_buf[t] = flat_mask(info["action_mask"])
            with torch.no_grad():
                action, logprob, _, value = agent.act(obs_buf[t],
                                                      mask_buf[t])
            actions[t], logprobs[t], values[t] = action, logprob, value
            obs, reward, terminated, truncated, info = env.step(
                action.numpy())
            rewards[t] = reward
            dones[t] = float(terminated or truncated)
            if terminated or truncated:
                measured = info.get("measurement", {})
                speedups.append(measured.get("speedup", 0.0))
                obs, info = env.reset()

        with torch.no_grad():
            next_value = agent.value(torch.as_tensor(obs))
            advantages = torch.zeros(n)
            last = 0.0
            for t in reversed(range(n)):
                following = next_value if t == n - 1 else values[t + 1]
                live = 1.0 - dones[t]
                delta = rewards[t] + args.gamma * following * live - values[t]
                last = delta + args.gamma * args.gae_lambda * live * last
                advantages[t] = last
            targets = advantages + values

        size = n // args.minibatches
        for _ in range(args.epochs):
            for batch in torch.randperm(n).split(size):
                _, new_logprob, entropy, new_value = agent.act(
                    obs_buf[batch], mask_buf[batch], actions[batch])
                ratio = (new_logprob - logprobs[batch]).exp()
                adv = advantages[batch]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                policy_loss = torch.max(
                    -adv * ratio,
                    -adv * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
                value_loss = 0.5 * (new_value - targets[batch]).pow(2).mean()
                loss = (policy_loss + 0.5 * value_loss
                        - args.entropy * entropy.mean())
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optimizer.step()

        recent = [s for s in speedups[-20:] if s > 0]
        geomean = float(np.exp(np.mean(np.log(recent)))) if recent else 0.0
        print(f"iteration {iteration}: steps {iteration * n}, "
              f"episodes {len(speedups)}, geomean speedup (last 20) "
              f"{geomean:.2f}x, loss {loss.item():.4f}, "
              f"{time.time() - start:.1f}s", flush=True)
    env.close()


if __name__ == "__main__":
    main()
